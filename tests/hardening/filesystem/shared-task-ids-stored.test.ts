/**
 * A library written before a submit answered with another task's id was refused it
 * (engine/answered-id.ts) may hold several tasks of one service task id. Opened by today's core
 * (history v17, task-id-schema.ts), over real HTTP on loopback, the SQLite history and the gallery
 * on disk: of each id's tasks at one endpoint, the first keeps the id and is polled and downloaded
 * once; a later one still waiting is recorded as refused the id (no id, nothing polled or
 * downloaded, the ledger following); a later one already finished, a task of the same id at
 * another endpoint and a task alone with its id are left as they were.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HISTORY_MIGRATIONS } from '../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { oneTaskPerIdV17 } from '../../../electron/core/history/task-id-schema';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { UNKNOWN_COST } from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence } from '../../../shared/i18n/sentence';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { type CompletingService, startCompletingService } from '../../support/completing-service';
import { testImageEngine } from '../../support/image-engine';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-stored-shared-ids';
const SHARED = 'task-shared-before';
const ALONE = 'task-alone';
const ALIASED = englishText(sentence('error.library.taskIdOfAnother'));
/** The migrations before v17 (task-id-schema.ts): what a library written before it holds. */
const BEFORE = HISTORY_MIGRATIONS.indexOf(oneTaskPerIdV17);

/** Counts the task queries and image downloads it saw, by path. */
let service: CompletingService;
let dir: string;
let core: PictorCore | undefined;

beforeAll(async () => {
  service = await startCompletingService('#369');
});

afterAll(async () => {
  await service.close();
});

beforeEach(async () => {
  service.reset();
  dir = await tempFolder('stored-shared-ids');
});

afterEach(async () => {
  await core?.close();
  core = undefined;
  await removeFolder(dir);
});

/** A task of the service on loopback still waiting on it, created at `minute`. */
function waiting(localId: string, taskId: string, minute: number, endpoint = service.origin) {
  return makeTaskRecord(
    {
      localId,
      taskId,
      endpoint,
      account: syncFingerprint(KEY),
      status: 'processing',
      finishedAt: null,
      cost: UNKNOWN_COST,
    },
    Date.UTC(2025, 5, 1, 9, minute),
  );
}

/** Writes `records` with the history of the version before v17, as a library of then holds them. */
function writtenBefore(dataDir: string, records: readonly TaskRecord[]): void {
  const old = HistoryStore.open(join(dataDir, HISTORY_FILE), {
    migrations: HISTORY_MIGRATIONS.slice(0, BEFORE),
  });
  try {
    old.putMany([...records]);
  } finally {
    old.close();
  }
}

async function opened(dataDir: string): Promise<PictorCore> {
  core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(service.origin, KEY),
    clock: systemClock,
    // Long enough for any load: a poll cut off by its time limit is asked again, by the same
    // task, which the count of polls per id below would read as a second task polling it (a
    // loaded run read two polls of the shared id).
    requestTimeoutMs: 60_000,
    engine: { pollIntervalMs: 20, maxBackoffMs: 40 },
    historyPort: { inThread: true },
    ...bundledAnswers(),
  });
  return core;
}

/** The ledger's row of a task, as the Costs screen reads it. */
function ledgerRow(dataDir: string, localId: string): Record<string, unknown> | undefined {
  const db = new DatabaseSync(join(dataDir, HISTORY_FILE), { readOnly: true });
  try {
    const row = db
      .prepare('SELECT task_id, status FROM ledger_tasks WHERE local_id = ?')
      .get(localId);
    return row === undefined ? undefined : { ...row };
  } finally {
    db.close();
  }
}

