/**
 * The image's triage (xmp-triage.ts) written into an image file, inside Pictor's packet made
 * again from the record, for an exported copy and for "write metadata to files". Only here is a
 * rating or a tag put in a file: a change of triage itself touches the XMP sidecar alone
 * (xmp-sidecar-sync.ts). A file that carries Content Credentials is never edited (the same walk
 * as the download's, c2pa-detect.ts): its triage stays in its sidecar.
 */
import { lstat, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { errorCode, fsyncDir, openRegularFile, removeQuietly, tempPath } from '../../fs';
import { IMAGE_MIME, type ImageKind } from '../../images';
import { detectC2paInOpenFile } from './c2pa-detect';
import { ContainerError, type EditPlan } from './container';
import { planProvenance, xmpPacket } from './embed';
import { MAX_JPEG_XMP } from './jpeg-meta';
import { writePlan } from './plan-writer';
import { provenanceOf } from './provenance';
import { fileReader } from './range-reader';
import { packetOf, readPacketProvenance } from './read';
import { hasTriageElements, xmpTriageOf } from './xmp-triage';

/**
 * What writing the triage into one file comes to: the file carries Content Credentials (left as
 * it is), its packet already says it all, an edit to make, or the reason the file cannot take one
 * (a sentence naming no path).
 */
export type TriageEmbed =
  | { readonly credentials: true }
  | { readonly unchanged: true }
  | { readonly plan: EditPlan }
  | { readonly refused: string };

/** The kind of image a record's MIME type names, if it is one Pictor keeps. */
export function kindOfImage(image: ImageRecord): ImageKind | undefined {
  const entries = Object.entries(IMAGE_MIME) as [ImageKind, string][];
  return entries.find(([, mime]) => mime === image.mime)?.[0];
}

/** The image a packet is made for, from its record. */
interface EmbedOf {
  readonly record: TaskRecord;
  readonly image: ImageRecord;
  /**
   * The record changed beyond triage (its task id redacted: batch/kept-key-id.ts): a file that
   * holds Pictor's packet takes it made again even when it never took a rating or a tag.
   */
  readonly remake?: boolean;
}

/**
 * The edit that puts Pictor's packet, with `image`'s triage, into the file open at `handle`
 * (`size` bytes, a `kind` image): the packet the download wrote (xmp-packet.ts), made again
 * from `record` and naming the Pictor version the file's own packet names (else `appVersion`),
 * so only the triage in it changes (and, with `remake`, what the record says otherwise).
 */
export async function planTriageEmbed(
  opened: { readonly handle: FileHandle; readonly size: number },
  kind: ImageKind,
  of: EmbedOf,
  appVersion: string,
): Promise<TriageEmbed> {
  const { handle, size } = opened;
  if ((await detectC2paInOpenFile(handle, size, kind)).found) return { credentials: true };
  const reader = fileReader(handle, size);
  try {
    const current = await packetOf(reader, kind);
    const triage = xmpTriageOf(of.image);
    // A file that never took a rating or a tag keeps the packet its download gave it.
    if (!triage && (current === null || !(of.remake === true || hasTriageElements(current))))
      return { unchanged: true };
    const read = readPacketProvenance(current);
    const version = read.ok && read.provenance.appVersion ? read.provenance.appVersion : appVersion;
    const provenance = {
      ...provenanceOf(of.record, of.image.index, version),
      triage,
    };
    const wanted = xmpPacket(provenance, kind === 'jpeg' ? MAX_JPEG_XMP : Infinity);
    if (current === wanted.toString('utf8')) return { unchanged: true };
    return { plan: await planProvenance(reader, kind, provenance) };
  } catch (error) {
    if (error instanceof ContainerError) return { refused: error.message };
    throw error;
  }
}

/** What {@link embedTriageInFile} did: the file's new length, or why it left the file alone. */
export type TriageEmbedResult =
  | { readonly written: number }
  | { readonly credentials: true }
  | { readonly unchanged: true }
  | { readonly refused: string };

/**
 * Writes `image`'s triage into its gallery file `path` (absolute, inside `root`): the edited file
 * is written to Pictor's temp folder, synced and renamed over it, so the file is whole at every
 * moment. A file with Content Credentials, one already saying it, or one whose structure cannot
 * be trusted is left exactly as it was.
 */
export async function embedTriageInFile(
  path: string,
  of: EmbedOf & { readonly kind: ImageKind },
  limits: { readonly root: string; readonly maxBytes: number; readonly appVersion: string },
): Promise<TriageEmbedResult> {
  const { handle, size } = await openRegularFile(limits.root, path, limits.maxBytes);
  const temp = tempPath(limits.root, '.xmp.part');
  try {
    const embed = await planTriageEmbed({ handle, size }, of.kind, of, limits.appVersion);
    if (!('plan' in embed)) return embed;
    if (embed.plan.length > limits.maxBytes) {
      return { refused: 'The image is too close to the size limit to take its metadata.' };
    }
    await writePlan(handle, embed.plan, temp);
    // A delete may have moved the image meanwhile: nothing is put back at its old name.
    if (!(await isFile(path))) return { refused: 'The image is no longer in the gallery.' };
    await rename(temp, path);
    await fsyncDir(dirname(path));
    return { written: embed.plan.length };
  } catch (error) {
    if (error instanceof ContainerError) return { refused: error.message };
    const code = errorCode(error);
    return { refused: `The metadata could not be written${code ? ` (${code})` : ''}.` };
  } finally {
    await removeQuietly(temp);
    await handle.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  return lstat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}
