/**
 * Tasks of a service a newer Pictor added, with no cost in the ledger (a failed submit, a service
 * that reports none): the task's service is in no index of the ledger's, and the count of tasks
 * kept aside missed them (newer-task-rows.test.ts covers those the ledger holds). On a real
 * history file, written as a newer Pictor writes it (its row inserted, or its service set by an
 * update): the store, the worker the app asks and `pictor list` count each such task once (one
 * in the ledger too, or of an unknown status too, still once); one removed, or set back to a
 * service this version knows, is no longer counted. An older library (v17) upgraded counts what
 * it holds from then on. Controls: tasks of this version count 0, however written.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryPort } from '../../../electron/core/history/history-port';
import {
  HISTORY_MIGRATIONS,
  NEWER_SERVICE_VERSION,
} from '../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { describeRun, runCli } from '../../integration/cli/run-cli';
import { runOnHistoryFile, withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await tempFolder('newer-service');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  file = join(dir, 'data', HISTORY_FILE);
});
afterEach(async () => {
  await removeFolder(dir);
});

const withStore = <T>(work: (store: HistoryStore) => T): T => withHistoryFile(file, work);

/** `sql` run on the file as another program (a newer Pictor) would. */
function rawly(sql: string, ...params: string[]): void {
  runOnHistoryFile(file, sql, ...params);
}

/**
 * A newer Pictor's insert of task `localId` of service `provider`: the row of `from` (a task of
 * this version) copied under the new id, its record and provider column saying the service.
 */
function insertAs(localId: string, provider: string, from = 'ours'): void {
  rawly(
    `INSERT INTO tasks (local_id, task_id, endpoint, status, prompt, model, favourite,
       created_at, updated_at, unfinished, record, provider)
     SELECT ?1, ?1, endpoint, status, prompt, model, favourite, created_at + 1, updated_at, 0,
       json_set(record, '$.localId', ?1, '$.taskId', ?1, '$.provider', ?2), ?2
     FROM tasks WHERE local_id = ?3`,
    localId,
    provider,
    from,
  );
}

/** A newer Pictor's write of its service into a task this version wrote (no cost). */
function setService(localId: string, provider: string): void {
  rawly(
    `UPDATE tasks SET provider = ?2, record = json_set(record, '$.provider', ?2)
     WHERE local_id = ?1`,
    localId,
    provider,
  );
}

function libraryOfOurs(): void {
  withStore((store) => {
    for (const localId of ['ours', 'later-update', 'later-both', 'later-state']) {
      store.put(makeTaskRecord({ localId, images: [makeImage(0)] }));
    }
  });
}

describe('tasks of a newer Pictor’s service without a cost', () => {
  it('are counted once each, by the store, the worker and pictor list', async () => {
    libraryOfOurs();
    insertAs('later-insert', 'midjourney');
    setService('later-update', 'ideogram');
    // In the ledger too (its cost), and one of an unknown status too: still one each.
    setService('later-both', 'midjourney');
    rawly(
      `INSERT INTO ledger_tasks (local_id, task_id, provider, endpoint, model, prompt, size,
         created_at, status, source, unit, micros, detail)
       VALUES ('later-both', 'mj-1', 'midjourney', 'https://api.midjourney.example', 'v9', 'a cat',
         NULL, 0, 'completed', 'reported', 'usd', 40000, NULL)`,
    );
    setService('later-state', 'midjourney');
    rawly(`UPDATE tasks SET status = 'upscaling' WHERE local_id = ?`, 'later-state');

    withStore((store) => {
      expect(store.countNewerTasks()).toBe(4);
      expect(store.newerTaskIds().sort()).toEqual([
        'later-both',
        'later-insert',
        'later-state',
        'later-update',
      ]);
      expect(store.list({ limit: 10 }).items.map((record) => record.localId)).toEqual(['ours']);
    });
    const port = new HistoryPort(file);
    try {
      expect(await port.call('newerTaskCount', {})).toBe(4);
    } finally {
      await port.dispose();
    }
    const run = await runCli(['list', '--data-dir', join(dir, 'data')], { home: dir });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stderr, describeRun(run)).toMatch(/^4 tasks in this library were made by a newer/m);
  });

  it('one removed, or set back to a service this version knows, is no longer counted', () => {
    libraryOfOurs();
    insertAs('later-insert', 'midjourney');
    setService('later-update', 'ideogram');
    withStore((store) => expect(store.countNewerTasks()).toBe(2));
    rawly('DELETE FROM tasks WHERE local_id = ?', 'later-insert');
    setService('later-update', 'fal');
    withStore((store) => {
      expect(store.countNewerTasks()).toBe(0);
      expect(store.newerTaskIds()).toEqual([]);
    });
  });

  it('an older library upgraded counts the tasks written after', () => {
    const older = HistoryStore.open(file, {
      migrations: HISTORY_MIGRATIONS.slice(0, NEWER_SERVICE_VERSION - 1),
    });
    try {
      older.put(makeTaskRecord({ localId: 'ours', images: [makeImage(0)] }));
    } finally {
      older.close();
    }
    withStore((store) => expect(store.countNewerTasks()).toBe(0));
    insertAs('later-insert', 'midjourney');
    withStore((store) => expect(store.countNewerTasks()).toBe(1));
  });

  it('tasks of this version count 0, however written', () => {
    libraryOfOurs();
    insertAs('copy', 'comfyui');
    setService('later-update', 'replicate');
    rawly('UPDATE tasks SET provider = NULL WHERE local_id = ?', 'ours');
    withStore((store) => {
      store.put(makeTaskRecord({ localId: 'later-both', images: [] }));
      store.delete('later-state');
      expect(store.countNewerTasks()).toBe(0);
      expect(store.newerTaskIds()).toEqual([]);
    });
  });
});
