/**
 * Copies the saved images of chosen tasks into a folder the user picked in the main process's
 * own dialog (never a path from the page). Each source is opened as a regular file without
 * following a link, and what was opened must lie in the gallery (core/fs/open-inside.ts); each
 * copy is created new (`wx`: an existing file or link at the name is never written through or
 * replaced) under a unique name, `name (2).png` and so on. An image that carries Content
 * Credentials is copied with its XMP sidecar under the same stem (`name.png`, `name.xmp`).
 */
import { constants } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { systemErrorCode } from '../errors/thrown-value';
import type { Gallery } from '../gallery/gallery';
import { imagesByTask, type ImageRef } from '../gallery/gallery-images';
import { MAX_XMP_SIDECAR_BYTES } from '../gallery/metadata/xmp-sidecar';
import { copyOpenedFile, openRegularFile } from '../fs/regular-file';

/** How many `name (n)` variants are tried before an image is skipped. */
const MAX_NAME_TRIES = 1_000;
/** New files only, never through a link at the name (O_EXCL refuses one), private to the user. */
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const FILE_MODE = 0o600;

export interface ExportDeps {
  readonly get: (localId: string) => TaskRecord | undefined;
  readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
  /** Before the first image (0), then after each, copied or not: how many of `total` are done. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ExportOutcome {
  /** Images copied. */
  readonly copied: number;
  /** Saved images that could not be copied (unsafe, missing, unreadable, no free name). */
  readonly failed: number;
  /** Ids unknown to the history, or tasks without a saved image. */
  readonly skipped: number;
}

/** Only `[A-Za-z0-9._-]`, no leading dot, at most 120 characters; never empty. */
function safeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return clean.slice(0, 120) || 'image';
}

/** `<task folder>-image-1.png`: the gallery's own names, readable and unique per image. */
export function exportName(file: string): string {
  const folder = basename(dirname(file));
  const extension = safeName(extname(file)).replace(/^-/, '');
  const stem = safeName(`${folder}-${basename(file, extname(file))}`);
  return extension ? `${stem}.${extension.replace(/^\./, '')}` : stem;
}

/** `name`, `name (2)`, `name (3)`… (the stem of `name.png`, `name (2).png`…). */
function variant(stem: string, attempt: number): string {
  return attempt === 1 ? stem : `${stem} (${attempt})`;
}

/** A file created for the copy: where, and its handle. */
interface Created {
  readonly path: string;
  readonly handle: FileHandle;
}

async function removeCreated(created: readonly Created[]): Promise<void> {
  for (const { path, handle } of created) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
  }
}

/**
 * Creates new files in `folder` under the first variant of `name` free for every extension given:
 * the image's own, then its XMP sidecar's (`name (2).png` with `name (2).xmp`, so the pair keeps
 * one stem, as readers of sidecars pair them).
 */
async function createUnique(
  folder: string,
  name: string,
  extensions: readonly string[],
): Promise<Created[]> {
  const stem = name.slice(0, name.length - extname(name).length);
  for (let attempt = 1; attempt <= MAX_NAME_TRIES; attempt += 1) {
    const base = variant(stem, attempt);
    const created: Created[] = [];
    try {
      for (const extension of extensions) {
        const path = join(folder, `${base}${extension}`);
        created.push({ path, handle: await open(path, CREATE_FLAGS, FILE_MODE) });
      }
      return created;
    } catch (error) {
      await removeCreated(created);
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    }
  }
  throw new Error(`No free name for ${name} in the export folder.`);
}

/**
 * The image's files to copy, opened: the image, and the XMP sidecar of an image that carries
 * Content Credentials (its prompt lives there). A sidecar that cannot be opened is left out: the
 * image is copied without it.
 */
async function openSources(deps: ExportDeps, image: ImageRecord) {
  const { root } = deps.gallery;
  // Checked on what was opened: a folder swapped for a link cannot lead outside the gallery.
  const sources = [
    await openRegularFile(root, deps.gallery.resolve(image.file ?? ''), MAX_IMAGE_BYTES),
  ];
  if (image.xmpFile !== undefined) {
    const xmp = deps.gallery.resolve(image.xmpFile);
    const opened = await openRegularFile(root, xmp, MAX_XMP_SIDECAR_BYTES).catch(() => null);
    if (opened) sources.push(opened);
  }
  return sources;
}

async function copyOne(deps: ExportDeps, image: ImageRecord, folder: string): Promise<void> {
  const sources = await openSources(deps, image);
  try {
    const name = exportName(deps.gallery.resolve(image.file ?? ''));
    const extensions = [extname(name), '.xmp'].slice(0, sources.length);
    const created = await createUnique(folder, name, extensions);
    try {
      for (const [at, target] of created.entries()) {
        const source = sources[at];
        if (!source) continue;
        await copyOpenedFile(source.handle, source.size, target.handle);
        await target.handle.close();
      }
    } catch (error) {
      await removeCreated(created);
      throw error;
    }
  } finally {
    for (const source of sources) await source.handle.close();
  }
}

/** Copies every saved image of the tasks into `folder`; one image failing does not stop the rest. */
export async function exportImages(
  deps: ExportDeps,
  localIds: readonly string[],
  folder: string,
): Promise<ExportOutcome> {
  const perTask = [...new Set(localIds)].map((localId) =>
    (deps.get(localId)?.images ?? []).filter((image) => image.state === 'saved' && image.file),
  );
  const images = perTask.flat();
  let copied = 0;
  let failed = 0;
  // Said before the first copy: the window shows the export from the moment its folder is chosen,
  // not once the first image is through.
  if (images.length > 0) deps.onProgress?.(0, images.length);
  for (const [n, image] of images.entries()) {
    try {
      await copyOne(deps, image, folder);
      copied += 1;
    } catch {
      failed += 1;
    }
    deps.onProgress?.(n + 1, images.length);
  }
  return { copied, failed, skipped: perTask.filter((saved) => saved.length === 0).length };
}

/**
 * Copies the chosen images (a selection in the gallery) into `folder`: each task's export, over
 * its record narrowed to the images named in it.
 */
export function exportChosenImages(
  deps: ExportDeps,
  images: readonly ImageRef[],
  folder: string,
): Promise<ExportOutcome> {
  const chosen = imagesByTask(images);
  const get = (localId: string): TaskRecord | undefined => {
    const record = deps.get(localId);
    const indexes = chosen.get(localId);
    if (!record || !indexes) return undefined;
    return { ...record, images: record.images.filter((image) => indexes.has(image.index)) };
  };
  return exportImages({ ...deps, get }, [...chosen.keys()], folder);
}
