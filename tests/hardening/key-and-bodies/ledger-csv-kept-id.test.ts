/**
 * The Costs screen's "Export CSV" of a ledger holding tasks kept under an id that carries the key
 * (stored before ids were checked), before the app's sweep has cleaned their rows: the file is
 * plain text the user keeps, so the CSV writer scrubs each such task's row (electron/core/costs/
 * ledger-csv.ts) while a key is held. Every encoding the test's own encoders know, in the task's
 * id and in a tracked task's prompt made from it, over more than one page of the CSV, through the
 * `costs:` channel's real path to a real file. Positive control: the same export with no key held
 * carries the key, so the scanner sees what it looks for; and with a key held, a task whose id
 * carries none is written as it was. The core's cost book (pictor-core.ts) reads the keys its
 * credentials hold, as the app's export does.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CostBook } from '../../../electron/core/costs/cost-book';
import { replaceFileBeside } from '../../../electron/core/fs/chosen-file';
import { heldKeyScrubberOrNone } from '../../../electron/core/secrets';
import { costHandlers } from '../../../electron/ipc/cost-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { historyStorePerTest, makeRecord } from '../../unit/core/history/history-fixtures';
import { ManualClock } from '../../fakes/manual-clock';
import { offlineCore } from '../../support/offline-core';
import { ipcCaller, okValue } from '../../support/ipc';
import { ENCODING_NAMES, ENCODINGS, keyScanner } from './key-encodings';
import { TASK_ID_CONTROL } from '../../../shared/domain/limits';

const KEY = 'sk-ledger-csv-7c41e09b2d5a86f3';
const NOW = Date.parse('2026-11-25T12:00:00Z');
const USD = { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' } as const;
/** Tasks with clean ids between the kept ones, oldest and newest: the CSV's pages are 2,000 tasks. */
const CLEAN = 2_100;
/**
 * The encodings of the key a kept id may hold, with their place in the encoders' list: an id
 * holding a control or bidi character is refused by the record schema on write and skipped on
 * read (TASK_ID_CONTROL), so no such row reaches the ledger.
 */
const KEPT = ENCODING_NAMES.map((name, n) => ({ name, n })).filter(
  ({ name, n }) => !TASK_ID_CONTROL.test(ENCODINGS[name]!(KEY, n)),
);

const history = historyStorePerTest();

/** The library's tasks: each encoding's kept id twice (far apart in the CSV), and clean ones. */
function library() {
  const kept = KEPT.flatMap(({ name, n }) => {
    const taskId = `task-${ENCODINGS[name]!(KEY, n)}`;
    // A tracked task's prompt names the id it was tracked by.
    const prompt = `Tracked task ${taskId}`;
    return [0, 1].map((copy) =>
      makeRecord({
        localId: `kept-${name}-${copy}`,
        taskId,
        createdAt: NOW - (copy === 0 ? 500_000 : 10) - n,
        request: { prompt },
        cost: USD,
      }),
    );
  });
  const clean = Array.from({ length: CLEAN }, (_, n) =>
    makeRecord({ localId: `clean-${n}`, createdAt: NOW - 100_000 - n * 100, cost: USD }),
  );
  return [...kept, ...clean];
}

beforeEach(() => {
  history.store.putMany(library());
});

/** The CSV the export writes, with `held` the keys the process holds. */
async function exported(held: readonly string[], name: string): Promise<string> {
  const file = join(history.dir, name);
  const costs = new CostBook({
    history: history.store,
    now: () => NOW,
    timeZone: 'UTC',
    keyScrubber: () => heldKeyScrubberOrNone(async () => held),
  });
  const handlers = costHandlers({
    costs,
    dialogs: { chooseLedgerFile: async () => file },
    writeText: replaceFileBeside,
  });
  const call = ipcCaller(handlers as Partial<IpcHandlers>);
  expect(okValue(await call('costs:exportCsv', {}))).toEqual({ savedTo: file });
  return readFile(file, 'utf8');
}

const lineOf = (text: string, localId: string) =>
  text.split('\r\n').find((line) => line.includes(`,${localId},`));

describe('Export CSV of a ledger with tasks kept under a key-carrying id', () => {
  it('writes no form of the key while it is held, every row still there', async () => {
    const scanner = keyScanner(KEY);
    // The control: with no key held, every encoding is in the file.
    const open = await exported([], 'open.csv');
    for (const { name } of KEPT)
      expect(scanner.leaks(lineOf(open, `kept-${name}-0`) ?? ''), name).not.toEqual([]);

    const text = await exported([KEY], 'costs.csv');
    expect(scanner.leaks(text)).toEqual([]);
    expect(text.split('\r\n')).toHaveLength(KEPT.length * 2 + CLEAN + 2);
    for (const { name } of KEPT) {
      for (const copy of [0, 1]) {
        const line = lineOf(text, `kept-${name}-${copy}`);
        expect(line, name).toContain('[redacted]');
        expect(line, name).toContain('Tracked task');
        expect(line, name).toContain('0.04');
      }
    }
    // A task whose id carries no key is written as it was.
    for (const n of [0, 1_999, 2_000, CLEAN - 1])
      expect(lineOf(text, `clean-${n}`)).toBe(lineOf(open, `clean-${n}`));
  });

  it('writes every row as it is while no key is held', async () => {
    const open = await exported([], 'open.csv');
    const other = await exported(['sk-another-key-entirely-0f9e8d7c'], 'other.csv');
    expect(other).toBe(open);
  });

  it('is scrubbed by the core’s cost book of the keys its credentials hold', async () => {
    history.store.close();
    const core = await offlineCore({ dir: history.dir, key: KEY, clock: new ManualClock(NOW) });
    try {
      core.history.putMany(library());
      const text = [...(await core.costs.csvChunks({}))].join('');
      expect(text.split('\r\n')).toHaveLength(KEPT.length * 2 + CLEAN + 2);
      expect(keyScanner(KEY).leaks(text)).toEqual([]);
    } finally {
      await core.close();
      history.reopen();
    }
  });
});
