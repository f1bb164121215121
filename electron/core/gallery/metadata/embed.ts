/**
 * Writes an image's provenance (xmp-packet.ts) into the image file itself, at the container
 * level: the pixels' bytes are copied as they are, never decoded or encoded again.
 *
 * The file is read once (it was just downloaded under the size cap) and the edited image is
 * written as slices of that one buffer plus the few new chunks, so memory holds the file once.
 * A file whose structure cannot be trusted is left exactly as it was, with the reason.
 */
import { open, rename } from 'node:fs/promises';
import type { Logger } from '../../../ports/logger';
import { removeQuietly, tempPath } from '../atomic-file';
import { readRegularFile, UnsafeFileError } from '../regular-file';
import { errorCode } from '../download-outcome';
import type { ImageKind } from '../image-sniff';
import { ContainerError, type EditedImage } from './container';
import { MAX_JPEG_XMP, editJpeg } from './jpeg-meta';
import { editPng } from './png-meta';
import { summaryText } from './provenance';
import { editWebp } from './webp-meta';
import { buildXmpPacket, type ImageProvenance } from './xmp-packet';
import type { C2paPresence } from './c2pa-detect';
import { writeXmpBeside } from './xmp-sidecar';

export type EmbedResult = { ok: true; bytes: number } | { ok: false; reason: string };

/** The edited image's pieces; throws a {@link ContainerError} when the file cannot be trusted. */
export function embedProvenance(
  bytes: Uint8Array,
  kind: ImageKind,
  provenance: ImageProvenance,
): EditedImage {
  const xmp = buildXmpPacket(provenance, kind === 'jpeg' ? MAX_JPEG_XMP : Infinity);
  if (!xmp) throw new ContainerError('The metadata does not fit in the image.');
  if (kind === 'png') return editPng(bytes, xmp, Buffer.from(summaryText(provenance), 'utf8'));
  if (kind === 'jpeg') return editJpeg(bytes, xmp);
  return editWebp(bytes, xmp);
}

/** {@link embedProvenance} into one new buffer (tests, small images). */
export function embedProvenanceInBuffer(
  bytes: Uint8Array,
  kind: ImageKind,
  provenance: ImageProvenance,
): Buffer {
  const edited = embedProvenance(bytes, kind, provenance);
  return Buffer.concat(edited.pieces as Uint8Array[], edited.length);
}

/** The temp image's bytes, read as a regular file inside the gallery (regular-file.ts). */
async function readWhole(root: string, path: string, maxBytes: number): Promise<Buffer> {
  try {
    return await readRegularFile(root, path, maxBytes);
  } catch (error) {
    // Its reason names no path: too large, not a regular file, or not inside the gallery.
    if (error instanceof UnsafeFileError) throw new ContainerError(error.reason);
    throw error;
  }
}

async function writePieces(path: string, edited: EditedImage): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    for (const piece of edited.pieces) await handle.write(piece);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Rewrites `path` (a file of Pictor's temp folder under `root`) with `provenance` in it, through
 * a second temp file renamed over it. On failure `path` is untouched and the reason comes back:
 * a sentence about the file's structure or the disk, naming no path, URL or key.
 */
export async function embedProvenanceInFile(
  path: string,
  kind: ImageKind,
  provenance: ImageProvenance,
  limits: { root: string; maxBytes: number },
): Promise<EmbedResult> {
  const temp = tempPath(limits.root, '.xmp.part');
  try {
    const bytes = await readWhole(limits.root, path, limits.maxBytes);
    const edited = embedProvenance(bytes, kind, provenance);
    // A bigger file would be refused by the checks that read the gallery back (rebuild).
    if (edited.length > limits.maxBytes) {
      throw new ContainerError('The image is too close to the size limit to take its metadata.');
    }
    await writePieces(temp, edited);
    await rename(temp, path);
    return { ok: true, bytes: edited.length };
  } catch (error) {
    await removeQuietly(temp);
    if (error instanceof ContainerError) return { ok: false, reason: error.message };
    const code = errorCode(error);
    return { ok: false, reason: `The metadata could not be written${code ? ` (${code})` : ''}.` };
  }
}

/** Where the metadata step put the XMP: in the image (its new size), beside it (a temp file), nowhere. */
export type ProvenanceWritten = { readonly inImage: number } | { readonly beside: string } | null;

/**
 * The download's metadata step (download-image.ts): embeds `provenance` into the temp image, or,
 * when the image carries Content Credentials, writes it to `xmpTemp` to go beside the image
 * (editing a signed file breaks its signature: it is saved exactly as it came). Logs why it could
 * do neither (the image is then saved as it came) and returns `null`. Never throws.
 */
export async function provenanceStep(
  file: string,
  kind: ImageKind,
  provenance: ImageProvenance,
  context: {
    root: string;
    maxBytes: number;
    logger: Logger;
    credentials: C2paPresence;
    /** Where the XMP goes when it cannot go in the image: a new temp file's path. */
    xmpTemp: string;
  },
): Promise<ProvenanceWritten> {
  // The one decision: a file that carries Content Credentials is never edited.
  if (context.credentials.found) {
    return writeXmpBeside(provenance, context.xmpTemp, context.logger);
  }
  const result = await embedProvenanceInFile(file, kind, provenance, context).catch(
    (): EmbedResult => ({ ok: false, reason: 'The metadata step failed unexpectedly.' }),
  );
  if (result.ok) return { inImage: result.bytes };
  context.logger.warn('Image saved without its metadata.', {
    index: provenance.imageIndex,
    format: kind,
    reason: result.reason,
  });
  return null;
}
