/**
 * The prompt history (core/history/prompt-history.ts) on a real SQLite file: v11's back-fill of a
 * v10 library, one row per exact text, the newest 500 unpinned kept, pins kept beyond and capped,
 * a search that takes its query as text, and rows that outlive the tasks they came from.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { HistoryError } from '../../../../electron/core/history/history-error';
import {
  PROMPT_HISTORY_KEEP,
  PROMPT_PINS_MAX,
} from '../../../../electron/core/history/prompt-history-schema';
import { makeTask } from '../../../support/task-records';
import { historyFilePerTest } from './history-fixtures';

const history = historyFilePerTest();
let store: HistoryStore | undefined;

afterEach(() => {
  store?.close();
  store = undefined;
});

function open(): HistoryStore {
  store = HistoryStore.open(history.file);
  return store;
}

const prompts = (s: HistoryStore, query = '', limit = 1_000) =>
  s.prompts.list(query, limit).map((entry) => entry.prompt);

describe('history v11: the prompt history', () => {
  it('back-fills a v10 library with its newest 500 distinct typed prompts', () => {
    const file = history.file;
    const old = HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, 10) });
    const tasks = Array.from({ length: 520 }, (_, n) =>
      makeTask({ localId: `t${n}`, prompt: `prompt ${n}`, createdAt: 1_000_000 + n * 1_000 }),
    );
    // The same text three times counts three uses, at its newest time; a tracked task's
    // placeholder is no prompt anyone typed.
    tasks.push(makeTask({ localId: 'again-1', prompt: 'prompt 519', createdAt: 10 }));
    tasks.push(makeTask({ localId: 'again-2', prompt: 'prompt 519', createdAt: 20 }));
    tasks.push(
      makeTask({ localId: 'tracked', prompt: 'Task x (created outside Pictor)', createdAt: 9e9 }),
    );
    tasks[tasks.length - 1] = { ...tasks[tasks.length - 1]!, origin: 'tracked' };
    old.putMany(tasks);
    expect(old.prompts.list('', 10)).toEqual([]);
    old.close();
    // A damaged record does not stop the upgrade; its prompt column is still a prompt.
    const raw = new DatabaseSync(file);
    raw.exec("UPDATE tasks SET record = '{not json' WHERE local_id = 't100'");
    raw.close();

    const s = open();
    expect(s.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    const all = s.prompts.list('', 1_000);
    expect(all).toHaveLength(PROMPT_HISTORY_KEEP);
    expect(all[0]).toEqual({
      prompt: 'prompt 519',
      lastUsedAt: 1_000_000 + 519 * 1_000,
      uses: 3,
      pinned: false,
    });
    expect(all.at(-1)?.prompt).toBe('prompt 20');
    expect(all.some((entry) => entry.prompt.startsWith('Task x'))).toBe(false);
  });

  it('keeps one row per exact text: case, spaces and accents make another prompt', () => {
    const s = open();
    const texts = ['A cat', 'a cat', 'A  cat', 'A cat ', 'Café', 'Cafe\u0301', 'A cat'];
    texts.forEach((text, n) => s.prompts.note([text], 100 + n));
    const all = s.prompts.list('', 100);
    expect(all.map((e) => e.prompt)).toEqual([
      'A cat',
      'Cafe\u0301',
      'Café',
      'A cat ',
      'A  cat',
      'a cat',
    ]);
    expect(all[0]).toMatchObject({ uses: 2, lastUsedAt: 106 });
    expect(all.slice(1).every((e) => e.uses === 1)).toBe(true);
    s.prompts.note(['   '], 500);
    expect(prompts(s)).toHaveLength(6);
  });

  it('keeps the newest 500 unpinned, and pins beyond them', () => {
    const s = open();
    s.prompts.note(['old and pinned'], 1);
    expect(s.prompts.pin('old and pinned', true)).toBe(true);
    for (let n = 0; n < PROMPT_HISTORY_KEEP + 40; n += 1) s.prompts.note([`p${n}`], 10 + n);
    const all = s.prompts.list('', 1_000);
    expect(all).toHaveLength(PROMPT_HISTORY_KEEP + 1);
    expect(all[0]).toMatchObject({ prompt: 'old and pinned', pinned: true });
    expect(all[1]!.prompt).toBe(`p${PROMPT_HISTORY_KEEP + 39}`);
    expect(all.at(-1)!.prompt).toBe('p40');
    // Used again, an old prompt is the newest; unpinned, the oldest past the limit goes.
    s.prompts.note(['p40'], 10_000);
    expect(prompts(s)[1]).toBe('p40');
    expect(s.prompts.pin('old and pinned', false)).toBe(true);
    expect(prompts(s)).not.toContain('old and pinned');
    expect(prompts(s)).toHaveLength(PROMPT_HISTORY_KEEP);
  });

  it(`refuses a pin past ${PROMPT_PINS_MAX} with a sentence, and changes nothing`, () => {
    const s = open();
    for (let n = 0; n <= PROMPT_PINS_MAX; n += 1) s.prompts.note([`p${n}`], n);
    for (let n = 0; n < PROMPT_PINS_MAX; n += 1) expect(s.prompts.pin(`p${n}`, true)).toBe(true);
    const error = (() => {
      try {
        s.prompts.pin(`p${PROMPT_PINS_MAX}`, true);
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(HistoryError);
    expect((error as HistoryError).code).toBe('bad_input');
    expect((error as HistoryError).message).toContain(String(PROMPT_PINS_MAX));
    expect(s.prompts.list('', 1_000).filter((e) => e.pinned)).toHaveLength(PROMPT_PINS_MAX);
    // Pinning one already pinned is no new pin; a prompt not in the history is not pinned.
    expect(s.prompts.pin('p0', true)).toBe(false);
    expect(s.prompts.pin('never sent', false)).toBe(false);
    expect(s.prompts.pin('p0', false)).toBe(true);
    expect(s.prompts.pin(`p${PROMPT_PINS_MAX}`, true)).toBe(true);
  });

  it('searches any case, anywhere, and takes %, _, quotes and backslashes as text', () => {
    const s = open();
    const texts = [
      '100% cotton',
      '100 cotton',
      'snake_case',
      'snakeXcase',
      `it's "quoted"`,
      'back\\slash',
      'ÉCOLE du soir',
      'Straße',
      '\u202Eevil\u202C',
    ];
    texts.forEach((text, n) => s.prompts.note([text], n));
    expect(prompts(s, '0%')).toEqual(['100% cotton']);
    expect(prompts(s, 'e_c')).toEqual(['snake_case']);
    expect(prompts(s, `'s "q`)).toEqual([`it's "quoted"`]);
    expect(prompts(s, '\\')).toEqual(['back\\slash']);
    expect(prompts(s, 'école')).toEqual(['ÉCOLE du soir']);
    expect(prompts(s, 'STRASSE')).toEqual([]);
    expect(prompts(s, 'straße')).toEqual(['Straße']);
    expect(prompts(s, '\u202E')).toEqual(['\u202Eevil\u202C']);
    expect(prompts(s, '  ')).toHaveLength(texts.length);
    expect(prompts(s, 'cotton', 1)).toEqual(['100 cotton']);
  });

  it('forgets one prompt, pinned or not; Clear keeps the pins', () => {
    const s = open();
    ['a', 'b', 'c', 'd'].forEach((text, n) => s.prompts.note([text], n));
    s.prompts.pin('a', true);
    s.prompts.pin('b', true);
    expect(s.prompts.forget('b')).toBe(true);
    expect(s.prompts.forget('b')).toBe(false);
    expect(s.prompts.clear()).toBe(2);
    expect(prompts(s)).toEqual(['a']);
  });

  it('outlives the tasks it came from, and a rebuild adds the prompts of the tasks it finds', () => {
    const s = open();
    const task = makeTask({ localId: 'gone', prompt: 'kept after delete', createdAt: 5 });
    s.putMany([task]);
    s.prompts.note(['kept after delete'], 5);
    expect(s.delete('gone')).toBe(true);
    expect(prompts(s)).toEqual(['kept after delete']);

    // A rebuild (or an import) writes what it found through putManyCounted.
    const found = [
      makeTask({ localId: 'r1', prompt: 'rebuilt one', createdAt: 50 }),
      makeTask({ localId: 'r2', prompt: 'rebuilt one', createdAt: 60 }),
      {
        ...makeTask({ localId: 'r3', prompt: 'placeholder', createdAt: 70 }),
        origin: 'tracked' as const,
      },
    ];
    s.putManyCounted(found);
    expect(s.prompts.list('', 10)).toEqual([
      { prompt: 'rebuilt one', lastUsedAt: 60, uses: 2, pinned: false },
      { prompt: 'kept after delete', lastUsedAt: 5, uses: 1, pinned: false },
    ]);
  });

  it('takes a found task’s time no later than now: a crafted archive’s future prompts never push out the next one sent', () => {
    const s = open();
    // 500 prompts an archive or a gallery folder dates in 2199.
    const future = Date.UTC(2199, 0, 1);
    const crafted = Array.from({ length: PROMPT_HISTORY_KEEP }, (_, n) =>
      makeTask({ localId: `f${n}`, prompt: `from the future ${n}`, createdAt: future + n }),
    );
    s.putManyCounted(crafted);
    const stored = s.prompts.list('from the future 0', 1)[0];
    expect(stored?.lastUsedAt).toBeLessThanOrEqual(Date.now());
    // The user sends a prompt a moment later: it is kept, and listed first.
    s.prompts.note(['a heron at dawn'], Date.now() + 1_000);
    expect(prompts(s)[0]).toBe('a heron at dawn');
    expect(prompts(s)).toHaveLength(PROMPT_HISTORY_KEEP);
  });

  it('keeps nothing on a file of an older schema', () => {
    const file = join(history.dir, 'old.sqlite');
    store = HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, 10) });
    store.prompts.note(['x'], 1);
    expect(store.prompts.list('', 10)).toEqual([]);
    expect(store.prompts.pin('x', true)).toBe(false);
  });
});
