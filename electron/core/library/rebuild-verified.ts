/**
 * A library rebuilt from its folder as the app and `pictor rebuild` see it: the records the
 * sidecars and the images' own metadata describe (rebuild.ts), with every Content Credentials
 * verdict found again by the intake's verifier: verdicts written in the folder are not believed.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { type ImageIntake, withFoundCredentialsAll } from '../download';
import { rebuildFromFolder, type RebuildOptions, type RebuildResult } from './rebuild';

/** What a rebuild uses of the intake: the folder now, the pixel limit, the verifier. */
export type RebuildIntake = Pick<ImageIntake, 'root' | 'maxPixels' | 'credentialsContext'>;

/**
 * Scans the gallery folder for sidecars and returns the valid records (or hands them to
 * `options.onBatch`, for folders of any size) plus `{ path, reason }` for each one skipped. See
 * rebuild.ts for how images are matched with the files on disk; a folder that lost its sidecar
 * comes back from its images' own metadata.
 */
export async function rebuildLibrary(
  intake: RebuildIntake,
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const verify = (records: TaskRecord[]) =>
    withFoundCredentialsAll(records, intake.credentialsContext());
  const { onBatch } = options;
  const result = await rebuildFromFolder(intake.root, {
    maxPixels: intake.maxPixels,
    ...options,
    ...(onBatch ? { onBatch: async (records) => onBatch(await verify(records)) } : {}),
  });
  return onBatch ? result : { ...result, records: await verify(result.records) };
}
