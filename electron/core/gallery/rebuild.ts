/**
 * Rebuilds the library from the gallery folder alone: every `pictor.json` found, checked
 * against the record schema and against the files actually on disk.
 *
 * Trust rules: a sidecar's location wins over the folder it names (the user may have moved
 * it); image files are looked up by their deterministic names (`image-<n>.<ext>`), never by
 * the paths written in the sidecar. An image whose file is missing comes back `pending` when
 * it has a URL (the engine tries to download it again; an expired URL then says so) and
 * `invalid` when it has none. Images recorded as `expired` or `invalid` keep that state.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { TEMP_DIR } from './atomic-file';
import { errorCode } from './download-outcome';
import { toGalleryPath } from './gallery-path';
import { THUMBS_DIR, imageNames } from './image-finish';
import { IMAGE_MIME, type ImageKind } from './image-sniff';
import { MAX_SIDECAR_BYTES, SIDECAR_NAME, parseSidecar } from './sidecar';

/** Sidecars read and checked at once: enough to hide disk latency, few enough to stay polite. */
const CONCURRENCY = 8;
/** Deeper than the gallery's own `YYYY/MM/task` layout, for folders the user regrouped. */
const MAX_DEPTH = 8;
const SKIPPED_DIRS = new Set([TEMP_DIR, THUMBS_DIR]);
const KINDS: readonly ImageKind[] = ['png', 'jpeg', 'webp'];

export interface Skipped {
  /** Root-relative. */
  readonly path: string;
  readonly reason: string;
}

export interface RebuildResult {
  readonly records: TaskRecord[];
  readonly skipped: Skipped[];
}

function fsReason(what: string, error: unknown): string {
  const code = errorCode(error);
  return `The ${what} could not be read${code ? ` (${code})` : ''}.`;
}

async function findSidecars(
  root: string,
  dir: string,
  depth: number,
  skipped: Skipped[],
): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    skipped.push({ path: toGalleryPath(root, dir) || '.', reason: fsReason('folder', error) });
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    // Symbolic links are not followed: they could lead outside the gallery or in circles.
    // A sidecar sits in a task folder, never in the root itself.
    if (entry.isFile() && entry.name === SIDECAR_NAME && depth > 0)
      found.push(join(dir, entry.name));
    else if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name) && depth < MAX_DEPTH) {
      found.push(...(await findSidecars(root, join(dir, entry.name), depth + 1, skipped)));
    }
  }
  return found;
}

async function readSidecar(
  path: string,
): Promise<{ ok: true; record: TaskRecord } | { ok: false; reason: string }> {
  try {
    const info = await stat(path);
    if (info.size > MAX_SIDECAR_BYTES)
      return { ok: false, reason: 'The sidecar is too large to be a Pictor sidecar.' };
    return parseSidecar(await readFile(path, 'utf8'));
  } catch (error) {
    return { ok: false, reason: fsReason('sidecar', error) };
  }
}

interface FolderFiles {
  readonly root: string;
  readonly folder: string;
  readonly images: ReadonlySet<string>;
  readonly thumbnails: ReadonlySet<string>;
}

async function listFolder(root: string, folder: string): Promise<FolderFiles> {
  const names = async (dir: string) => new Set(await readdir(dir).catch(() => [] as string[]));
  return {
    root,
    folder,
    images: await names(folder),
    thumbnails: await names(join(folder, THUMBS_DIR)),
  };
}

function missing(image: ImageRecord): ImageRecord {
  const {
    file: _file,
    thumbnail: _thumbnail,
    width: _w,
    height: _h,
    bytes: _b,
    mime: _m,
    ...rest
  } = image;
  if (image.state === 'expired' || image.state === 'invalid') return rest;
  return image.url
    ? {
        ...rest,
        state: 'pending',
        error: 'The image file was missing from the gallery folder; Pictor will download it again.',
      }
    : {
        ...rest,
        state: 'invalid',
        error:
          'The image file is missing from the gallery folder and there is no address to download it again.',
      };
}

