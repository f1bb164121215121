/**
 * Copies the saved images of chosen tasks into a folder the user picked in the main process's
 * own dialog (never a path from the page). Each source is opened as a regular file without
 * following a link, and what was opened must lie in the gallery (core/fs/open-inside.ts); each
 * copy is created new (`wx`: an existing file or link at the name is never written through or
 * replaced) under a unique name, `name (2).png` and so on.
 */
import { constants } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { systemErrorCode } from '../errors/thrown-value';
import type { Gallery } from '../gallery/gallery';
import { imagesByTask, type ImageRef } from '../gallery/gallery-images';
import { openRegularFile } from '../gallery/regular-file';

/** How many `name (n)` variants are tried before an image is skipped. */
const MAX_NAME_TRIES = 1_000;
/** New files only, never through a link at the name (O_EXCL refuses one), private to the user. */
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const FILE_MODE = 0o600;

export interface ExportDeps {
  readonly get: (localId: string) => TaskRecord | undefined;
  readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
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

/** `name.png`, `name (2).png`, `name (3).png`… */
function variant(name: string, attempt: number): string {
  if (attempt === 1) return name;
  const extension = extname(name);
  return `${name.slice(0, name.length - extension.length)} (${attempt})${extension}`;
}

/** Creates a new file in `folder` under the first free variant of `name`. */
async function createUnique(
  folder: string,
  name: string,
): Promise<{ path: string; handle: FileHandle }> {
  for (let attempt = 1; attempt <= MAX_NAME_TRIES; attempt += 1) {
    const path = join(folder, variant(name, attempt));
    try {
      return { path, handle: await open(path, CREATE_FLAGS, FILE_MODE) };
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    }
  }
  throw new Error(`No free name for ${name} in the export folder.`);
}

async function copyOne(deps: ExportDeps, image: ImageRecord, folder: string): Promise<void> {
  const source = deps.gallery.resolve(image.file ?? '');
  // Checked on what was opened: a folder swapped for a link cannot lead outside the gallery.
  const { handle: input, size } = await openRegularFile(deps.gallery.root, source, MAX_IMAGE_BYTES);
  try {
    const { path, handle: output } = await createUnique(folder, exportName(source));
    try {
      const buffer = Buffer.allocUnsafe(Math.min(size, 1 << 20) || 1);
      for (let position = 0; position < size;) {
        const { bytesRead } = await input.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        await output.write(buffer, 0, bytesRead);
        position += bytesRead;
      }
      await output.close();
    } catch (error) {
      await output.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw error;
    }
  } finally {
    await input.close();
  }
}

/** Copies every saved image of the tasks into `folder`; one image failing does not stop the rest. */
export async function exportImages(
  deps: ExportDeps,
  localIds: readonly string[],
  folder: string,
): Promise<ExportOutcome> {
  let copied = 0;
  let failed = 0;
  let skipped = 0;
  for (const localId of new Set(localIds)) {
    const saved = (deps.get(localId)?.images ?? []).filter(
      (image) => image.state === 'saved' && image.file,
    );
    if (saved.length === 0) skipped += 1;
    for (const image of saved) {
      try {
        await copyOne(deps, image, folder);
        copied += 1;
      } catch {
        failed += 1;
      }
    }
  }
  return { copied, failed, skipped };
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
  return exportImages({ get, gallery: deps.gallery }, [...chosen.keys()], folder);
}
