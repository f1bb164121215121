/**
 * A task as a library from before typed ids were checked exported it: kept under a service id
 * that carries a key, its `pictor.json` (the gallery's own sidecar text) and its saved PNG saying
 * that id in its own metadata (the download's own provenance embedder), as the files of an
 * export (import-kept-ids.test.ts, import-kept-ids-cli.test.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { taskFiles, type ExportFile } from '../../unit/core/library/archive/crafted-export';

/**
 * One task under `taskId` with a saved PNG saying that id in its metadata, as export files; the
 * task of `made` (another image of one task: import-merge-kept-ids.test.ts), else a new one.
 */
export async function keptTask(
  base: string,
  taskId: string,
  made?: { record: TaskRecord; files: ExportFile[] },
): Promise<{ record: TaskRecord; files: ExportFile[] }> {
  made ??= await taskFiles();
  const record: TaskRecord = { ...made.record, taskId };
  const image = made.files.find((file) => file.kind === 'image')!;
  const scratch = join(base, 'scratch');
  const path = join(scratch, image.path);
  await mkdir(dirname(path), { recursive: true });
  // Pictor's temp folder, where the embedder writes the file before it takes its place.
  await mkdir(join(scratch, TEMP_DIR), { recursive: true });
  await writeFile(path, image.data);
  const embedded = await embedProvenanceInFile(path, 'png', provenanceOf(record, 0, 'old'), {
    root: scratch,
    maxBytes: MAX_IMAGE_BYTES,
  });
  expect(embedded.ok, JSON.stringify(embedded)).toBe(true);
  const data = await readFile(path);
  const images = record.images.map((one) => ({ ...one, bytes: data.length }));
  const kept = { ...record, images };
  return {
    record: kept,
    files: made.files.map((file) =>
      file.kind === 'image' ? { ...file, data } : { ...file, data: Buffer.from(sidecarText(kept)) },
    ),
  };
}
