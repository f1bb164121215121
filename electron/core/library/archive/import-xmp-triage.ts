/**
 * An incoming task's triage, by the rule a rebuild follows (library/rebuilt-triage.ts): the
 * triage its `pictor.json` holds of a saved image is taken; else the one the image's XMP sidecar
 * in the source holds in Pictor's element (gallery/metadata/xmp-own-triage.ts), so a gallery
 * folder imported as it is (where a triage edit writes the XMP, not `pictor.json`) brings its
 * triage. An archive's `pictor.json` holds every image's (export-library.ts writes the history's
 * record). The packet is read with the XMP cap and, when the manifest lists it, its SHA-256
 * checked; one that cannot be read or used brings nothing.
 */
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  hasOwnTriage,
  MAX_XMP_SIDECAR_BYTES,
  readOwnTriage,
  triageInXmp,
  withOwnTriage,
} from '../../gallery';
import { isAbort } from './archive-errors';
import type { PlannedXmp } from './import-plan';
import { readBounded, sha256Of } from './stream-copy';

async function ownTriageIn(planned: PlannedXmp, signal: AbortSignal | undefined) {
  try {
    const bytes = await readBounded(await planned.file.open(), MAX_XMP_SIDECAR_BYTES, signal);
    if (planned.listed && planned.listed.sha256 !== sha256Of(bytes)) return null;
    return readOwnTriage(bytes.toString('utf8'));
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}

/** `record` with the triage the source's XMP sidecars hold of its images (see above). */
export async function withSourceXmpTriage(
  record: TaskRecord,
  xmps: readonly PlannedXmp[],
  signal?: AbortSignal,
): Promise<TaskRecord> {
  let images = record.images;
  for (const [n, image] of record.images.entries()) {
    if (!triageInXmp(image) || hasOwnTriage(image)) continue;
    const planned = xmps.find((xmp) => xmp.index === image.index);
    const own = planned ? await ownTriageIn(planned, signal) : null;
    if (!own) continue;
    images = images === record.images ? [...images] : images;
    images[n] = withOwnTriage(image, own);
  }
  return images === record.images ? record : { ...record, images };
}
