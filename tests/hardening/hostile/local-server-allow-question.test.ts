/**
 * A compromised page adding an address to Settings › Local servers: an ordinary setting until now,
 * so with a squatter on the key's loopback address the page could unlock sending the key there
 * (core/service/local-server-gate.ts lets an allowed address through whoever runs it). Now an
 * address joins the list only once the user agreed in main's own dialog
 * (app/local-server-question.ts); removing one asks nothing; a page looping the change gets one
 * dialog at a time and a quiet spell after each "Don't Allow" (app/key-question-gate.ts's rules).
 *
 * Through the real handlers of a real AppRuntime, with main's dialog stood in for (a question held
 * open until the test answers it) and a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_QUIET_MS } from '../../../electron/app/key-question-gate';
import { ManualClock } from '../../fakes/manual-clock';
import { wiredIpc } from '../../support/wired-ipc';
import { UNTIL } from '../../support/waits';
import { OWNERS_UNREAD } from '../../support/owners-unread';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Main's dialog: each question waits for the test's answer. */
function dialogStandIn() {
  const asked: (readonly string[])[] = [];
  const waiting: ((agreed: boolean) => void)[] = [];
  return {
    asked,
    get open() {
      return waiting.length;
    },
    answer(agreed: boolean) {
      waiting.shift()?.(agreed);
    },
    prompts: {
      confirmKeyOrigin: () => Promise.resolve('cancel' as const),
      confirmLocalServers: (addresses: readonly string[]) =>
        new Promise<boolean>((resolve) => {
          asked.push(addresses);
          waiting.push(resolve);
        }),
    },
  };
}

async function app(withDialog = true) {
  const clock = new ManualClock();
  const dialog = dialogStandIn();
  const { runtime, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-allow-question-',
    runtime: () => ({
      clock,
      localServers: OWNERS_UNREAD,
      ...(withDialog ? { prompts: dialog.prompts } : {}),
    }),
  });
  const allow = (...entries: string[]) =>
    request('settings:update', { allowedLocalServers: entries });
  const shown = async (count: number) => {
    await expect.poll(() => dialog.asked.length, UNTIL).toBe(count);
  };
  const allowed = () => runtime.settings.get().allowedLocalServers;
  return { clock, dialog, runtime, allow, shown, allowed };
}

const refusal = (key: string) => ({ ok: false, error: { code: 'bad_input', sentence: { key } } });

describe('an address added to Local servers by the page', () => {
  it('is kept only when the user agrees in main’s dialog, which names it as it is kept', async () => {
    const { dialog, allow, shown, allowed } = await app();
    const refused = allow('http://127.0.0.1:8188/');
    await shown(1);
    expect(dialog.asked[0]).toEqual(['127.0.0.1:8188']);
    dialog.answer(false);
    expect(await refused).toMatchObject(refusal('error.settings.localServerNotAllowed'));
    expect(allowed()).toEqual([]);
  });

  it('is kept once agreed; removing or keeping entries asks nothing', async () => {
    const { clock, dialog, allow, shown, allowed } = await app();
    const agreed = allow('[::1]:9000');
    await shown(1);
    dialog.answer(true);
    expect(await agreed).toMatchObject({ ok: true });
    expect(allowed()).toEqual(['[::1]:9000']);
    // The same list again, and an address taken away: no question.
    expect(await allow('[::1]:9000')).toMatchObject({ ok: true });
    expect(await allow()).toMatchObject({ ok: true });
    expect(allowed()).toEqual([]);
    expect(dialog.asked).toHaveLength(1);
    // Added again later: asked again (a removal is not a standing agreement).
    await clock.advance(1);
    const again = allow('[::1]:9000');
    await shown(2);
    dialog.answer(true);
    expect(await again).toMatchObject({ ok: true });
  });

  it('asks about every new address of a change, and only the new ones', async () => {
    const { dialog, allow, shown, allowed } = await app();
    const first = allow('127.0.0.1:8188');
    await shown(1);
    dialog.answer(true);
    await first;
    const more = allow('127.0.0.1:8188', 'localhost:3000', '[::1]:7860');
    await shown(2);
    expect(dialog.asked[1]).toEqual(['localhost:3000', '[::1]:7860']);
    dialog.answer(false);
    expect(await more).toMatchObject(refusal('error.settings.localServerNotAllowed'));
    expect(allowed()).toEqual(['127.0.0.1:8188']);
  });

  it('is never kept where nobody can be asked (no dialog)', async () => {
    const { allow, allowed } = await app(false);
    expect(await allow('127.0.0.1:8188')).toMatchObject(
      refusal('error.settings.localServerNotAllowed'),
    );
    expect(allowed()).toEqual([]);
  });
});

describe('the Local servers question, asked for in a loop by the page', () => {
  it('is on screen once at a time: a change asked for meanwhile is refused, not queued', async () => {
    const { dialog, allow, shown, allowed } = await app();
    const first = allow('127.0.0.1:8188');
    await shown(1);
    const meanwhile = await Promise.all([allow('127.0.0.1:8189'), allow('[::1]:8188')]);
    for (const answer of meanwhile)
      expect(answer).toMatchObject(refusal('error.settings.localServerQuestionOpen'));
    expect(dialog.open).toBe(1);
    dialog.answer(false);
    await first;
    expect(dialog.asked).toHaveLength(1);
    expect(allowed()).toEqual([]);
  });

  it('after “Don’t Allow”, asks about no address for a quiet spell', async () => {
    const { clock, dialog, allow, shown } = await app();
    const first = allow('127.0.0.1:8188');
    await shown(1);
    dialog.answer(false);
    await first;
    for (const entry of ['127.0.0.1:8188', '127.0.0.1:1234']) {
      const refused = await allow(entry);
      expect(refused).toMatchObject(refusal('error.settings.localServerQuestionResting'));
      expect(JSON.stringify(refused)).toContain(`"seconds":${FIRST_QUIET_MS / 1000}`);
    }
    await clock.advance(FIRST_QUIET_MS);
    const later = allow('127.0.0.1:8188');
    await shown(2);
    dialog.answer(true);
    expect(await later).toMatchObject({ ok: true });
  });
});
