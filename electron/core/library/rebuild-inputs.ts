/**
 * The rebuild and the input store: `inputs/` at the gallery's root holds no task and is not walked.
 * A rebuilt task's inputs (`request.inputs`) against the library's `inputs/` folder: the record
 * keeps them whatever the folder holds (its lineage and its stack do not depend on the files), and
 * each one missing is noted, so the user learns it before "Run again" refuses with
 * `error.inputs.missing`. Only whether a regular file is there is looked at (never through a
 * link); its bytes are hashed again when it is sent (InputStore.read).
 */
import { join } from 'node:path';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { regularFileSize, toGalleryPath } from '../fs';
import { INPUTS_DIR, InputStore } from '../inputs';
import { MAX_INPUT_BYTES, inputImagesOf } from '../../../shared/domain/image-inputs';

/** Whether the folder `name` found `depth` folders down is the input store: no task is there. */
export function isInputStore(depth: number, name: string): boolean {
  return depth === 0 && name === INPUTS_DIR;
}

/** The digests of `record`'s inputs that the gallery at `root` has no file for. */
async function missingInputs(root: string, record: TaskRecord): Promise<string[]> {
  const { inputs } = record.request;
  if (!inputs) return [];
  const store = new InputStore({ root });
  const missing: string[] = [];
  for (const image of inputImagesOf(inputs)) {
    const path = join(root, ...store.relativePath(image).split('/'));
    const there = await regularFileSize(root, path, MAX_INPUT_BYTES).then(
      () => true,
      () => false,
    );
    if (!there) missing.push(image.sha256);
  }
  return missing;
}

/** Notes in `notes`, against the sidecar at `sidecarPath`, the input files `record` lacks. */
export async function noteMissingInputs(
  root: string,
  sidecarPath: string,
  record: TaskRecord,
  notes: { path: string; reason: string }[] | undefined,
): Promise<void> {
  const missing = await missingInputs(root, record);
  if (missing.length === 0 || !notes) return;
  notes.push({
    path: toGalleryPath(root, sidecarPath),
    reason: missingInputsNote(record, missing),
  });
}

function missingInputsNote(record: TaskRecord, missing: readonly string[]): string {
  return `Task ${record.localId}: ${missing.length} of its input images (${missing.join(', ')}) are not in the inputs folder; the task keeps its record, and “Run again” will ask for them.`;
}
