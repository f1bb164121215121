/**
 * The `costs:` channels through the real request path (the contract's schemas, Result wrapping)
 * over a real CostBook on a real history file: the ledger's totals and its entries a page at a
 * time (never every entry read for the screen), the CSV written a page at a time and only where
 * main's own dialog says, prices and caps changed only by their explicit requests, the compose
 * preview, and hostile inputs refused before the ledger hears of them. A CSV file that cannot be
 * written where the dialog said (over the app's real wiring, on real temporary folders, and with a
 * disk that fills or refuses injected on the file written beside it) is answered with the
 * sentence naming the file and why, never "something went wrong", and the file that was there is
 * left byte for byte.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CostBook } from '../../../electron/core/costs/cost-book';
import { costHandlers } from '../../../electron/ipc/cost-handlers';
import type { CapLoosening } from '../../../electron/ports/user-prompts';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { englishText, type Sentence } from '../../../shared/i18n/sentence';
import { MAX_LOCAL_ID_CHARS } from '../../../shared/domain/limits';
import { LEDGER_PAGE, MAX_LEDGER_ENTRIES } from '../../../shared/ipc/cost-contract';
import { historyStorePerTest, makeImage, makeRecord } from '../core/history/history-fixtures';
import { ipcCaller, okValue } from '../../support/ipc';
import { clearPartFaults, partFaults } from '../../support/part-file-faults';
import { startWiredApi } from '../../support/wired-api';
import { removeFolder, tempFolder } from '../../support/temp-folders';

vi.mock('node:fs/promises', async (original) =>
  (await import('../../support/part-file-faults')).withPartFaults(await original()),
);

const NOW = Date.parse('2026-11-25T12:00:00Z');
const DEMO = { provider: 'pictor', endpoint: 'demo:' } as const;
const USD = (micros: number) =>
  ({ source: 'reported', micros, unit: 'USD', field: 'usage.cost' }) as const;

const history = historyStorePerTest();

/**
 * The handlers over a real ledger. `chosen`: what the save dialog returns. `answer`: what main's
 * own question before a hard cap is raised or removed answers (none: nobody can be asked).
 */
function setup(chosen: string | null = join(history.dir, 'costs.csv'), answer?: boolean) {
  const costs = new CostBook({ history: history.store, now: () => NOW, timeZone: 'UTC' });
  const asked: string[] = [];
  const questions: CapLoosening[] = [];
  const written = new Map<string, string>();
  const chunks: number[] = [];
  const handlers = costHandlers({
    costs,
    ...(answer === undefined
      ? {}
      : {
          prompts: {
            confirmLooserCap: async (change: CapLoosening) => {
              questions.push(change);
              return answer;
            },
          },
        }),
    dialogs: {
      chooseLedgerFile: async () => {
        asked.push('ledger');
        return chosen;
      },
    },
    writeText: async (path, parts) => {
      const pieces = [...parts];
      chunks.push(pieces.length);
      const text = pieces.join('');
      written.set(path, text);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path, text, 'utf8');
    },
  });
  return {
    costs,
    asked,
    questions,
    written,
    chunks,
    call: ipcCaller(handlers as Partial<IpcHandlers>),
  };
}

