/**
 * Rebuilds the library from the gallery folder alone: every `pictor.json` found, checked against
 * the record schema and the files on disk, a saved image's triage from its XMP (rebuilt-triage.ts).
 * Trust rules: a sidecar's location wins over the folder it names (the user may have moved
 * it); image files are looked up by their deterministic names (`image-<n>.<ext>`), never by
 * the paths written in the sidecar. An image whose file is missing comes back `pending` when
 * it has a URL (the engine tries to download it again; an expired URL then says so) and
 * `invalid` when it has none. Images recorded as `expired` or `invalid` keep that state, and an
 * image the user deleted stays deleted even when a file with its name is there.
 *
 * The folder is hostile input: only regular files are opened, never through a link and never
 * blocking (see regular-file.ts), each with a size cap, and every record goes through the
 * record schema's limits. Every record that comes back is marked `imported`.
 *
 * A task folder whose sidecar is gone comes back from its images' own metadata (the XMP the
 * download wrote into them: metadata/recover.ts), checked the same way. Inputs: rebuild-inputs.ts;
 * which task folders are taken, by the names a folder import takes: rebuild-rules.ts.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { checkHeaderOfFile, IMAGE_MIME, type ImageKind } from '../images';
import { readRegularFile, realRootOf, regularFileSize, TEMP_DIR } from '../fs';
import { toGalleryPath, type OpenInsideOptions } from '../fs';
import { missingImage, ownSidecar, savedImage } from './rebuilt-image';
import { withXmpTriage } from './rebuilt-triage';
import { imageFileCandidates, INLINE_DIR, isImageName, MAX_SIDECAR_BYTES } from '../gallery';
import { parseSidecar, recoverFromImages, SIDECAR_NAME, summariseSidecar } from '../gallery';
import { THUMBS_DIR, withoutFile, type SidecarRefusal } from '../gallery';
import { limiter, type Limiter } from '../base';
import { isInputStore, noteMissingInputs } from './rebuild-inputs';
import { groupByTask, type Found } from './rebuild-choice';
import { heldFolders, IMAGE_READS, isAtHome, MAX_IMAGE_FILE_BYTES } from './rebuild-rules';
import { fsReason, SAME_TASK_FOLDER, SAME_TASK_SIDECAR, skipOf } from './rebuild-rules';
import { refusal, throwIfAborted, type Refusal } from './archive/archive-errors';
import { mapLimited } from './map-limited';
import { sentence } from '../../../shared/i18n/sentence';

/** Sidecars read and checked at once: enough to hide disk latency, few enough to stay polite. */
const CONCURRENCY = 8;
/** Deeper than the gallery's own `YYYY/MM/task` layout, for folders the user regrouped. */
const MAX_DEPTH = 8;
const SKIPPED_DIRS = new Set([TEMP_DIR, THUMBS_DIR, INLINE_DIR]);
const KINDS: readonly ImageKind[] = ['png', 'jpeg', 'webp'];
/** The download's default pixel limit: a bigger image was not saved by Pictor. */
const MAX_PIXELS = 100_000_000;

/**
 * A file or folder a rebuild left out, root-relative, and why: the reason in English (the CLI,
 * the log) and, where it is a catalogue sentence, that sentence (the window shows it in its
 * language), as an import's refusals are.
 */
export type Skipped = Refusal;

export interface RebuildResult {
  /** Every record found, in path order; empty when they went to {@link RebuildOptions.onBatch}. */
  readonly records: TaskRecord[];
  readonly skipped: Skipped[];
  /** How many records were found (handed out or returned). */
  readonly count: number;
  /** What sidecars said that their records do not keep (a rating of 9 read as unrated). */
  readonly notes: Skipped[];
}

export interface RebuildOptions {
  /**
   * Receives the records in path order, a batch at a time, as they are repaired, so a folder of
   * any size is rebuilt in bounded memory. Without it, they all come back in `records`.
   */
  readonly onBatch?: (records: TaskRecord[]) => void | Promise<void>;
  /** Records per batch; default {@link BATCH_SIZE}. */
  readonly batchSize?: number;
  /** An image whose header claims more pixels is not taken; default {@link MAX_PIXELS}. */
  readonly maxPixels?: number;
  /**
   * Stops the rebuild before the next folder it lists or task it reads (OperationCancelledError):
   * a cancel waits for the files being read, not for a pass over the whole gallery. What was
   * handed out stays.
   */
  readonly signal?: AbortSignal;
}

