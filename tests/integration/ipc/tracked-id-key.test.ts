/**
 * A task id the user types to track ("Track a task": `tasks:track`) is the user's word, not a
 * service's answer, so no answer check reads it; kept as typed, a key pasted into it (or a key
 * another service echoed into an id the user copied) would reach the history, a plaintext file.
 * Through the real IPC handler over the real core (SQLite history, gallery, credentials holding
 * the key sent to this service and another service's), an id that carries either key, in each
 * encoding the key search covers, is refused with a sentence that names neither id nor key, and
 * nothing is written: no task, no file that carries the key. A clean id is tracked (the positive
 * control).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import type { TaskChangeSink } from '../../../electron/ipc/task-updates';
import { listFiles } from '../../e2e/harness/disk';
import { StaticCredentials } from '../../fakes/static-credentials';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';
import { ipcCaller } from '../../support/ipc';
import { openTestCore } from '../core/core-harness';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The key this service's tasks are sent with, and another service's the app holds. */
const SENT = 'sk-tracked-sent-Pq4Lm8Zt2Vx6';
const OTHER = 'r8_tracked-other-Hn3Wc7Ky5Bd1';

let service: DemoService;
let core: PictorCore;
let dir = '';
let call: ReturnType<typeof ipcCaller>;

beforeAll(async () => {
  service = await startDemoService({ accounts: [{ account: 'a', key: SENT }], durationMs: 0 });
  dir = await tempFolder('tracked-key');
  const credentials = new StaticCredentials(service.url, SENT, service.url, [OTHER]);
  core = await openTestCore(dir, credentials, { historyPort: { inThread: true } });
  const changes: TaskChangeSink = { removed: () => undefined, refused: () => undefined };
  const trash = {
    removeTasks: () => Promise.reject(new Error('not here')),
    restoreTasks: () => Promise.reject(new Error('not here')),
  };
  const handlers = taskHandlers({
    core,
    chooseFolder: () => Promise.resolve(null),
    emit: () => undefined,
    changes,
    trash,
  });
  call = ipcCaller(handlers as Partial<IpcHandlers>);
});

afterAll(async () => {
  await core.close();
  await service.close();
  await removeFolder(dir);
});

/** Every file of the library as text (the history's database bytes included). */
async function libraryText(): Promise<string> {
  const texts = await Promise.all(
    (await listFiles(dir)).map(async (file) =>
      (await readFile(join(dir, file))).toString('latin1'),
    ),
  );
  return texts.join('\n');
}

/** What `tasks:track` answered for `taskId`, and the task list after. */
async function tracked(taskId: string) {
  const answer = await call('tasks:track', { taskId });
  const listed = await call('tasks:list', {});
  return { answer, listed };
}

describe('tasks:track with an id that carries a key the app holds', () => {
  for (const [which, key] of [
    ['the key sent to this service', SENT],
    ['another service’s key', OTHER],
  ] as const) {
    it.each(ENCODING_NAMES)(`is refused, nothing written (${which}, %s)`, async (encoding) => {
      const id = `task-${ENCODINGS[encoding]!(key, 1)}`;
      const { answer, listed } = await tracked(id);
      expect(answer).toMatchObject({ ok: false });
      const said = JSON.stringify(answer);
      expect(keyScanner(key).leaks(said)).toEqual([]);
      expect(said).not.toContain(id);
      expect(JSON.stringify(listed)).not.toContain(id);
      expect(keyScanner(key).leaks(JSON.stringify(listed))).toEqual([]);
      // Those the task id's own checks let through (printable, no spaces) are refused for the key.
      if (!/\p{C}|\s/u.test(id)) {
        expect(said).toContain('The task id contains an API key Pictor holds');
      }
    });
  }

  it('writes no file that carries either key', async () => {
    const text = await libraryText();
    expect(keyScanner(SENT).leaks(text)).toEqual([]);
    expect(keyScanner(OTHER).leaks(text)).toEqual([]);
  });

  it('tracks a clean id (the positive control)', async () => {
    const task = service.createTask('a', { prompt: 'made elsewhere' });
    const { answer, listed } = await tracked(task.id);
    expect(answer).toMatchObject({ ok: true, value: { record: { origin: 'tracked' } } });
    expect(JSON.stringify(listed)).toContain(task.id);
  });
});
