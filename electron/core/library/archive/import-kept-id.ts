/**
 * A task an archive or a folder brings in under a service id that carries a key this process
 * holds (a library kept it from before typed ids were checked, and exported it so): the key is
 * redacted from the id on the way in, as the app's start sweep and a refused track redact a kept
 * one (batch/kept-key-id.ts: the key's part becomes "[redacted]"), so the id never reaches the
 * history, the page, the log or the task's `pictor.json` as it came. The record's images carry
 * the id in their own metadata (Pictor's XMP packet, a PNG's `parameters` text): each staged
 * image that holds Pictor's packet is given it again from the redacted record before the task's
 * folder is published (a file with Content Credentials is never edited). The sweep would not find
 * such a task afterwards: its id no longer carries the key.
 *
 * A task folder already in the library's folder that the history does not know (a rebuild's, an
 * opened folder's: relocate-open.ts; one an import stopped before its record left) is taken in
 * the same way: its id redacted, its `pictor.json` and images made again from the redacted record
 * in place, before its record reaches the history.
 *
 * Images such a task brings to a task the library has (import-merge.ts) are given the packet of
 * the task they join before they are published, at their own index first: an image imported
 * before has those bytes in the library, and is found a duplicate by them.
 */
import { join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../../shared/domain/limits';
import type { ImageKind } from '../../images';
import {
  embedTriageInFile,
  kindOfImage,
  SIDECAR_NAME,
  sidecarText,
  syncXmpSidecars,
  taskFolderName,
} from '../../gallery';
import { readRegularFile, resolveInside, writeFileAtomic } from '../../fs';
import { sha256Of } from './stream-copy';
import { silentLogger } from '../../../ports/logger';

/**
 * Text with every key the process holds scrubbed out, in every encoding an echo of it is known by
 * (secrets/key-echo.ts `scrubKey`, given by the core: pictor-core.ts).
 */
export type ImportKeyScrubber = (text: string) => string;

/**
 * The scrubber with `carriers`, which of many texts it would change, found for a fraction of a
 * scrub each (secrets/key-echo-many.ts `KeyScrubber`): a rebuild's ids (relocate-open.ts).
 */
export type KeptIdScrubber = ImportKeyScrubber & {
  readonly carriers: (texts: readonly string[]) => number[];
};

/** `record` with the keys scrubbed from its task id; `null` when its id carries none. */
export function withKeptIdRedacted(
  record: TaskRecord,
  scrub: ImportKeyScrubber,
): TaskRecord | null {
  if (record.taskId == null) return null;
  const taskId = scrub(record.taskId);
  return taskId === record.taskId ? null : { ...record, taskId };
}

/** Whether `record`'s task id carries a key `scrub` takes out. */
export function carriesKeptKey(record: TaskRecord, scrub: ImportKeyScrubber): boolean {
  return record.taskId != null && scrub(record.taskId) !== record.taskId;
}

/**
 * Gives the staged image file `path` (inside `root`, not yet published) Pictor's packet made from
 * `record`, the task it joins, as its image `image`; returns the file's size and SHA-256 then (its
 * own when it holds no packet of Pictor's, or Content Credentials: left as it is).
 */
export async function remakeStagedImage(
  path: string,
  of: { readonly record: TaskRecord; readonly image: ImageRecord; readonly kind: ImageKind },
  root: string,
): Promise<{ readonly size: number; readonly sha256: string }> {
  const limits = { root, maxBytes: GALLERY_MAX_IMAGE_BYTES, appVersion: 'unknown' };
  await embedTriageInFile(path, { ...of, remake: true }, limits);
  const bytes = await readRegularFile(root, path, GALLERY_MAX_IMAGE_BYTES);
  return { size: bytes.length, sha256: sha256Of(bytes) };
}

/**
 * Gives each saved image of `record` staged in `stage` (the task's folder `relative` before it is
 * published) Pictor's packet made from `record` again; returns the record with the images' new
 * sizes. An image whose packet cannot be made again keeps its bytes (a file that is not what it
 * says is refused by the check before this).
 */
export async function remakeStagedImages(
  record: TaskRecord,
  root: string,
  stage: string,
  relative: string,
): Promise<TaskRecord> {
  const images = [];
  for (const image of record.images) {
    const kind = kindOfImage(image);
    const file = image.file;
    if (image.state !== 'saved' || kind === undefined || !file?.startsWith(`${relative}/`)) {
      images.push(image);
      continue;
    }
    const path = resolveInside(stage, file.slice(relative.length + 1));
    const result = await embedTriageInFile(
      path,
      { record, image, kind, remake: true },
      { root, maxBytes: GALLERY_MAX_IMAGE_BYTES, appVersion: 'unknown' },
    );
    images.push('written' in result ? { ...image, bytes: result.written } : image);
  }
  return { ...record, images };
}

/**
 * The task folder of `found` (in the library's folder `root`, not yet in the history) with the
 * keys scrubbed from its id: its images (or a signed image's XMP sidecar) given the redacted
 * packet, then its `pictor.json` the
 * redacted record; that record, or `null` when its id carries no key (nothing written).
 */
export async function redactKeptFolder(
  found: TaskRecord,
  scrub: ImportKeyScrubber,
  root: string,
): Promise<TaskRecord | null> {
  const clean = withKeptIdRedacted(found, scrub);
  if (!clean) return null;
  const relative = clean.folder ?? taskFolderName(clean);
  const folder = resolveInside(root, relative);
  const remade = await remakeStagedImages(clean, root, folder, relative);
  // A signed image's packet is the XMP sidecar beside it (never the image): made again too.
  await syncXmpSidecars(remade, folder, { root, appVersion: 'unknown', logger: silentLogger });
  await writeFileAtomic(root, join(folder, SIDECAR_NAME), sidecarText(remade));
  return remade;
}
