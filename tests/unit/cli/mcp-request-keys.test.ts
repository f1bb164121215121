/**
 * The requestKeys of a submitting MCP tool (mcp-request-keys.ts): a repeat of a call still on its
 * way waits for it and submits nothing, a repeat of one that sent nothing submits itself, and a
 * connection that gives a new key with every call keeps only the latest KEYS_REMEMBERED. Submits
 * here end when the test lets them, so what was submitted at each step is exact.
 */
import { describe, expect, it } from 'vitest';
import type { Spent } from '../../../electron/cli/mcp/mcp-spend';
import { KEYS_REMEMBERED, RequestKeys } from '../../../electron/cli/mcp/mcp-request-keys';
import { UNTIL } from '../../support/waits';

/** A submit the test ends with `end(outcome)`; `made` counts the submits started. */
function heldSubmits() {
  const ends: Array<(outcome: Spent<string>) => void> = [];
  return {
    submit: () => new Promise<Spent<string>>((end) => ends.push(end)),
    made: () => ends.length,
    end: (at: number, outcome: Spent<string>) => ends[at]?.(outcome),
  };
}

describe('RequestKeys', () => {
  it('a repeat of a submit on its way waits for it and submits nothing', async () => {
    const keys = new RequestKeys<string>();
    const held = heldSubmits();
    const first = keys.once({ requestKey: 'k', wait: false }, held.submit);
    // How the answer waits is not what is sent: the same submit.
    const again = keys.once({ requestKey: 'k', wait: true, waitSeconds: 9 }, held.submit);
    held.end(0, { ok: true, value: 'task-1' });
    expect(await first).toEqual({ ok: true, value: 'task-1', repeated: false });
    expect(await again).toEqual({ ok: true, value: 'task-1', repeated: true });
    expect(held.made()).toBe(1);
  });

  it('a repeat of a submit that sent nothing submits itself', async () => {
    const keys = new RequestKeys<string>();
    const held = heldSubmits();
    const cancelled = keys.once({ requestKey: 'k' }, held.submit);
    const retry = keys.once({ requestKey: 'k' }, held.submit);
    held.end(0, { ok: false, reason: 'The call was cancelled, so nothing was sent.' });
    expect(await cancelled).toMatchObject({ ok: false, repeated: false });
    await expect.poll(() => held.made(), UNTIL).toBe(2);
    held.end(1, { ok: true, value: 'task-2' });
    expect(await retry).toEqual({ ok: true, value: 'task-2', repeated: false });
  });

  it(`keeps the latest ${String(KEYS_REMEMBERED)} keys`, async () => {
    const keys = new RequestKeys<string>();
    let made = 0;
    const submit = () =>
      Promise.resolve<Spent<string>>({ ok: true, value: `task-${String(++made)}` });
    for (let key = 0; key <= KEYS_REMEMBERED; key += 1) {
      await keys.once({ requestKey: `k${String(key)}` }, submit);
    }
    expect(await keys.once({ requestKey: 'k1' }, submit)).toMatchObject({ repeated: true });
    // The oldest was forgotten: its key submits again.
    expect(await keys.once({ requestKey: 'k0' }, submit)).toMatchObject({ repeated: false });
    expect(made).toBe(KEYS_REMEMBERED + 2);
  });
});