describe('tasks of one service task id stored before such answers were refused', () => {
  it('the first keeps the id and is downloaded once; a later waiting one is refused it', async () => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    const finishedLater = makeTaskRecord(
      {
        localId: 'c-finished-later',
        taskId: SHARED,
        endpoint: service.origin,
        account: syncFingerprint(KEY),
        images: [makeImage(0, { file: 'c/0.png', thumbnail: 'c/0.thumb.webp' })],
      },
      Date.UTC(2025, 5, 1, 9, 3),
    );
    const elsewhere = waiting('e-elsewhere', SHARED, 4, 'https://other.example.com');
    writtenBefore(dataDir, [
      // Created in this order; the local ids sort the other way, so the first is by time.
      waiting('z-first', SHARED, 1),
      waiting('b-later', SHARED, 2),
      finishedLater,
      waiting('a-later-still', SHARED, 5),
      elsewhere,
      waiting('d-alone', ALONE, 6),
    ]);

    // A field a newer Pictor added to a record stays through the migration's write.
    const raw = new DatabaseSync(join(dataDir, HISTORY_FILE));
    raw
      .prepare(
        "UPDATE tasks SET record = json_set(record, '$.futureField', json('[1,2]')) WHERE local_id = ?",
      )
      .run('b-later');
    raw.close();

    const opened_ = await opened(dataDir);
    expect(opened_.history.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    opened_.engine.start({ resume: true });
    const settled = await opened_.engine.whenSettled(['z-first', 'd-alone']);
    expect(settled.map((record) => record.status)).toEqual(['completed', 'completed']);

    const first = opened_.history.get('z-first');
    expect(first?.taskId).toBe(SHARED);
    expect(first?.images.filter((image) => image.state === 'saved')).toHaveLength(1);
    for (const localId of ['b-later', 'a-later-still']) {
      const refused = opened_.history.get(localId);
      expect(refused?.status, localId).toBe('submit_unknown');
      expect(refused?.taskId).toBeNull();
      expect(refused?.error?.message).toBe(ALIASED);
      expect(refused?.images).toEqual([]);
      expect(ledgerRow(dataDir, localId)).toEqual({ task_id: null, status: 'submit_unknown' });
    }
    const check = new DatabaseSync(join(dataDir, HISTORY_FILE), { readOnly: true });
    const row = check.prepare('SELECT record FROM tasks WHERE local_id = ?').get('b-later');
    check.close();
    expect(JSON.parse(String(row?.['record']))).toMatchObject({ futureField: [1, 2] });
    expect(opened_.history.get('c-finished-later')).toEqual(finishedLater);
    expect(opened_.history.get('e-elsewhere')).toMatchObject({
      status: 'processing',
      taskId: SHARED,
    });
    expect(ledgerRow(dataDir, 'z-first')).toMatchObject({ task_id: SHARED });
    expect(opened_.engine.get('b-later')?.status).toBe('submit_unknown');

    // Each service task polled by one task and its image downloaded once.
    expect(service.polls.filter((id) => id === SHARED)).toHaveLength(1);
    expect([...service.images].sort()).toEqual([`/img/${ALONE}.png`, `/img/${SHARED}.png`]);
  });

  it('a record that does not parse is left as it was, and holds the id when it is first', async () => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    writtenBefore(dataDir, [waiting('m-first', SHARED, 1), waiting('n-later', SHARED, 2)]);
    const db = new DatabaseSync(join(dataDir, HISTORY_FILE));
    db.prepare('UPDATE tasks SET record = \'{"not":"a record"}\' WHERE local_id = ?').run(
      'm-first',
    );
    db.close();

    const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
    try {
      expect(store.get('m-first')).toBeUndefined();
      expect(store.get('n-later')).toMatchObject({ status: 'submit_unknown', taskId: null });
    } finally {
      store.close();
    }
    const raw = new DatabaseSync(join(dataDir, HISTORY_FILE), { readOnly: true });
    expect(raw.prepare('SELECT record FROM tasks WHERE local_id = ?').get('m-first')).toEqual({
      record: '{"not":"a record"}',
    });
    raw.close();
  });
});
