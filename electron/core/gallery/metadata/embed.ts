/**
 * Writes an image's provenance (xmp-packet.ts) into the image file itself, at the container
 * level: the pixels' bytes are copied as they are, never decoded or encoded again.
 *
 * The file is walked a range at a time (range-reader.ts) and the edited image is written as
 * ranges of the original copied a window at a time plus the few new chunks (plan-writer.ts), so
 * memory per image is bounded whatever its size. A file whose structure cannot be trusted is left
 * exactly as it was, with the reason; so is one that carries Content Credentials (the one
 * decision, in {@link provenanceStep}: its XMP goes beside it).
 */
import { rename } from 'node:fs/promises';
import type { Logger } from '../../../ports/logger';
import { errorCode, openRegularFile, removeQuietly, tempPath, UnsafeFileError } from '../../fs';
import type { ImageKind } from '../../images';
import { ContainerError, type EditPlan } from './container';
import { MAX_JPEG_XMP, planJpeg } from './jpeg-meta';
import { planToBuffer, writePlan } from './plan-writer';
import { planPng, provenanceChunks } from './png-meta';
import { summaryText } from './provenance';
import { bufferReader, fileReader, type RangeReader } from './range-reader';
import { planWebp } from './webp-meta';
import { buildXmpPacket, type ImageProvenance } from './xmp-packet';
import type { C2paPresence } from './c2pa-detect';
import { writeXmpBeside } from './xmp-sidecar';

export type EmbedResult = { ok: true; bytes: number } | { ok: false; reason: string };

/** The edit's plan; throws a {@link ContainerError} when the file cannot be trusted. */
export async function planProvenance(
  reader: RangeReader,
  kind: ImageKind,
  provenance: ImageProvenance,
): Promise<EditPlan> {
  if (kind === 'png') return planPng(reader, pngProvenanceChunks(provenance));
  const xmp = xmpPacket(provenance, kind === 'jpeg' ? MAX_JPEG_XMP : Infinity);
  if (kind === 'jpeg') return planJpeg(reader, xmp);
  return planWebp(reader, xmp);
}

/** The packet as the container of `kind` takes it (a JPEG's is cut to fit its one segment). */
export function xmpPacket(provenance: ImageProvenance, maxBytes: number): Buffer {
  const xmp = buildXmpPacket(provenance, maxBytes);
  if (!xmp) throw new ContainerError('The metadata does not fit in the image.');
  return xmp;
}

/**
 * The chunks a PNG takes right after IHDR for `provenance`: the file edit's (planPng) and the
 * download's as it streams (png-stream.ts), from this one place.
 */
export function pngProvenanceChunks(provenance: ImageProvenance): Buffer {
  const summary = Buffer.from(summaryText(provenance), 'utf8');
  return provenanceChunks(xmpPacket(provenance, Infinity), summary);
}

/** {@link planProvenance} applied to bytes in memory, into one new buffer (tests, small images). */
export async function embedProvenanceInBuffer(
  bytes: Uint8Array,
  kind: ImageKind,
  provenance: ImageProvenance,
): Promise<Buffer> {
  return planToBuffer(bytes, await planProvenance(bufferReader(bytes), kind, provenance));
}

/** The temp image, opened as a regular file inside the gallery (regular-file.ts). */
async function openSource(root: string, path: string, maxBytes: number) {
  try {
    return await openRegularFile(root, path, maxBytes);
  } catch (error) {
    // Its reason names no path: too large, not a regular file, or not inside the gallery.
    if (error instanceof UnsafeFileError) throw new ContainerError(error.reason);
    throw error;
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
    const { handle: source, size } = await openSource(limits.root, path, limits.maxBytes);
    let length: number;
    try {
      const reader = fileReader(source, size);
      const plan = await planProvenance(reader, kind, provenance);
      // A bigger file would be refused by the checks that read the gallery back (rebuild).
      if (plan.length > limits.maxBytes) {
        throw new ContainerError('The image is too close to the size limit to take its metadata.');
      }
      await writePlan(source, plan, temp);
      length = plan.length;
    } finally {
      await source.close();
    }
    await rename(temp, path);
    return { ok: true, bytes: length };
  } catch (error) {
    await removeQuietly(temp);
    if (error instanceof ContainerError) return { ok: false, reason: error.message };
    const code = errorCode(error);
    return { ok: false, reason: `The metadata could not be written${code ? ` (${code})` : ''}.` };
  }
}

/**
 * Where the metadata step put the XMP: in the image (its new size; `file` when that image is a
 * copy edited as it downloaded, not the file the step was given), beside it (a temp file), or
 * nowhere.
 */
export type ProvenanceWritten =
  { readonly inImage: number; readonly file?: string } | { readonly beside: string } | null;

/**
 * The download's metadata step (download-image.ts): embeds `provenance` into the temp image, or,
 * when the image carries Content Credentials, writes it to `xmpTemp` to go beside the image
 * (editing a signed file breaks its signature: it is saved exactly as it came). A copy already
 * edited as it downloaded (`edited`: download/provenance-writer.ts) stands in for the embedding.
 * Logs why it could do neither (the image is then saved as it came) and returns `null`. Never
 * throws.
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
    /** The image with its provenance, written as it downloaded, and its length. */
    edited?: { readonly path: string; readonly bytes: number } | null;
  },
): Promise<ProvenanceWritten> {
  // The one decision: a file that carries Content Credentials is never edited.
  if (context.credentials.found) {
    return writeXmpBeside(provenance, context.xmpTemp, context.logger);
  }
  if (context.edited) {
    context.logger.debug('Image metadata written as it downloaded.', {
      index: provenance.imageIndex,
    });
    return { inImage: context.edited.bytes, file: context.edited.path };
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