describe('costs: channels', () => {
  it('answers the screen with a page and SQL totals, never reading every entry', async () => {
    history.store.put(makeRecord({ localId: 'a', createdAt: NOW - 1_000, cost: USD(40_000) }));
    const { call } = setup();
    const reads = vi.spyOn(history.store.costs, 'entries');
    const ledger = okValue(await call('costs:ledger', {}));
    expect(reads).not.toHaveBeenCalled();
    expect(ledger.version).toBe(history.store.costs.meta().version);
    expect(ledger.next).toBeNull();
    expect(ledger.entries.map((entry) => entry.localId)).toEqual(['a']);
    expect(ledger.totals.overall).toEqual([
      expect.objectContaining({ unit: 'USD', micros: 40_000 }),
    ]);
  });

  it('answer the ledger newest first with totals per unit, for a period and a service', async () => {
    history.store.put(makeRecord({ localId: 'a', createdAt: NOW - 86_400_000, cost: USD(40_000) }));
    history.store.put(makeRecord({ localId: 'b', createdAt: NOW - 1_000, cost: USD(10_000) }));
    history.store.put(
      makeRecord({
        localId: 'c',
        createdAt: NOW - 500,
        provider: 'bfl',
        cost: { source: 'reported', micros: 3_000_000, unit: 'credits', field: 'cost' },
      }),
    );
    const { call } = setup();
    const all = okValue(await call('costs:ledger', {}));
    expect(all.entries.map((entry) => entry.localId)).toEqual(['c', 'b', 'a']);
    expect(all.total).toBe(3);
    expect(all.totals.overall.map((sum) => [sum.unit, sum.micros])).toEqual([
      ['credits', 3_000_000],
      ['USD', 50_000],
    ]);
    expect(all.totals.byDay.map((sum) => [sum.day, sum.unit])).toEqual([
      ['2026-11-24', 'USD'],
      ['2026-11-25', 'credits'],
      ['2026-11-25', 'USD'],
    ]);
    const today = okValue(
      await call('costs:ledger', { since: NOW - 3_600_000, provider: 'pictor' }),
    );
    expect(today.entries.map((entry) => entry.localId)).toEqual(['b']);
  });

  it('carries a page of the newest entries and the pages after it, the totals counting every one', async () => {
    const count = MAX_LEDGER_ENTRIES + 3;
    history.store.putMany(
      Array.from({ length: count }, (_, i) =>
        makeRecord({
          localId: `t${String(i).padStart(3, '0')}`,
          createdAt: NOW - 10_000 + (i >> 1),
          cost: USD(1),
        }),
      ),
    );
    const { call } = setup();
    const ledger = okValue(await call('costs:ledger', {}));
    expect(ledger.entries).toHaveLength(LEDGER_PAGE);
    expect(ledger.entries[0]?.localId).toBe(`t${count - 1}`);
    expect(ledger.total).toBe(count);
    expect(ledger.totals.overall[0]?.micros).toBe(count);
    const seen = ledger.entries.map((entry) => entry.localId);
    let after = ledger.next;
    while (after !== null) {
      const page = okValue(await call('costs:entries', { after, limit: MAX_LEDGER_ENTRIES }));
      seen.push(...page.entries.map((entry) => entry.localId));
      after = page.next;
    }
    expect(seen).toEqual(
      Array.from({ length: count }, (_, i) => `t${String(count - 1 - i).padStart(3, '0')}`),
    );
    const wider = okValue(await call('costs:ledger', { limit: MAX_LEDGER_ENTRIES }));
    expect(wider.entries).toHaveLength(MAX_LEDGER_ENTRIES);
  });

  it('writes the CSV a page of tasks at a time, every task of the query', async () => {
    history.store.putMany(
      Array.from({ length: 2_100 }, (_, i) =>
        makeRecord({ localId: `c${i}`, createdAt: NOW - 100_000 + i, cost: USD(i), images: [] }),
      ),
    );
    const { call, chunks } = setup();
    const saved = okValue(await call('costs:exportCsv', { since: NOW - 100_000 + 50 }));
    const text = await readFile(saved.savedTo!, 'utf8');
    expect(text.split('\r\n')).toHaveLength(2_050 + 2);
    expect(chunks).toEqual([1 + 2]);
  });

  it('writes the CSV only to the file main’s dialog returned, and nothing when cancelled', async () => {
    history.store.put(makeRecord({ localId: 'a', createdAt: NOW - 1_000, cost: USD(40_000) }));
    const { call, asked } = setup();
    const saved = okValue(await call('costs:exportCsv', {}));
    expect(saved.savedTo).toBe(join(history.dir, 'costs.csv'));
    expect(asked).toEqual(['ledger']);
    const text = await readFile(join(history.dir, 'costs.csv'), 'utf8');
    expect(text).toContain('0.04');
    expect(text.split('\r\n')[1]).toContain('a');

    const cancelled = setup(null);
    expect(okValue(await cancelled.call('costs:exportCsv', {}))).toEqual({ savedTo: null });
    expect(cancelled.written.size).toBe(0);
  });

  it('sets and clears prices and caps only when asked, each cap with its period’s spending', async () => {
    history.store.put(makeRecord({ localId: 'a', createdAt: NOW - 1_000, cost: USD(40_000) }));
    const { call, questions } = setup(null, true);
    const price = { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 30_000 };
    expect(okValue(await call('costs:setPrice', price))).toEqual([price]);
    expect(okValue(await call('costs:prices'))).toEqual([price]);
    expect(okValue(await call('costs:clearPrice', { provider: 'fal' }))).toEqual([]);

    const cap = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 100_000 };
    const standing = {
      cap,
      spentMicros: 40_000,
      pricedTodayMicros: 0,
      pricedTodayTasks: 0,
      uncountedTasks: 0,
    };
    expect(okValue(await call('costs:setCap', cap))).toEqual([standing]);
    expect(okValue(await call('costs:caps'))).toEqual([standing]);
    const { micros: _m, ...key } = cap;
    expect(okValue(await call('costs:clearCap', key))).toEqual([]);
    expect(questions).toEqual([{ cap, to: null }]);
  });

  describe('a hard cap raised or removed', () => {
    const hard = {
      period: 'day',
      unit: 'USD',
      provider: null,
      kind: 'hard',
      micros: 100_000,
    } as const;
    const { micros: _m, ...hardKey } = hard;
    const raised = { ...hard, micros: 250_000 };

    it.each([
      ['raised', 'costs:setCap', raised, 250_000],
      ['removed', 'costs:clearCap', hardKey, null],
    ] as const)(
      'is %s only once the user agrees in main’s own dialog',
      async (_how, channel, input, to) => {
        for (const answer of [undefined, false] as const) {
          const { call, costs, questions } = setup(null, answer);
          costs.setCap(hard);
          const refused = await call(channel, input);
          expect(refused).toMatchObject({ ok: false, error: { code: 'failed' } });
          const { error } = refused as unknown as { error: { sentence?: Sentence } };
          expect(error.sentence && englishText(error.sentence)).toMatch(/not changed.*own dialog/);
          expect(costs.caps()).toEqual([hard]);
          expect(questions).toEqual(answer === undefined ? [] : [{ cap: hard, to }]);
        }
        const { call, costs, questions } = setup(null, true);
        expect(await call(channel, input)).toMatchObject({ ok: true });
        expect(questions).toEqual([{ cap: hard, to }]);
        expect(costs.caps()).toEqual(to === null ? [] : [raised]);
      },
    );

    it('is never asked about when a cap is set, lowered, or only a soft one changes', async () => {
      const { call, costs, questions } = setup(null);
      const soft = { ...hard, kind: 'soft', micros: 50_000 } as const;
      expect(await call('costs:setCap', hard)).toMatchObject({ ok: true });
      expect(await call('costs:setCap', { ...hard, micros: 80_000 })).toMatchObject({ ok: true });
      expect(await call('costs:setCap', soft)).toMatchObject({ ok: true });
      expect(await call('costs:setCap', { ...soft, micros: 900_000 })).toMatchObject({ ok: true });
      expect(await call('costs:clearCap', { ...hardKey, kind: 'soft' })).toMatchObject({
        ok: true,
      });
      // Another service's or another unit's hard cap is not this one.
      expect(await call('costs:setCap', { ...hard, provider: 'fal', micros: 1 })).toMatchObject({
        ok: true,
      });
      expect(await call('costs:setCap', { ...hard, unit: 'EUR', micros: 1 })).toMatchObject({
        ok: true,
      });
      expect(questions).toEqual([]);
      expect(costs.caps()).toContainEqual({ ...hard, micros: 80_000 });
    });
  });

  describe('a price a hard cap counts by', () => {
    const hard = { period: 'day', unit: 'USD', provider: 'fal', kind: 'hard', micros: 1 } as const;
    const price = (micros: number, model = '', basis: 'image' | 'megapixel' = 'image') =>
      ({ provider: 'fal', model, unit: 'USD', basis, micros }) as const;

    /** Each change that lowers what the cap counts, from the prices set before it. */
    const LOOSER = [
      ['lowered', [price(40_000)], 'costs:setPrice', price(10_000)],
      ['set to 0 for one model', [price(40_000)], 'costs:setPrice', price(0, 'fal-ai/flux/dev')],
      ['set where there was none', [], 'costs:setPrice', price(40_000)],
      ['moved to another basis', [price(40_000)], 'costs:setPrice', price(90_000, '', 'megapixel')],
      [
        'removed, so a lower every-model price applies',
        [price(10_000), price(40_000, 'fal-ai/flux-pro')],
        'costs:clearPrice',
        { provider: 'fal', model: 'fal-ai/flux-pro' },
      ],
    ] as const;

    it.each(LOOSER)(
      'is %s only once the user agrees in main’s own dialog',
      async (_how, before, channel, input) => {
        for (const answer of [undefined, false, true] as const) {
          const { call, costs, questions } = setup(null, answer);
          costs.clearCaps();
          for (const set of costs.prices()) costs.clearPrice(set.provider, set.model, set.unit);
          costs.setCap(hard);
          for (const set of before) costs.setPrice(set);
          const result = await call(channel, input);
          if (answer === true) {
            expect(result).toMatchObject({ ok: true });
            expect(costs.prices()).not.toEqual([...before]);
          } else {
            expect(result).toMatchObject({ ok: false, error: { code: 'failed' } });
            expect(costs.prices(), 'nothing changed').toEqual([...before]);
          }
          expect(questions).toHaveLength(answer === undefined ? 0 : 1);
          if (answer !== undefined) {
            expect(questions[0]).toMatchObject({ cap: hard, price: { provider: 'fal' } });
          }
        }
      },
    );

    it('is changed without a question when the cap counts no less, or covers another unit or service', async () => {
      const { call, costs, questions } = setup(null, false);
      costs.setCap(hard);
      costs.setPrice(price(10_000));
      expect(await call('costs:setPrice', price(40_000))).toMatchObject({ ok: true });
      expect(await call('costs:setPrice', price(50_000, 'fal-ai/flux-pro'))).toMatchObject({
        ok: true,
      });
      costs.setPrice(price(30_000, 'fal-ai/flux-pro'));
      // Removing a model's price that a higher every-model price replaces, or the every-model price
      // (its models become unpriced, which the cap refuses): stricter.
      expect(
        await call('costs:clearPrice', { provider: 'fal', model: 'fal-ai/flux-pro' }),
      ).toMatchObject({ ok: true });
      expect(await call('costs:clearPrice', { provider: 'fal', unit: 'USD' })).toMatchObject({
        ok: true,
      });
      expect(
        await call('costs:setPrice', { ...price(1), unit: 'credits' }),
        'a price in credits is not what a USD cap counts',
      ).toMatchObject({ ok: true });
      expect(
        await call('costs:setPrice', { ...price(1), provider: 'bfl' }),
        'the cap covers fal only',
      ).toMatchObject({ ok: true });
      expect(questions).toEqual([]);
    });
  });

  it('previews a submit: the estimate for the count, and each cap’s word as data (no sentence)', async () => {
    history.store.put(makeRecord({ localId: 'a', createdAt: NOW - 1_000, cost: USD(40_000) }));
    const { call, costs } = setup();
    costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 20_000 });
    const soft = {
      period: 'day',
      unit: 'USD',
      provider: null,
      kind: 'soft',
      micros: 50_000,
    } as const;
    costs.setCap(soft);
    const target = { provider: 'pictor', endpoint: 'https://images.example.test' } as const;
    const request = { target, request: { prompt: 'a harbour' }, count: 2 };
    const warned = okValue(await call('costs:preview', request));
    expect(warned.perTask).toEqual({
      source: 'estimated',
      micros: 20_000,
      unit: 'USD',
      basis: 'image',
    });
    expect(warned.count).toBe(2);
    const over = {
      verdict: 'over',
      spentMicros: 40_000,
      addingMicros: 40_000,
      tasks: 0,
      missing: [],
    };
    expect(warned.caps).toEqual([{ cap: soft, service: 'pictor', model: '', ...over }]);
    expect(warned).not.toHaveProperty('refusal');
    const hard = { ...soft, kind: 'hard', micros: 60_000 } as const;
    costs.setCap(hard);
    const blocked = okValue(await call('costs:preview', request));
    // Hard caps first: the window says the submit is blocked before it says it is warned.
    expect(blocked.caps.map((said) => said.cap)).toEqual([hard, soft]);
    // A preview changes nothing.
    expect(costs.entries()).toHaveLength(1);
  });

  it('answers the Costs screen each cap’s spending, the figure Settings and the refusals use', async () => {
    const { call, costs } = setup();
    // Two tasks sent before fal had a price: the cap counts them at today's price.
    for (const id of ['f1', 'f2'])
      history.store.put(
        makeRecord({
          localId: id,
          provider: 'fal',
          createdAt: NOW - 1_000,
          cost: { source: 'unknown' },
        }),
      );
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 30_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 50_000 });
    const ledger = okValue(await call('costs:ledger', {}));
    expect(ledger.caps).toEqual(okValue(await call('costs:caps')));
    expect(ledger.caps).toMatchObject([
      { spentMicros: 60_000, pricedTodayMicros: 60_000, pricedTodayTasks: 2, uncountedTasks: 0 },
    ]);
  });

  it('previews what a hard cap cannot count: a service with no price in its unit', async () => {
    const { call, costs } = setup();
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 20_000 });
    const cap = {
      period: 'month',
      unit: 'credits',
      provider: null,
      kind: 'hard',
      micros: 5,
    } as const;
    costs.setCap(cap);
    const request = {
      target: { provider: 'fal', endpoint: 'https://queue.fal.run' },
      request: { prompt: 'a harbour', model: 'fal-ai/flux/dev' },
      count: 1,
    };
    const preview = okValue(await call('costs:preview', request));
    expect(preview.caps).toEqual([
      {
        cap,
        verdict: 'unpriced',
        spentMicros: 0,
        addingMicros: 0,
        service: 'fal',
        model: 'fal-ai/flux/dev',
        tasks: 0,
        missing: [{ service: 'fal', model: 'fal-ai/flux/dev', tasks: 1, of: 'submit' }],
      },
    ]);
  });

  it('lists each task with its prompt, whether the history lists it and its thumbnail, and the whole ledger’s size', async () => {
    history.store.put(
      makeRecord({
        localId: 'a',
        createdAt: NOW - 9_000,
        cost: USD(1),
        request: { prompt: 'a kite' },
        images: [
          makeImage(0, { state: 'expired', thumbnail: '.thumbs/gone.webp' }),
          makeImage(1, { thumbnail: '.thumbs/a.webp' }),
        ],
      }),
    );
    history.store.put(
      makeRecord({
        localId: 'b',
        createdAt: NOW - 1_000,
        cost: USD(2),
        request: { prompt: 'a boat' },
      }),
    );
    const costs = new CostBook({ history: history.store, now: () => NOW, timeZone: 'UTC' });
    const call = ipcCaller(
      costHandlers({ costs, writeText: async () => {} }) as Partial<IpcHandlers>,
    );
    history.store.delete('b');
    const ledger = okValue(await call('costs:ledger', { since: NOW - 5_000 }));
    expect(ledger.entries).toEqual([
      expect.objectContaining({
        localId: 'b',
        prompt: 'a boat',
        inHistory: false,
        thumbnail: null,
      }),
    ]);
    expect(ledger.allTime).toBe(2);
    const all = okValue(await call('costs:ledger', {}));
    expect(all.entries.map((entry) => [entry.prompt, entry.thumbnail])).toEqual([
      ['a boat', null],
      ['a kite', '.thumbs/a.webp'],
    ]);
  });

  it.each([
    ['costs:ledger', { since: -1 }],
    ['costs:ledger', { since: 'yesterday' }],
    ['costs:ledger', { provider: 'evil' }],
    ['costs:ledger', { path: '/etc/passwd' }],
    ['costs:ledger', { limit: MAX_LEDGER_ENTRIES + 1 }],
    ['costs:ledger', { limit: 0 }],
    ['costs:entries', { limit: 10 }],
    ['costs:entries', { after: { listedAt: -1, localId: 'a' }, limit: 10 }],
    [
      'costs:entries',
      { after: { listedAt: NOW, localId: 'a'.repeat(MAX_LOCAL_ID_CHARS + 1) }, limit: 10 },
    ],
    ['costs:entries', { after: { listedAt: NOW, localId: 'a', sql: '1' }, limit: 10 }],
    ['costs:entries', { after: { listedAt: NOW, localId: 'a' }, limit: 1e6 }],
    ['costs:exportCsv', { path: '/tmp/evil.csv' }],
    ['costs:exportCsv', '/tmp/evil.csv'],
    ['costs:setPrice', { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: -1 }],
    ['costs:setPrice', { provider: 'fal', model: '', unit: 'DOGE', basis: 'image', micros: 1 }],
    [
      'costs:setPrice',
      { provider: 'fal', model: 'x'.repeat(10_000), unit: 'USD', basis: 'image', micros: 1 },
    ],
    ['costs:setPrice', { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 1.5 }],
    ['costs:setCap', { period: 'year', unit: 'USD', provider: null, kind: 'hard', micros: 1 }],
    [
      'costs:setCap',
      { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: Infinity },
    ],
    ['costs:setCap', { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1e30 }],
    ['costs:setCap', { period: 'day', unit: 'USD', kind: 'hard', micros: 1 }],
    [
      'costs:setCap',
      { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1, raise: true },
    ],
    ['costs:clearCap', {}],
    ['costs:clearPrice', { provider: '__proto__' }],
    ['costs:caps', { all: true }],
    ['costs:preview', { target: DEMO, request: { prompt: '' }, count: 1 }],
    ['costs:preview', { target: DEMO, request: { prompt: 'a' }, count: 1_000 }],
    ['costs:preview', { request: { prompt: 'a' }, count: 1 }],
    ['costs:preview', { provider: 'pictor', request: { prompt: 'a' }, count: 1 }],
  ] as const)('%s refuses %j before the ledger hears of it', async (channel, raw) => {
    const { call, costs, asked } = setup();
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 5 });
    const result = await call(channel, raw);
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(asked).toEqual([]);
    expect(costs.prices()).toEqual([]);
    expect(costs.caps()).toHaveLength(1);
  });
});

