/**
 * The XMP sidecar: `image-<n>.xmp` beside an image that carries Content Credentials, holding the
 * packet Pictor would otherwise embed (xmp-packet.ts, the same fields, the prompt never cut). It
 * is read back by `rebuild` like an embedded packet: from a folder anyone could write, so with a
 * size cap, never through a link, and through the same field checks (read.ts).
 */
import type { Logger } from '../../../ports/logger';
import { errorCode, readRegularFile, removeQuietly, writeNewFileSynced } from '../../fs';
import { buildXmpPacket, type ImageProvenance } from './xmp-packet';

/**
 * Above a packet with every field at its limit: a 32,000-character prompt escaped twice (about
 * 320 KB) and a template's elements at their cap (xmp-template.ts, 128 KiB).
 */
export const MAX_XMP_SIDECAR_BYTES = 512 * 1024;

/**
 * Writes the packet to `temp`, a new file of Pictor's temp folder (synced, so its rename into the
 * task folder is the only step left), and returns `{ beside: temp }`; logs and returns `null` when
 * it cannot.
 */
export async function writeXmpBeside(
  provenance: ImageProvenance,
  temp: string,
  logger: Logger,
): Promise<{ beside: string } | null> {
  try {
    const packet = buildXmpPacket(provenance);
    if (!packet) throw new Error('The metadata could not be built.');
    await writeNewFileSynced(temp, packet);
    return { beside: temp };
  } catch (error) {
    await removeQuietly(temp);
    logger.warn('Image saved without its metadata.', {
      index: provenance.imageIndex,
      where: 'sidecar',
      code: errorCode(error),
    });
    return null;
  }
}

/**
 * The packet of the XMP sidecar at `path` inside `root` (a regular file, at most the cap), as
 * text.
 */
export async function readXmpSidecar(root: string, path: string): Promise<string> {
  const bytes = await readRegularFile(root, path, MAX_XMP_SIDECAR_BYTES);
  return Buffer.from(bytes).toString('utf8');
}
