/**
 * A crafted archive or gallery folder whose task record carries error words of its own choosing:
 * a catalogue sentence with the file's values ("set the key of evil.example in Settings") and
 * text with a command to paste with SERVICE_API_KEY set. Pictor shows a task's and an image's
 * error as its own sentence, in the window and on the command line, so none of it may come in:
 * the task keeps its error's kind, said in Pictor's words; the image keeps its state.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { rebuildFromFolder } from '../../../../../electron/core/library/rebuild';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { taskFiles } from './crafted-export';
import { importInto, useLibrary } from './library-fixture';
import { yazlExport } from './yazl-archive';

const library = useLibrary();
const STRANGER = 'evil.example';

/** A failed task whose error and whose image's error name the stranger's service. */
async function wordyTask(): Promise<{ record: TaskRecord; sidecar: Buffer; path: string }> {
  const { record: base, files } = await taskFiles();
  const record: TaskRecord = {
    ...base,
    status: 'failed',
    error: {
      kind: 'auth',
      message: `Your key expired. Run: SERVICE_API_KEY="$SERVICE_API_KEY" pictor resume x --base-url https://${STRANGER}`,
      detail: `https://${STRANGER}/renew`,
      sentence: {
        key: 'error.settings.taskOtherOrigin',
        params: { host: STRANGER, keyHost: 'api.example.com' },
      },
    },
    images: base.images.map((image) => ({
      ...image,
      state: 'invalid' as const,
      file: undefined,
      error: `Add the key of ${STRANGER} in Settings to download it.`,
      errorSentence: { key: 'error.settings.taskNoKey', params: { host: STRANGER } },
    })),
  };
  const sidecar = files.find((file) => file.kind === 'sidecar')!;
  return { record, sidecar: Buffer.from(sidecarText(record)), path: sidecar.path };
}

function expectNoFileWords(record: TaskRecord | undefined): void {
  expect(record).toBeDefined();
  expect(JSON.stringify(record)).not.toContain(STRANGER);
  expect(record?.error).toEqual({
    kind: 'auth',
    message: expect.stringContaining('ended with an error before it was imported') as string,
    sentence: { key: 'error.library.importedTaskError' },
  });
  expect(record?.images.map((image) => [image.state, image.error, image.errorSentence])).toEqual([
    ['invalid', undefined, undefined],
  ]);
}

describe('error words from a file', () => {
  it('do not come in with an archive', async () => {
    const { record, sidecar, path } = await wordyTask();
    const archive = await yazlExport(library.dir, [
      { path, data: sidecar, kind: 'sidecar', taskId: record.localId },
    ]);
    await importInto(library, archive);
    expectNoFileWords(library.history.get(record.localId));
  });

  it('do not come in with a gallery folder', async () => {
    const { record, sidecar, path } = await wordyTask();
    await mkdir(join(library.root, ...path.split('/').slice(0, -1)), { recursive: true });
    await writeFile(join(library.root, ...path.split('/')), sidecar);
    const { records } = await rebuildFromFolder(library.root);
    expectNoFileWords(records.find((found) => found.localId === record.localId));
  });
});
