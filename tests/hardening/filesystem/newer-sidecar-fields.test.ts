/**
 * A gallery folder a newer Pictor wrote: a task's `pictor.json` of this format carrying fields
 * this version does not know (in the file and in its record), and one of a newer format. Through
 * the real core (the engine over real HTTP on loopback, the SQLite history, the gallery on disk),
 * this version completes the tasks and writes their sidecars: the unknown fields are kept beside
 * the new record, and the newer format's file is left byte for byte (a downgrade loses nothing),
 * while the task itself completes in the history. A sidecar too large to keep them in, and one
 * that is not Pictor's, are written as this version writes them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { keptOfSidecar, withKept } from '../../../electron/core/gallery/sidecar-kept';
import {
  MAX_SIDECAR_BYTES,
  parseSidecar,
  sidecarText,
} from '../../../electron/core/gallery/sidecar';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { type CompletingService, startCompletingService } from '../../support/completing-service';
import { testImageEngine } from '../../support/image-engine';
import { copyMigratedHistory } from '../../support/migrated-history';
import { makeTaskRecord } from '../../support/task-records';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-newer-sidecar-fields';
const NEWER_RECORD = { futureStyle: { preset: 'noir', weights: [0.25, 0.75] }, futureCount: 3 };
const NEWER_FILE = { writtenBy: 'Pictor 9.0', futureIndex: ['a', 'b'] };

let service: CompletingService;
let dir: string;
let core: PictorCore | undefined;

beforeAll(async () => {
  service = await startCompletingService('#936');
});

afterAll(async () => {
  await service.close();
});

beforeEach(async () => {
  dir = await tempFolder('newer-sidecar');
  await mkdir(join(dir, 'data'), { mode: 0o700 });
  copyMigratedHistory(join(dir, 'data', HISTORY_FILE));
});

afterEach(async () => {
  await core?.close();
  core = undefined;
  await removeFolder(dir);
});

const waiting = (localId: string): TaskRecord =>
  makeTaskRecord({
    localId,
    endpoint: service.origin,
    account: syncFingerprint(KEY),
    status: 'processing',
    finishedAt: null,
    folder: `2025/01/${localId}`,
  });

/** The task in the history and, in its folder, the sidecar `text` a newer Pictor left. */
async function stored(record: TaskRecord, text: string): Promise<string> {
  const store = HistoryStore.open(join(dir, 'data', HISTORY_FILE));
  try {
    store.put(record);
  } finally {
    store.close();
  }
  const folder = join(dir, 'gallery', record.folder!);
  await mkdir(folder, { recursive: true });
  const file = join(folder, 'pictor.json');
  await writeFile(file, text);
  return file;
}

async function completed(localIds: string[]): Promise<void> {
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
  const settled = await core.engine.whenSettled(localIds);
  expect(settled.map((record) => record.status)).toEqual(localIds.map(() => 'completed'));
  // Every write the engine asked of the sidecars has landed.
  await core.close();
  core = undefined;
}

describe("a newer Pictor's sidecars", () => {
  it('this format: its unknown fields kept beside the new record', async () => {
    const record = waiting('same-format');
    const older = JSON.parse(sidecarText(record)) as { record: object };
    const text = JSON.stringify({
      ...older,
      ...NEWER_FILE,
      record: { ...older.record, ...NEWER_RECORD },
    });
    const file = await stored(record, text);
    await completed(['same-format']);
    const written = JSON.parse(await readFile(file, 'utf8')) as { record: Record<string, unknown> };
    expect(written).toMatchObject({ ...NEWER_FILE, version: 1 });
    expect(written.record).toMatchObject({ ...NEWER_RECORD, status: 'completed' });
    const parsed = parseSidecar(await readFile(file, 'utf8'));
    expect(parsed.ok && parsed.record.images.map((image) => image.state)).toEqual(['saved']);
  });

  it('a newer format: left byte for byte, the task completed in the history', async () => {
    const record = waiting('newer-format');
    const text = JSON.stringify({ app: 'pictor', version: 2, task: { anything: true } });
    const file = await stored(record, text);
    await completed(['newer-format']);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('not Pictor’s, or kept fields past the reader’s cap: written as this version writes it', () => {
    const text = sidecarText(waiting('plain'));
    for (const there of [null, '{', '[]', '{"app":"other","version":1}', '{"app":"pictor"}']) {
      expect(withKept(text, keptOfSidecar(there))).toBe(text);
    }
    const huge = JSON.stringify({
      app: 'pictor',
      version: 1,
      record: { futureBlob: 'x'.repeat(MAX_SIDECAR_BYTES) },
    });
    expect(withKept(text, keptOfSidecar(huge))).toBe(text);
  });
});