async function describeFile(path: string, kind: ImageKind, image: ImageRecord) {
  const { size } = await stat(path);
  if (image.state === 'saved' && image.mime === IMAGE_MIME[kind] && image.width && image.height) {
    return { width: image.width, height: image.height, bytes: size };
  }
  // Saved by a download whose record update never happened (a crash): read the header only.
  const metadata = await sharp(path).metadata();
  if (metadata.format !== kind) throw new Error('The file does not hold the image its name says.');
  return { width: metadata.autoOrient.width, height: metadata.autoOrient.height, bytes: size };
}

async function repairImage(image: ImageRecord, files: FolderFiles): Promise<ImageRecord> {
  const preferred = KINDS.find((kind) => IMAGE_MIME[kind] === image.mime);
  const order = preferred ? [preferred, ...KINDS.filter((kind) => kind !== preferred)] : KINDS;
  const kind = order.find((candidate) =>
    files.images.has(imageNames(image.index, candidate).image),
  );
  if (!kind) return missing(image);
  const names = imageNames(image.index, kind);
  const path = join(files.folder, names.image);
  try {
    const described = await describeFile(path, kind, image);
    const { error: _error, thumbnail: _thumbnail, ...rest } = image;
    const hasThumbnail = files.thumbnails.has(names.thumbnail.slice(THUMBS_DIR.length + 1));
    return {
      ...rest,
      ...described,
      state: 'saved',
      mime: IMAGE_MIME[kind],
      file: toGalleryPath(files.root, path),
      ...(hasThumbnail
        ? { thumbnail: toGalleryPath(files.root, join(files.folder, names.thumbnail)) }
        : {}),
    };
  } catch {
    return missing(image);
  }
}

async function repairRecord(
  root: string,
  sidecarPath: string,
  record: TaskRecord,
): Promise<TaskRecord> {
  const folder = join(sidecarPath, '..');
  const files = await listFolder(root, folder);
  const images = await Promise.all(record.images.map((image) => repairImage(image, files)));
  return { ...record, folder: toGalleryPath(root, folder), images };
}

interface Found {
  readonly path: string;
  readonly relative: string;
  readonly record: TaskRecord;
}

/** Of two sidecars of one task (a copied folder), the newer one, then the one at its own folder. */
function better(a: Found, b: Found): Found {
  if (a.record.updatedAt !== b.record.updatedAt)
    return a.record.updatedAt > b.record.updatedAt ? a : b;
  const atHome = (found: Found) => found.relative === `${found.record.folder}/${SIDECAR_NAME}`;
  return atHome(b) && !atHome(a) ? b : a;
}

function pickOnePerTask(found: Found[], skipped: Skipped[]): Found[] {
  const chosen = new Map<string, Found>();
  for (const candidate of found) {
    const current = chosen.get(candidate.record.localId);
    chosen.set(candidate.record.localId, current ? better(current, candidate) : candidate);
  }
  const kept = new Set(chosen.values());
  for (const candidate of found) {
    if (!kept.has(candidate)) {
      skipped.push({
        path: candidate.relative,
        reason: 'Another sidecar in the gallery describes the same task.',
      });
    }
  }
  return found.filter((candidate) => kept.has(candidate));
}

/** `map` with at most {@link CONCURRENCY} calls in flight; results keep the input order. */
async function mapLimited<T, R>(items: readonly T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await map(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

/** See {@link Gallery.rebuild}. Records come back in path order (oldest folders first). */
export async function rebuildFromFolder(root: string): Promise<RebuildResult> {
  const skipped: Skipped[] = [];
  const paths = (await findSidecars(root, root, 0, skipped)).sort();
  const reads = await mapLimited(paths, async (path) => ({ path, read: await readSidecar(path) }));
  const found: Found[] = [];
  for (const { path, read } of reads) {
    const relative = toGalleryPath(root, path);
    if (read.ok) found.push({ path, relative, record: read.record });
    else skipped.push({ path: relative, reason: read.reason });
  }
  const kept = pickOnePerTask(found, skipped);
  const records = await mapLimited(kept, ({ path, record }) => repairRecord(root, path, record));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { records, skipped };
}
