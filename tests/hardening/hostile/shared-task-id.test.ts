/**
 * A hostile service that answers different submits with the same task id. Through the real core
 * (the HTTP service client over loopback to a node:http service in this file, the task engine, the
 * SQLite history, the gallery on disk): the task that got the id first keeps it, untouched; every
 * later submit answered with it is recorded as one whose outcome is not known, with the sentence
 * that says why, no task id, nothing polled or downloaded for it, and it is never sent again. The
 * id's first holder may be a task finished long ago, one still running when the others are
 * answered, or a task the user tracked.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence } from '../../../shared/i18n/sentence';
import { StaticCredentials } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { type CompletingService, startCompletingService } from '../../support/completing-service';
import { testImageEngine } from '../../support/image-engine';
import { copyMigratedHistory } from '../../support/migrated-history';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const SAME_ID = 'task-same-for-all';
const ALIASED = englishText(sentence('error.library.taskIdOfAnother'));

/** Counts submits, task queries and image downloads; answers a query `running` until `done`. */
let service: CompletingService;
let dir: string;
let core: PictorCore;

beforeAll(async () => {
  service = await startCompletingService('#963');
});

afterAll(async () => {
  await service.close();
});

beforeEach(async () => {
  service.reset();
  service.submitId = SAME_ID;
  dir = await tempFolder('shared-id');
  const dataDir = join(dir, 'data');
  await mkdir(dataDir);
  copyMigratedHistory(join(dataDir, HISTORY_FILE));
  core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(service.origin, 'sk-shared-id-test'),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 20, maxBackoffMs: 40 },
    historyPort: { inThread: true },
    ...bundledAnswers(),
  });
  core.engine.start({ resume: false });
});

afterEach(async () => {
  await core.close();
  await removeFolder(dir);
});

async function submitted(count: number): Promise<TaskRecord[]> {
  const records = await core.engine.submit({ prompt: 'one id' }, targetAt(service.origin), count);
  return core.engine.whenSettled(records.map((record) => record.localId));
}

/** Resolves once every task of `localIds` has its submit answered: taken, or refused. */
function answered(localIds: readonly string[]): Promise<void> {
  const all = () =>
    localIds.every((localId) => {
      const record = core.engine.get(localId);
      return record?.taskId !== null || record.status === 'submit_unknown';
    });
  return new Promise((resolve) => {
    if (all()) return resolve();
    const listening = core.engine.onDidUpdate(() => {
      if (!all()) return;
      listening.dispose();
      resolve();
    });
  });
}

/** The records that were refused the id: no id, nothing polled, the sentence that says why. */
function expectRefused(records: readonly TaskRecord[]): void {
  for (const record of records) {
    const stored = core.history.get(record.localId);
    expect(stored?.status, JSON.stringify(stored?.error)).toBe('submit_unknown');
    expect(stored?.taskId).toBeNull();
    expect(stored?.error?.message).toBe(ALIASED);
    expect(stored?.images ?? []).toHaveLength(0);
  }
}

/** The one record that holds the id: completed, its one image saved, as it was. */
function expectHolder(holder: TaskRecord): void {
  const stored = core.history.get(holder.localId);
  expect(stored?.status).toBe('completed');
  expect(stored?.taskId).toBe(SAME_ID);
  expect(stored?.images.filter((image) => image.state === 'saved')).toHaveLength(1);
  expect(service.images).toEqual([`/img/${SAME_ID}.png`]);
}

describe('a service that answers different submits with the same task id', () => {
  it('after the first task finished: the later ones are refused the id, never sent again', async () => {
    const [first] = await submitted(1);
    const before = core.history.get(first!.localId);
    expectRefused([...(await submitted(1)), ...(await submitted(1))]);
    // A batch whose first request is refused the id sends none of the others (submit-batch.ts).
    const [batchFirst, batchSecond] = await submitted(2);
    expectRefused([batchFirst!]);
    expect(core.history.get(batchSecond!.localId)?.error?.sentence?.key).toBe(
      'error.library.batchNotSent',
    );
    expectHolder(first!);
    expect(core.history.get(first!.localId)).toEqual(before);
    expect(service.submits, 'each submit sent once').toBe(4);
    expect(core.history.getByTaskId(service.origin, SAME_ID)?.localId).toBe(first!.localId);
  });

  it('all answered while the first still runs: one holds the id, the others are refused', async () => {
    service.done = false;
    const records = await core.engine.submit({ prompt: 'one id' }, targetAt(service.origin), 4);
    const localIds = records.map((record) => record.localId);
    // Every answer is in (one task polled, the others refused) before the service finishes any.
    await answered(localIds);
    expect(service.submits).toBe(4);
    service.done = true;
    const settled = await core.engine.whenSettled(localIds);
    const holders = settled.filter((record) => record.taskId === SAME_ID);
    expect(holders).toHaveLength(1);
    expectRefused(settled.filter((record) => record.taskId !== SAME_ID));
    expectHolder(holders[0]!);
  });

  it('held by a task the user tracked: the submit answered with its id is refused it', async () => {
    const tracked = await core.engine.track(SAME_ID, { endpoint: service.origin });
    await core.engine.whenSettled([tracked.localId]);
    expectRefused(await submitted(1));
    expectHolder(tracked);
    expect(service.submits).toBe(1);
  });
});
