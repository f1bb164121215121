/**
 * The prompt history's channels over the app's real wiring (main's handlers, core and SQLite
 * history): a submit from the page is noted, the search and its limit, pins and their cap as a
 * sentence, Forget and Clear, and a page that sends more than the contract allows (a long or
 * non-string query, a huge prompt, extra fields, ten thousand pins) is refused or bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestChannel, RequestInput, Result } from '../../../shared/ipc/contract';
import {
  MAX_PROMPT_ENTRIES,
  MAX_PROMPT_QUERY,
  type PromptEntryOutput,
} from '../../../shared/ipc/prompt-contract';
import { REQUEST_LIMITS } from '../../../shared/domain/limits';
import { PROMPT_PINS_MAX } from '../../../electron/core/history/prompt-history-schema';
import { startWiredApi, type WiredApi } from '../../support/wired-api';

const opened: WiredApi[] = [];
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
});

async function wired() {
  const main = await startWiredApi();
  opened.push(main);
  const invoke = (channel: RequestChannel, input: unknown) =>
    main.api.invoke(channel, input as never) as Promise<Result<unknown>>;
  const ok = async <C extends RequestChannel>(channel: C, input: RequestInput<C>) => {
    const result = await invoke(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as never;
  };
  const history = async (query = '', limit = MAX_PROMPT_ENTRIES): Promise<string[]> => {
    const { entries }: { entries: PromptEntryOutput[] } = await ok('prompts:history', {
      query,
      limit,
    });
    return entries.map((entry) => entry.prompt);
  };
  const note = (prompts: readonly string[]) =>
    prompts.forEach((prompt, n) => main.runtime.core.history.prompts.note([prompt], 1_000 + n));
  return { main, invoke, ok, history, note };
}

describe('the prompt history over IPC', () => {
  it('searches pinned first, then newest, any case, with % and _ as text', async () => {
    const { ok, history, note } = await wired();
    note(['50% off', 'snake_case', 'Plain PROMPT', 'plain again']);
    expect(await history()).toEqual(['plain again', 'Plain PROMPT', 'snake_case', '50% off']);
    expect(await history('PLAIN')).toEqual(['plain again', 'Plain PROMPT']);
    expect(await history('%')).toEqual(['50% off']);
    expect(await history('_')).toEqual(['snake_case']);
    expect(await history('', 1)).toEqual(['plain again']);
    expect(await ok('prompts:pin', { prompt: '50% off', pinned: true })).toEqual({ changed: true });
    expect(await history()).toEqual(['50% off', 'plain again', 'Plain PROMPT', 'snake_case']);
    expect(await ok('prompts:forget', { prompt: 'Plain PROMPT' })).toEqual({ changed: true });
    expect(await ok('prompts:forget', { prompt: 'Plain PROMPT' })).toEqual({ changed: false });
    expect(await ok('prompts:clear', undefined)).toEqual({ removed: 2 });
    expect(await history()).toEqual(['50% off']);
  });

  it('notes a prompt the page submits', async () => {
    const { main, history } = await wired();
    await main.generate(['sent from the page', 'and another']);
    expect(await history()).toEqual(['and another', 'sent from the page']);
  });

  it('refuses inputs outside the contract before core sees them', async () => {
    const { invoke, note, history } = await wired();
    note(['kept']);
    const refused = [
      ['prompts:history', { query: 'x'.repeat(MAX_PROMPT_QUERY + 1), limit: 10 }],
      ['prompts:history', { query: 42, limit: 10 }],
      ['prompts:history', { query: ['kept'], limit: 10 }],
      ['prompts:history', { query: '', limit: MAX_PROMPT_ENTRIES + 1 }],
      ['prompts:history', { query: '', limit: 0 }],
      ['prompts:history', { query: '', limit: 1.5 }],
      ['prompts:history', { query: '', limit: 10, sql: 'DROP TABLE prompt_history' }],
      ['prompts:history', undefined],
      ['prompts:pin', { prompt: 'kept', pinned: 'yes' }],
      ['prompts:pin', { prompt: 'x'.repeat(REQUEST_LIMITS.prompt + 1), pinned: true }],
      ['prompts:pin', { prompt: '', pinned: true }],
      ['prompts:forget', { prompt: { toString: 'kept' } }],
      ['prompts:forget', { prompt: 'kept', all: true }],
      ['prompts:clear', { pinned: true }],
    ] as const;
    for (const [channel, input] of refused) {
      const result = await invoke(channel, input);
      expect(result, JSON.stringify(input)?.slice(0, 80)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(await history()).toEqual(['kept']);
  });

  it(`keeps ${PROMPT_PINS_MAX} pins of ten thousand asked, the rest refused or not found`, async () => {
    const { invoke, note, history } = await wired();
    const known = Array.from({ length: 150 }, (_, n) => `known ${n}`);
    note(known);
    const outcomes = { changed: 0, unchanged: 0, refused: 0 };
    for (let n = 0; n < 10_000; n += 1) {
      const prompt = n < known.length ? known[n]! : `never sent ${n}`;
      const result = await invoke('prompts:pin', { prompt, pinned: true });
      if (!result.ok) {
        expect(result.error.sentence?.key).toBe('error.prompts.tooManyPins');
        outcomes.refused += 1;
      } else if ((result.value as { changed: boolean }).changed) outcomes.changed += 1;
      else outcomes.unchanged += 1;
    }
    expect(outcomes).toEqual({ changed: PROMPT_PINS_MAX, refused: 50, unchanged: 9_850 });
    const all = await history();
    expect(all).toHaveLength(150);
    expect(all.slice(0, PROMPT_PINS_MAX).every((p) => known.indexOf(p) < PROMPT_PINS_MAX)).toBe(
      true,
    );
  });
});
