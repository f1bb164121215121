/**
 * An imported image's XMP sidecar (an image with Content Credentials keeps its XMP beside it):
 * read with the sidecar cap, its SHA-256 checked against the manifest, and believed only when it
 * is Pictor's packet for that very image (the checks `rebuild` makes, metadata/read.ts). It then
 * goes beside the image under the image's name; otherwise the image comes in without it.
 */
import type { ImageRecord } from '../../../../shared/domain/task-record';
import { sentence } from '../../../../shared/i18n/sentence';
import { writeNewFileSynced } from '../../fs';
import { MAX_XMP_SIDECAR_BYTES, readPacketProvenance } from '../../gallery';
import { isAbort, refusal, type Refusal } from './archive-errors';
import type { PlannedXmp } from './import-plan';
import { readBounded, sha256Of } from './stream-copy';

/**
 * Writes the XMP planned for `from` (the incoming image's index) to the new file `target`, for the
 * image now at `index`. Returns `null` when there is none, or the refusal when it is not used.
 * @throws AbortError.
 */
export async function stageXmp(
  xmps: readonly PlannedXmp[],
  from: ImageRecord,
  target: string,
  signal?: AbortSignal,
): Promise<{ ok: true; sha256: string } | Refusal | null> {
  const planned = xmps.find((xmp) => xmp.index === from.index);
  if (!planned) return null;
  const refused = refusal(planned.file.path, sentence('error.library.xmpRefused'));
  let bytes: Buffer;
  try {
    bytes = await readBounded(await planned.file.open(), MAX_XMP_SIDECAR_BYTES, signal);
  } catch (error) {
    if (isAbort(error)) throw error;
    return refused;
  }
  const sha256 = sha256Of(bytes);
  if (planned.listed && planned.listed.sha256 !== sha256) return refused;
  const read = readPacketProvenance(bytes.toString('utf8'));
  if (!read.ok || read.provenance.imageIndex !== from.index) return refused;
  await writeNewFileSynced(target, bytes);
  return { ok: true, sha256 };
}

/** The XMP sidecars of a source that belong to no image that came in. */
export function unusedXmps(xmps: readonly PlannedXmp[], used: ReadonlySet<number>): Refusal[] {
  return xmps
    .filter((xmp) => !used.has(xmp.index))
    .map((xmp) => refusal(xmp.file.path, sentence('error.library.xmpWithoutImage')));
}