/**
 * Records repaired and handed out together: a few megabytes of records at most. A caller writes
 * each batch in one transaction (relocate-open.ts), whose commit is a WAL fsync and, the WAL being
 * past its thousand pages by then, a checkpoint: at 200 a batch, the commits alone were 7% of a
 * 100,000-task rebuild's time. At 1,000 it took about a sixth less CPU, but its peak RSS (mostly
 * V8's committed heap) rose from 167–249 MB to 234–284 MB, close to the bench row's limit of 300;
 * 500 keeps most of the saving (one run: 50 s of CPU against 60 at 200) below that.
 */
const BATCH_SIZE = 500;

/**
 * The root-relative path (`/`-separated) of every sidecar under the folder `relative`, appended to
 * `found.sidecars` (one list, however deep the folders go), and of every folder holding images
 * named as Pictor names them but no sidecar, appended to `found.bare`. Only relative paths are
 * kept: a folder of 100,000 tasks held both forms, 10 MB of strings, for the whole rebuild.
 */
/** What a walk of the gallery's folders gathers, and the signal that stops it. */
interface FolderWalk {
  readonly skipped: Skipped[];
  readonly found: { sidecars: string[]; bare: string[] };
  readonly signal: AbortSignal | undefined;
}

async function findSidecars(
  root: string,
  relative: string,
  depth: number,
  walk: FolderWalk,
): Promise<void> {
  const { skipped, found } = walk;
  throwIfAborted(walk.signal);
  let entries;
  try {
    entries = await readdir(relative ? join(root, relative) : root, { withFileTypes: true });
  } catch (error) {
    skipped.push({ path: relative || '.', ...fsReason('folder', error) });
    return;
  }
  // A sidecar sits in a task folder, never in the root itself.
  const files = depth > 0 ? entries.filter((entry) => entry.isFile()) : [];
  if (files.some((entry) => entry.name === SIDECAR_NAME))
    found.sidecars.push(`${relative}/${SIDECAR_NAME}`);
  else if (files.some((entry) => isImageName(entry.name))) found.bare.push(relative);
  for (const entry of entries) {
    // Symbolic links are not followed: they could lead outside the gallery or in circles.
    const skip = SKIPPED_DIRS.has(entry.name) || isInputStore(depth, entry.name);
    if (entry.isDirectory() && !skip && depth < MAX_DEPTH) {
      await findSidecars(
        root,
        relative ? `${relative}/${entry.name}` : entry.name,
        depth + 1,
        walk,
      );
    }
  }
}

async function readSidecarWith<T>(
  root: string,
  path: string,
  parse: (text: string) => T,
  open?: OpenInsideOptions,
): Promise<T | SidecarRefusal> {
  try {
    return parse((await readRegularFile(root, path, MAX_SIDECAR_BYTES, open)).toString('utf8'));
  } catch (error) {
    return { ok: false, ...fsReason('sidecar', error) };
  }
}

const readSidecar = (root: string, path: string, open?: OpenInsideOptions) =>
  readSidecarWith(root, path, parseSidecar, open);

interface FolderFiles {
  readonly root: string;
  readonly folder: string;
  readonly images: ReadonlySet<string>;
  readonly thumbnails: ReadonlySet<string>;
  /** Lets {@link IMAGE_READS} image reads run at once across the whole rebuild. */
  readonly reads: Limiter;
  readonly maxPixels: number;
  readonly open?: OpenInsideOptions;
}

/** Names of the regular files in `dir` (links, FIFOs, sockets, devices and folders left out). */
async function regularFiles(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
}

async function listFolder(root: string, folder: string, work: ImageWork): Promise<FolderFiles> {
  const [images, thumbnails] = await Promise.all([
    regularFiles(folder),
    regularFiles(join(folder, THUMBS_DIR)),
  ]);
  return { root, folder, images, thumbnails, ...work };
}

async function describeFile(
  path: string,
  kind: ImageKind,
  image: ImageRecord,
  files: Pick<FolderFiles, 'root' | 'reads' | 'maxPixels' | 'open'>,
) {
  if (image.state === 'saved' && image.mime === IMAGE_MIME[kind] && image.width && image.height) {
    const size = await regularFileSize(files.root, path, MAX_IMAGE_FILE_BYTES, files.open);
    return { width: image.width, height: image.height, bytes: size };
  }
  // Saved by a download whose record update never happened (a crash), or by a host that sized it
  // from its header: the header check says its size (a few ranges read through our own checked
  // handle inside the gallery: a decoder opening the path could meet a FIFO).
  const checked = await files.reads(() =>
    checkHeaderOfFile(path, kind, {
      root: files.root,
      maxPixels: files.maxPixels,
      maxBytes: MAX_IMAGE_FILE_BYTES,
    }),
  );
  if (!checked.ok)
    throw new Error(`The file is not the image its name says: ${checked.refusal.detail}`);
  const { orientedWidth: width, orientedHeight: height } = checked.header;
  return { width, height, bytes: checked.fileBytes };
}

