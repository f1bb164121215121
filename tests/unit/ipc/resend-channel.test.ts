/**
 * `tasks:resend`, the one way the window sends tasks again, as main reads it: the contract's schema
 * refuses a malformed or oversized payload (the renderer may be compromised) before the handler
 * runs, and a well-formed one reaches it as parsed. The old channels (`tasks:submitAgain`,
 * `tasks:rerunBatch`, `tasks:submitAgainMany`) are gone from the contract and the preload's list.
 */
import { describe, expect, it, vi } from 'vitest';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { ipcCaller } from '../../support/ipc';
import { MAX_IDS_PER_BATCH, MAX_LOCAL_ID_CHARS } from '../../../shared/domain/limits';
import { REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { requests } from '../../../shared/ipc/contract';

function bridge() {
  const resend = vi.fn(() => ({ items: [], skipped: 0 }));
  const call = ipcCaller({ 'tasks:resend': resend } as unknown as Partial<IpcHandlers>);
  const run = (raw: unknown) => call('tasks:resend', raw);
  return { resend, run };
}

const ids = (count: number) => Array.from({ length: count }, (_, n) => `task-${n}`);

describe('tasks:resend', () => {
  it.each([
    ['no payload', undefined],
    ['ids as a string', { localIds: 'a,b', as: 'each' }],
    ['numbers for ids', { localIds: [1, 2], as: 'each' }],
    ['no id', { localIds: [], as: 'each' }],
    ['an empty id', { localIds: [''], as: 'batch' }],
    ['an id too long', { localIds: ['x'.repeat(MAX_LOCAL_ID_CHARS + 1)], as: 'each' }],
    ['too many ids', { localIds: ids(MAX_IDS_PER_BATCH + 1), as: 'each' }],
    ['a million ids', { localIds: ids(1_000_000), as: 'batch' }],
    ['no mode', { localIds: ['a'] }],
    ['another mode', { localIds: ['a'], as: 'all' }],
    ['a count (the old Submit again’s)', { localIds: ['a'], as: 'each', count: 3 }],
    ['a consent from the page', { localIds: ['a'], as: 'batch', overHardCaps: { caps: [] } }],
    ['a target from the page', { localIds: ['a'], as: 'each', target: { provider: 'fal' } }],
    ['onlyFailed not a boolean', { localIds: ['a'], as: 'each', onlyFailed: 'yes' }],
  ])('refuses %s before main reads anything', async (_what, raw) => {
    const { resend, run } = bridge();
    expect(await run(raw)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(resend).not.toHaveBeenCalled();
  });

  it('hands a well-formed payload to the handler as parsed', async () => {
    const { resend, run } = bridge();
    const raw = { localIds: ids(MAX_IDS_PER_BATCH), as: 'each', onlyFailed: true };
    expect(await run(raw)).toEqual({ ok: true, value: { items: [], skipped: 0 } });
    expect(resend).toHaveBeenCalledOnce();
    expect((resend.mock.calls[0] as unknown[])[0]).toEqual(raw);
  });

  it('is the only channel that sends tasks again', () => {
    for (const old of ['tasks:submitAgain', 'tasks:rerunBatch', 'tasks:submitAgainMany']) {
      expect(REQUEST_CHANNEL_NAMES).not.toContain(old);
      expect(Object.keys(requests)).not.toContain(old);
    }
    expect(REQUEST_CHANNEL_NAMES).toContain('tasks:resend');
  });
});
