/**
 * One image of an export, into the files export-files.ts created. The copy carries the image's
 * rating and tags (gallery/metadata/embed-triage.ts: Pictor's packet made again with them, the
 * pixels' bytes copied as they are); a file that carries Content Credentials, or one whose
 * structure cannot take the edit, is copied byte for byte with its XMP sidecar beside it under the
 * same stem (`name.png`, `name.xmp`): Pictor's packet with the triage, or the triage alone.
 * While a key is held, an image whose own metadata carries one is copied as Save as hands it
 * (gallery/outgoing-file.ts `outgoingBytes`: without that metadata, the pixels the same), its
 * triage in the sidecar beside it; one whose key sits where nothing can go is not copied.
 */
import { extname } from 'node:path';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import {
  type Gallery,
  kindOfImage,
  outgoingBytes,
  planTriageEmbed,
  readSidecarIfAny,
  sidecarPlan,
  type TriageEmbed,
  writePlanInto,
  xmpSidecarOf,
} from '../gallery';
import {
  copyOpenedFile,
  isPlaceRefused,
  type OpenedRegularFile,
  openRegularFile,
  readOpenedFile,
} from '../fs';
import { createUnique, exportName, removeCreated } from './export-files';

/** Every key held, scrubbed out of a text (images/metadata-keys.ts MetadataKeyScrubber). */
type MetadataKeyScrubber = Parameters<typeof outgoingBytes>[1];

/**
 * An image of a task, as its copy is made: `remake` when the record was changed beyond triage (a
 * kept key-carrying id scrubbed: export-images.ts), so its packet is made again from it.
 */
type CopyOf = {
  readonly record: TaskRecord;
  readonly image: ImageRecord;
  readonly remake?: boolean;
};

/** Where an export reads from: the gallery, and the Pictor version its XMP names. */
export type ExportGallery = Pick<Gallery, 'resolve' | 'root'> & { readonly appVersion?: string };

/** The image's edit for its copy, or why it is copied as it is. */
function embedFor(source: OpenedRegularFile, of: CopyOf, appVersion: string): Promise<TriageEmbed> {
  const kind = kindOfImage(of.image);
  if (kind === undefined) return Promise.resolve({ refused: 'Not an image Pictor edits.' });
  return planTriageEmbed(source, kind, of, appVersion);
}

/**
 * The XMP sidecar that goes beside the copy: what the image's sidecar holds once in line with its
 * triage (xmp-sidecar-sync.ts), read through the gallery's checks; none when there is none, or
 * when it cannot be read (the image is copied without it).
 */
async function sidecarBytes(
  gallery: ExportGallery,
  of: { readonly record: TaskRecord; readonly image: ImageRecord },
  appVersion: string,
): Promise<Buffer | null> {
  const relative = xmpSidecarOf(of.image);
  if (relative === undefined) return null;
  const existing = await readSidecarIfAny(gallery.root, gallery.resolve(relative)).catch(
    () => undefined,
  );
  if (existing === undefined) return null;
  const plan = sidecarPlan(of.record, of.image, existing, appVersion);
  if ('write' in plan) return plan.write;
  // Kept: the packet the record names; someone else's file at the name is not exported.
  const own = 'keep' in plan && existing !== null && of.image.xmpFile !== undefined;
  return own ? Buffer.from(existing, 'utf8') : null;
}

/**
 * The folder chosen for the copies cannot take a file (it is gone, a file is where a folder
 * should be, the disk is full, read-only or not writable): not the image's fault, and every next
 * image would fail alike. `cause` is the file system's error.
 */
export class ExportFolderRefusedError extends Error {
  override readonly name: string = 'ExportFolderRefusedError';

  constructor(cause: unknown) {
    super('The export folder cannot take a file.', { cause });
  }
}

/** `error` of a step on the copy's own files: the folder's refusal, or as it is. */
function asFolderRefusal(error: unknown): unknown {
  return isPlaceRefused(error) ? new ExportFolderRefusedError(error) : error;
}

/**
 * The bytes to copy instead of `source`'s when they carry a key `keyMetadata` takes out: without
 * that metadata (outgoing-file.ts); null when they carry none, or no key is held.
 * @throws UserFacingError when the key is where nothing can go; a file-system error.
 */
async function keyFreeBytes(
  source: OpenedRegularFile,
  keyMetadata: MetadataKeyScrubber | undefined,
): Promise<Buffer | null> {
  if (!keyMetadata) return null;
  const bytes = await readOpenedFile(source.handle, source.size);
  const out = outgoingBytes(bytes, keyMetadata);
  return out === bytes ? null : out;
}

/**
 * Copies `image` of `record` into `folder`, with its triage in it or its sidecar beside it; an
 * image carrying a key `keyMetadata` takes out, without it (see the file's comment).
 */
export async function copyOne(
  gallery: ExportGallery,
  of: CopyOf,
  folder: string,
  keyMetadata?: MetadataKeyScrubber,
): Promise<void> {
  const appVersion = gallery.appVersion ?? 'unknown';
  // Checked on what was opened: a folder swapped for a link cannot lead outside the gallery.
  const path = gallery.resolve(of.image.file ?? '');
  const source = await openRegularFile(gallery.root, path, GALLERY_MAX_IMAGE_BYTES);
  try {
    const keyFree = await keyFreeBytes(source, keyMetadata);
    const embed: TriageEmbed = keyFree
      ? { refused: 'It carried a key: copied without it, its triage beside it.' }
      : await embedFor(source, of, appVersion);
    const edited = 'plan' in embed ? embed.plan : null;
    const sidecar =
      edited && of.image.xmpFile === undefined ? null : await sidecarBytes(gallery, of, appVersion);
    const name = exportName(path);
    const extensions = [extname(name), '.xmp'].slice(0, sidecar ? 2 : 1);
    const created = await createUnique(folder, name, extensions).catch((error: unknown) => {
      throw asFolderRefusal(error);
    });
    try {
      const [copy, beside] = created;
      if (!copy) return;
      if (keyFree) await copy.handle.writeFile(keyFree);
      else if (edited) await writePlanInto(source.handle, edited, copy.handle);
      else await copyOpenedFile(source.handle, source.size, copy.handle);
      if (beside && sidecar) await beside.handle.writeFile(sidecar);
      for (const target of created) await target.handle.close();
    } catch (error) {
      await removeCreated(created);
      // Writes into the copies: the source is open already, so a code of a place that cannot
      // take a file (ENOSPC, EROFS…) is the folder's.
      throw asFolderRefusal(error);
    }
  } finally {
    await source.handle.close();
  }
}