async function repairImage(image: ImageRecord, files: FolderFiles): Promise<ImageRecord> {
  // The user deleted it: a file of that name (restored, copied back, planted) does not undo that.
  if (image.state === 'deleted') return withoutFile(image);
  const preferred = KINDS.find((kind) => IMAGE_MIME[kind] === image.mime);
  const order = preferred ? [preferred, ...KINDS.filter((kind) => kind !== preferred)] : KINDS;
  // Its own name first, then one Undo gave it: the first that is the image its name says.
  for (const { kind, name } of imageFileCandidates(image.index, order, files.images)) {
    const path = join(files.folder, name);
    const described = await describeFile(path, kind, image, files).catch(() => null);
    if (!described) continue;
    const sidecar = await ownSidecar(files, name);
    return savedImage(image, files, { kind, name, sidecar, ...described });
  }
  return missingImage(image);
}

async function repairRecord(
  root: string,
  sidecarPath: string,
  record: TaskRecord,
  work: ImageWork,
): Promise<TaskRecord> {
  const folder = join(sidecarPath, '..');
  const files = await listFolder(root, folder, work);
  const { images: said } = await withXmpTriage(record, files);
  const images = await Promise.all(said.map((image) => repairImage(image, files)));
  await noteMissingInputs(root, sidecarPath, record, work.notes);
  // Whatever the file says: it came from a folder anyone could write, not from our history.
  return { ...record, folder: toGalleryPath(root, folder), images, imported: true };
}

/**
 * The record of the one task folder `folder` (absolute), by the rebuild's rules: its sidecar read
 * and checked, its images matched with the files beside it. `null` when it has no valid sidecar.
 */
export async function readTaskFolder(root: string, folder: string): Promise<TaskRecord | null> {
  const path = join(folder, SIDECAR_NAME);
  const read = await readSidecar(root, path);
  const work: ImageWork = { reads: limiter(IMAGE_READS), maxPixels: MAX_PIXELS };
  return read.ok ? repairRecord(root, path, read.record, work) : null;
}

/** How the rebuild reads images: {@link IMAGE_READS} at once, with the pixel limit. */
interface ImageWork {
  readonly reads: Limiter;
  readonly maxPixels: number;
  /** How its files are opened: the root's real path, asked once ({@link askRealRoot}). */
  readonly open?: OpenInsideOptions;
  /**
   * What sidecars said that their records do not keep (a rating of 9), by sidecar, and what
   * images' metadata did (a damaged template: metadata/recover.ts).
   */
  readonly notes?: Skipped[];
}

/**
 * The task's record from the best of its sidecars that is valid in full; every other one is
 * skipped, with its own reason when it is invalid, else as a copy of the same task.
 */
async function firstValid(
  root: string,
  candidates: Found | Found[],
  skipped: Skipped[],
  work: ImageWork,
): Promise<TaskRecord | null> {
  let record: TaskRecord | null = null;
  for (const found of Array.isArray(candidates) ? candidates : [candidates]) {
    const path = join(root, found.relative);
    // Copies are rare: each is read in full, so an invalid one is reported for what it is.
    const read = await readSidecar(root, path, work.open);
    if (record) {
      skipped.push(
        read.ok ? refusal(found.relative, SAME_TASK_SIDECAR) : skipOf(found.relative, read),
      );
      continue;
    }
    if (read.ok && read.record.localId === found.localId) {
      for (const note of read.notes) work.notes?.push({ path: found.relative, reason: note });
      record = await repairRecord(root, path, read.record, work);
    } else {
      skipped.push(
        read.ok
          ? refusal(found.relative, sentence('error.library.sidecarChanged'))
          : skipOf(found.relative, read),
      );
    }
  }
  return record;
}

/**
 * The first pass: what choosing one sidecar per task needs, of every sidecar, in path order;
 * `bare` receives the folders with Pictor's images and no sidecar (of both, the names held).
 */
