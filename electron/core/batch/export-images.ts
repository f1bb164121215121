/**
 * Copies the saved images of chosen tasks into a folder the user picked in the main process's
 * own dialog (never a path from the page). Each source is opened as a regular file without
 * following a link, and what was opened must lie in the gallery (core/fs/open-inside.ts); each
 * copy is created new (`wx`: an existing file or link at the name is never written through or
 * replaced) under a unique name, `name (2).png` and so on (export-files.ts). Each copy carries
 * the image's rating and tags in its XMP; an image that carries Content Credentials is copied byte
 * for byte with its XMP sidecar under the same stem (`name.png`, `name.xmp`): export-copy.ts.
 *
 * An image that cannot be copied is counted and the rest go on; a folder that cannot take a file
 * (gone, not writable, full) stops the copy with a sentence naming it, why, and how many images
 * were copied before.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import { describeThrown, UserFacingError } from '../errors';
import { chosenPlaceParams } from '../fs';
import { imagesByTask, type ImageRef } from '../gallery';
import { copyOne, ExportFolderRefusedError, type ExportGallery } from './export-copy';
import { withTextsScrubbed } from './kept-key-id';

export interface ExportDeps {
  readonly get: (localId: string) => TaskRecord | undefined;
  /** The gallery, and the Pictor version the XMP of a copy names when its own packet does not. */
  readonly gallery: ExportGallery;
  /** Before the first image (0), then after each, copied or not: how many of `total` are done. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Every key the process holds, scrubbed out of a text: a task kept under an id that carries one
   * (the sweep has not reached it yet) is copied from its record with the key scrubbed out, its
   * packet made again from it (kept-key-id.ts).
   */
  readonly scrub?: (text: string) => string;
  /**
   * Every key the process holds, scrubbed out of a text; absent when none is held. Each image's
   * own bytes are judged with it as Save as judges them (gallery/outgoing-file.ts): one whose
   * metadata carries a held key (saved before downloads were searched, or before the key it
   * echoes was entered) is copied without that metadata (export-copy.ts).
   */
  readonly keyMetadata?: (text: string) => string;
  /** Stops before the next image (the core's close); the copies made stay. */
  readonly signal?: AbortSignal;
}

/** The record a copy is made from, and whether it differs from the history's beyond triage. */
function copiedRecord(record: TaskRecord, scrub: ExportDeps['scrub']) {
  const id = record.taskId;
  if (!scrub || id === null || scrub(id) === id) return { record };
  return { record: withTextsScrubbed(record, scrub), remake: true };
}

export interface ExportOutcome {
  /** Images copied. */
  readonly copied: number;
  /** Saved images that could not be copied (unsafe, missing, unreadable, no free name). */
  readonly failed: number;
  /** Ids unknown to the history, or tasks without a saved image. */
  readonly skipped: number;
}

/** The copy stopped at a folder that cannot take a file, `copied` images in. */
function folderRefused(folder: string, copied: number, refusal: ExportFolderRefusedError) {
  const values = { folder, copied, ...chosenPlaceParams(refusal.cause) };
  return new UserFacingError(sentence('error.library.exportImagesStopped', values), {
    code: 'failed',
    detail: describeThrown(refusal.cause),
    cause: refusal.cause,
  });
}

/**
 * Copies every saved image of the tasks into `folder`; one image failing does not stop the rest.
 * @throws UserFacingError when the folder cannot take a file (see the file's comment).
 */
export async function exportImages(
  deps: ExportDeps,
  localIds: readonly string[],
  folder: string,
): Promise<ExportOutcome> {
  const perTask = [...new Set(localIds)].map((localId) => {
    const record = deps.get(localId);
    const saved = (record?.images ?? []).filter((image) => image.state === 'saved' && image.file);
    const copied = record ? copiedRecord(record, deps.scrub) : null;
    return copied ? saved.map((image) => ({ ...copied, image })) : [];
  });
  const images = perTask.flat();
  let copied = 0;
  let failed = 0;
  // Said before the first copy: the window shows the export from the moment its folder is chosen,
  // not once the first image is through.
  if (images.length > 0) deps.onProgress?.(0, images.length);
  for (const [n, image] of images.entries()) {
    if (deps.signal?.aborted) break;
    try {
      await copyOne(deps.gallery, image, folder, deps.keyMetadata);
      copied += 1;
    } catch (error) {
      if (error instanceof ExportFolderRefusedError) throw folderRefused(folder, copied, error);
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
