/**
 * A library holding tasks a newer Pictor wrote at this schema: a status this version does not
 * know (a state a later engine added), or a service it does not know (a provider added later,
 * its cost in the ledger under that service). This version's reads skip such a task (it cannot show what it cannot
 * read); here, on a real history file: the store counts them, for the user to be told they are
 * there (the worker's count, as the app asks for it for its notice; `pictor list` at its end), and a write of this version bringing a task
 * of the same local id (an import, a rebuild) leaves the newer task's row, its images and its
 * ledger row as they were. Controls: a row of this version, and one whose text is no JSON, are
 * written over as always; a library without such tasks counts 0.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryPort } from '../../../electron/core/history/history-port';
import type { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { describeRun, runCli } from '../../integration/cli/run-cli';
import { runOnHistoryFile, withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempFolder('newer-tasks');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  file = join(dir, 'data', HISTORY_FILE);
});
afterEach(async () => {
  await removeFolder(dir);
});

/** The test's history file, opened for `work` (tests/support/history-file.ts). */
const withStore = <T>(work: (store: HistoryStore) => T): T => withHistoryFile(file, work);

/** `sql` run on the file as another program (a newer Pictor) would. */
function rawly(sql: string, ...params: string[]): void {
  runOnHistoryFile(file, sql, ...params);
}

/** What the file holds of a task: its row, its image rows, its ledger row. */
function stored(localId: string) {
  const db = new DatabaseSync(file);
  try {
    return {
      task: db.prepare('SELECT status, prompt, record FROM tasks WHERE local_id = ?').get(localId),
      images: db.prepare('SELECT idx, state FROM images WHERE local_id = ?').all(localId),
      ledger: db
        .prepare('SELECT provider, status FROM ledger_tasks WHERE local_id = ?')
        .get(localId),
    };
  } finally {
    db.close();
  }
}

/** Three tasks of this version, then two made a newer Pictor's by what it writes in them. */
function libraryWithNewerTasks(): void {
  withStore((store) => {
    for (const localId of ['ours', 'later-state', 'later-service']) {
      store.put(makeTaskRecord({ localId, images: [makeImage(0), makeImage(1)] }));
    }
  });
  rawly(
    `UPDATE tasks SET status = 'upscaling', record = json_set(record, '$.status', 'upscaling')
     WHERE local_id = ?`,
    'later-state',
  );
  rawly(
    `UPDATE tasks SET provider = 'midjourney',
       record = json_set(record, '$.provider', 'midjourney') WHERE local_id = ?`,
    'later-service',
  );
  // Its cost in the ledger, under the service that charged it.
  rawly(
    `INSERT INTO ledger_tasks (local_id, task_id, provider, endpoint, model, prompt, size,
       created_at, status, source, unit, micros, detail)
     VALUES (?, 'mj-1', 'midjourney', 'https://api.midjourney.example', 'v9', 'a cat', NULL, 0,
       'completed', 'reported', 'usd', 40000, NULL)`,
    'later-service',
  );
}

/** A task of this version with the same local id (an import's, a rebuild's). */
const incoming = (localId: string) =>
  makeTaskRecord({
    localId,
    request: { ...makeTaskRecord().request, prompt: 'an import of the same id' },
    images: [makeImage(0)],
  });

describe('tasks a newer Pictor wrote', () => {
  it('are counted, by the store and by the worker the app asks', async () => {
    libraryWithNewerTasks();
    withStore((store) => {
      expect(store.countNewerTasks()).toBe(2);
      expect(store.list({ limit: 10 }).items.map((record) => record.localId)).toEqual(['ours']);
    });
    const port = new HistoryPort(file);
    try {
      expect(await port.call('newerTaskCount', {})).toBe(2);
    } finally {
      await port.dispose();
    }
  });

  it('are said by pictor list at the listing’s end, the others listed', async () => {
    libraryWithNewerTasks();
    const run = await runCli(['list', '--data-dir', join(dir, 'data')], { home: dir });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr, describeRun(run)).toMatch(
      /^2 tasks in this library were made by a newer version of Pictor .*they are not listed here, and kept as they are\.$/m,
    );
  });

  it.each(['later-state', 'later-service'])(
    'are never written over by a task of the same local id (%s)',
    (localId) => {
      libraryWithNewerTasks();
      const before = stored(localId);
      withStore((store) => {
        store.put(incoming(localId));
        store.putManyCounted([incoming(localId)]);
      });
      expect(stored(localId)).toEqual(before);
      expect(stored(localId).images).toHaveLength(2);
    },
  );

  it('a task of this version, and a row that is no JSON, are written over as always', () => {
    libraryWithNewerTasks();
    rawly(`UPDATE tasks SET record = 'not json' WHERE local_id = ?`, 'later-state');
    withStore((store) => {
      store.put(incoming('ours'));
      store.put(incoming('later-state'));
      expect(store.get('ours')?.request.prompt).toBe('an import of the same id');
      expect(store.get('later-state')?.request.prompt).toBe('an import of the same id');
      expect(store.countNewerTasks()).toBe(1);
    });
    expect(stored('ours').images).toHaveLength(1);
  });

  it('count 0 in a library without any', () => {
    withStore((store) => {
      store.put(makeTaskRecord({ localId: 'ours' }));
      expect(store.countNewerTasks()).toBe(0);
    });
  });
});