async function summarise(
  root: string,
  skipped: Skipped[],
  bare: string[],
  open: OpenInsideOptions,
  signal: AbortSignal | undefined,
): Promise<Found[]> {
  const found: { sidecars: string[]; bare: string[] } = { sidecars: [], bare: [] };
  await findSidecars(root, '', 0, { skipped, found, signal });
  const paths = heldFolders(found, skipped, bare);
  const summaries = await mapLimited(
    paths,
    CONCURRENCY,
    async (relative): Promise<Found | null> => {
      const read = await readSidecarWith(root, join(root, relative), summariseSidecar, open);
      if (!read.ok) {
        skipped.push(skipOf(relative, read));
        return null;
      }
      const { localId, updatedAt, folder } = read.summary;
      return { relative, localId, updatedAt, atHome: isAtHome(relative, folder) };
    },
    signal,
  );
  return summaries.filter((found): found is Found => found !== null);
}

/**
 * The tasks of the folders that lost their sidecar, made again from their images' own metadata
 * (metadata/recover.ts) and repaired like the others; a task a sidecar already gave is skipped.
 */
async function recoverBare(
  root: string,
  bare: readonly string[],
  known: ReadonlySet<string>,
  work: ImageWork & { skipped: Skipped[]; signal: AbortSignal | undefined },
): Promise<TaskRecord[]> {
  const seen = new Set(known);
  const found = await mapLimited(
    bare,
    CONCURRENCY,
    (relative) => recoverFromImages(root, relative, { ...work, maxBytes: MAX_IMAGE_FILE_BYTES }),
    work.signal,
  );
  const records: TaskRecord[] = [];
  for (const [index, result] of found.entries()) {
    const path = bare[index] ?? '';
    if (!result.ok) {
      if (result.reason) work.skipped.push({ path, reason: result.reason });
    } else if (seen.has(result.record.localId)) {
      work.skipped.push(refusal(path, SAME_TASK_FOLDER));
    } else {
      seen.add(result.record.localId);
      records.push(await repairRecord(root, join(root, path, SIDECAR_NAME), result.record, work));
    }
  }
  return records;
}

/**
 * How a rebuild opens the files below `root`: with the root's real path asked once, not on each
 * of the three opens a task costs (a `realpath` each, a trip through the thread pool and a
 * `readlink` per component of the root). The root is trusted as given (open-inside.ts), so this
 * is the folder the rebuild started on; what each open reaches is still checked against it. A
 * root that cannot be asked for is asked again by each open, which then fails as it did.
 */
const askRealRoot = async (root: string): Promise<OpenInsideOptions> =>
  realRootOf(root).then((realRoot) => (realRoot === null ? {} : { realRoot }));

/**
 * See {@link Gallery.rebuild}. Records come in path order (oldest folders first), then those made
 * from images whose sidecar was gone. Two passes: the first reads every sidecar and keeps only
 * what choosing one per task needs; the second reads the chosen ones again and repairs them a
 * batch at a time.
 */
export async function rebuildFromFolder(
  root: string,
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const skipped: Skipped[] = [];
  const bare: string[] = [];
  const open = await askRealRoot(root);
  const { signal } = options;
  const tasks = groupByTask(await summarise(root, skipped, bare, open, signal));
  const notes: Skipped[] = [];
  const work: ImageWork = {
    reads: limiter(IMAGE_READS),
    maxPixels: options.maxPixels ?? MAX_PIXELS,
    notes,
    open,
  };
  const records: TaskRecord[] = [];
  let count = 0;
  const batchSize = Math.max(1, options.batchSize ?? BATCH_SIZE);
  const hand = async (repaired: TaskRecord[]) => {
    count += repaired.length;
    if (options.onBatch) await options.onBatch(repaired);
    else records.push(...repaired);
  };
  for (let start = 0; start < tasks.length; start += batchSize) {
    const batch = await mapLimited(
      tasks.slice(start, start + batchSize),
      CONCURRENCY,
      (candidates) => firstValid(root, candidates, skipped, work),
      signal,
    );
    await hand(batch.filter((record): record is TaskRecord => record !== null));
  }
  const known = new Set(tasks.map((task) => (Array.isArray(task) ? task[0] : task)?.localId ?? ''));
  for (let start = 0; start < bare.length; start += batchSize) {
    const slice = bare.sort().slice(start, start + batchSize);
    await hand(await recoverBare(root, slice, known, { ...work, skipped, signal }));
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { records, skipped, count, notes };
}
