/**
 * A library a newer Pictor wrote at this version's schema: its task records carry fields this
 * version does not know (a newer release may add an optional field without a new schema version,
 * as `seed` and `reportedModel` were added). This version reads past them, and its own writes of
 * those tasks, the engine's over real HTTP on loopback and a store's put, keep them in the row:
 * a downgrade and back loses nothing the newer one kept. A field this version knows is the new
 * record's alone (one it leaves out does not come back), and a row whose text is no JSON object
 * is simply replaced.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { type CompletingService, startCompletingService } from '../../support/completing-service';
import { testImageEngine } from '../../support/image-engine';
import { copyMigratedHistory } from '../../support/migrated-history';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-newer-record-fields';
/** What a newer Pictor kept in a record: a field of each JSON kind, one nested deep. */
const NEWER = {
  futureStyle: { preset: 'noir', weights: [0.25, 0.75], deep: { level: 3, on: true } },
  futureNotes: ['kept', 'as', 'written'],
  futureCount: 7,
  futureFlag: false,
  futureText: 'écrit par une version plus récente ✓',
};

let service: CompletingService;
let dir: string;
let file: string;
let core: PictorCore | undefined;

beforeAll(async () => {
  service = await startCompletingService('#693');
});

afterAll(async () => {
  await service.close();
});

beforeEach(async () => {
  dir = await tempFolder('newer-fields');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  file = join(dir, 'data', HISTORY_FILE);
  copyMigratedHistory(file);
});

afterEach(async () => {
  await core?.close();
  core = undefined;
  await removeFolder(dir);
});

/** The row's record as stored, parsed. */
function storedJson(localId: string): Record<string, unknown> {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    return JSON.parse(String(row?.['record'])) as Record<string, unknown>;
  } finally {
    db.close();
  }
}

/** Writes `fields` into the stored record of `localId`, as the newer Pictor's write left it. */
function newerWrote(localId: string, fields: object | string): void {
  const db = new DatabaseSync(file);
  try {
    const text =
      typeof fields === 'string' ? fields : JSON.stringify({ ...storedJson(localId), ...fields });
    db.prepare('UPDATE tasks SET record = ? WHERE local_id = ?').run(text, localId);
  } finally {
    db.close();
  }
}

/** The test's history file, opened for `work` (tests/support/history-file.ts). */
const withStore = <T>(work: (store: HistoryStore) => T): T => withHistoryFile(file, work);

const waiting = (localId: string): TaskRecord =>
  makeTaskRecord({
    localId,
    endpoint: service.origin,
    account: syncFingerprint(KEY),
    status: 'processing',
    finishedAt: null,
  });

describe('records a newer Pictor wrote with fields this version does not know', () => {
  it('a put keeps them; a field this version knows and leaves out stays out', () => {
    const queued = { ...waiting('one'), sendState: 'queued' as const };
    withStore((store) => store.put(queued));
    newerWrote('one', NEWER);
    const done = makeTaskRecord({ localId: 'one', images: [makeImage(0)] });
    withStore((store) => {
      expect(store.get('one')?.status).toBe('processing');
      store.put(done);
      expect(store.get('one')).toEqual(done);
    });
    const stored = storedJson('one');
    expect(stored).toMatchObject(NEWER);
    expect(stored).not.toHaveProperty('sendState');
    expect(stored['status']).toBe('completed');
    // Written again with nothing new: kept still, once each.
    withStore((store) => store.put({ ...done, updatedAt: done.updatedAt + 1 }));
    expect(storedJson('one')).toMatchObject(NEWER);
  });

  it('a stored text that is no JSON object is replaced by the write', () => {
    for (const [at, text] of ['{not json', '[1,2,3]', '"text"', 'null'].entries()) {
      const localId = `odd-${String(at)}`;
      withStore((store) => store.put(waiting(localId)));
      newerWrote(localId, text);
      const done = makeTaskRecord({ localId });
      withStore((store) => {
        expect(store.get(localId)).toBeUndefined();
        store.put(done);
        expect(store.get(localId)).toEqual(done);
      });
    }
  });

  it('the engine polls, downloads and writes the task, the newer fields kept', async () => {
    withStore((store) => store.put(waiting('polled')));
    newerWrote('polled', NEWER);
    core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: (url, init) => fetch(url, init),
      credentials: new StaticCredentials(service.origin, KEY),
      clock: systemClock,
      requestTimeoutMs: 5_000,
      engine: { pollIntervalMs: 20, maxBackoffMs: 40 },
      historyPort: { inThread: true },
      ...bundledAnswers(),
    });
    core.engine.start({ resume: true });
    const [settled] = await core.engine.whenSettled(['polled']);
    expect(settled?.status).toBe('completed');
    expect(core.history.get('polled')?.images.map((image) => image.state)).toEqual(['saved']);
    expect(storedJson('polled')).toMatchObject(NEWER);
  });
});