describe('costs:exportCsv to a file that cannot be written (the app’s wiring)', () => {
  let main: Awaited<ReturnType<typeof startWiredApi>>;
  let out: string;
  beforeEach(async () => {
    main = await startWiredApi();
    out = await tempFolder('csv');
  });
  afterEach(async () => {
    clearPartFaults();
    await main.close();
    await removeFolder(out);
  });

  /** The answer to an export whose save dialog returned `file`: its refusal. */
  async function refused(file: string) {
    main.env.PICTOR_E2E_SAVE_CSV = file;
    const answer = await main.api.invoke('costs:exportCsv', {});
    if (answer.ok) throw new Error('written');
    expect(answer.error.sentence?.key).toBe('error.library.fileNotSaved');
    expect(answer.error.code).toBe('failed');
    return answer.error;
  }

  it.each([
    ['a folder that does not exist', ['gone', 'costs.csv'], 'noFolder', 'ENOENT'],
    ['a file where the folder should be', ['notes.txt', 'costs.csv'], 'notFolder', 'ENOTDIR'],
    ['a name too long', [`${'a'.repeat(252)}.csv`], 'nameTooLong', 'ENAMETOOLONG'],
  ])('%s: which file and why, nothing made', async (_name, parts, problem, code) => {
    await writeFile(join(out, 'notes.txt'), 'mine');
    const file = join(out, ...parts);
    const error = await refused(file);
    expect(error.sentence?.params).toEqual({ file, problem, code });
    expect(error.message).toContain(`Pictor could not save the file ${file} because`);
    expect(await readdir(out)).toEqual(['notes.txt']);
    expect(await readFile(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it.each([
    ['a disk that fills mid-write', { write: { code: 'ENOSPC', after: 12 } }, 'full'],
    ['a write not allowed (as root chmod binds nothing)', { create: 'EACCES' }, 'denied'],
    ['a quota reached at the sync', { sync: 'EDQUOT' }, 'quota'],
  ])('%s: why, and the CSV that was there byte for byte', async (_name, injected, problem) => {
    const file = join(out, 'costs.csv');
    const before = 'the CSV of last month\r\n';
    await writeFile(file, before);
    Object.assign(partFaults, injected);
    const error = await refused(file);
    expect(error.sentence?.params).toMatchObject({ file, problem });
    expect(error.message).toContain('Nothing was changed there;');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(out)).toEqual(['costs.csv']);
  });
});
