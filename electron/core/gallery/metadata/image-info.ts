/**
 * What one image file says about itself, for `pictor info`: its format, Pictor's provenance (from
 * its own XMP, or from the XMP sidecar beside it when the image carries Content Credentials and
 * was never edited), and its Content Credentials, verified. Any image file will do, in or out of
 * a gallery: it is read as the gallery reads a crafted folder (a regular file, no link, capped).
 */
import { dirname } from 'node:path';
import { access } from 'node:fs/promises';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../../shared/domain/limits';
import type { ContentCredentialVerifier } from '../../../ports/content-credential-verifier';
import { verdictWithoutReading } from './c2pa-verdict';
import { xmpSidecarName } from '../gallery-layout';
import { sniffImage, type ImageKind } from '../../images';
import { readRegularFile } from '../../fs';
import { detectC2paInBytes } from './c2pa-detect';
import { readImageProvenance, readPacketProvenance, type ReadProvenance } from './read';
import { readXmpSidecar } from './xmp-sidecar';

export interface ImageInfo {
  readonly file: string;
  readonly format: ImageKind;
  readonly bytes: number;
  /** Where Pictor's XMP was found: in the image, in the sidecar at `xmpPath`, or nowhere. */
  readonly xmp: 'image' | 'sidecar' | null;
  readonly xmpPath: string | null;
  readonly provenance: ReadProvenance | null;
  readonly contentCredentials: ContentCredentials;
}

/** Thrown when `file` is not an image Pictor reads; the message says why. */
export class NotAnImageError extends Error {
  override readonly name = 'NotAnImageError';
}

async function provenanceOf(
  file: string,
  bytes: Uint8Array,
  kind: ImageKind,
): Promise<Pick<ImageInfo, 'xmp' | 'xmpPath' | 'provenance'>> {
  const inImage = await readImageProvenance(bytes, kind);
  if (inImage.ok) return { xmp: 'image', xmpPath: null, provenance: inImage.provenance };
  const sidecar = xmpSidecarName(file);
  const present = await access(sidecar).then(
    () => true,
    () => false,
  );
  if (!present) return { xmp: null, xmpPath: null, provenance: null };
  const read = await readXmpSidecar(dirname(sidecar), sidecar)
    .then(readPacketProvenance)
    .catch(() => null);
  return read?.ok
    ? { xmp: 'sidecar', xmpPath: sidecar, provenance: read.provenance }
    : { xmp: null, xmpPath: null, provenance: null };
}

/** Reads `file` (see the file's comment). @throws NotAnImageError; UnsafeFileError; fs errors. */
export async function inspectImage(
  file: string,
  verifier: ContentCredentialVerifier,
): Promise<ImageInfo> {
  // The file the user named: held to its own folder (a link to elsewhere is not followed).
  const bytes = await readRegularFile(dirname(file), file, GALLERY_MAX_IMAGE_BYTES);
  const format = sniffImage(bytes.subarray(0, 12));
  if (!format) throw new NotAnImageError('The file is not a PNG, JPEG or WebP image.');
  const presence = await detectC2paInBytes(bytes, format);
  // The download's bounds: a store over the cap is not handed to the verifier, nor one online.
  const contentCredentials: ContentCredentials =
    verdictWithoutReading(presence) ?? (await verifier.verify({ bytes, format }));
  return {
    file,
    format,
    bytes: bytes.length,
    ...(await provenanceOf(file, bytes, format)),
    contentCredentials,
  };
}
