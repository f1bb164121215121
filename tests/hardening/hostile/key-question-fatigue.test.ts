/**
 * A compromised page looping `settings:update` to another service address: each call showed
 * main's own "send the key there?" warning, one after the other (a second call waited behind the
 * first dialog and showed its own the moment the user answered), until the user gave in. Now
 * (app/key-question-gate.ts) one question is on screen at a time, a change asked for meanwhile
 * is refused at once; after the user keeps the key, a change that would ask again, to the same
 * address or any other, is refused without asking for a quiet spell (a minute, doubling with
 * each "keep" in a row, up to 15 minutes); sending or removing the key starts the count again.
 *
 * Through the real handlers of a real AppRuntime, with main's dialog stood in for (a question
 * held open until the test answers it) and a manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyOriginAnswer, KeyOriginQuestion } from '../../../electron/ports/user-prompts';
import { FIRST_QUIET_MS, MOST_QUIET_MS } from '../../../electron/app/key-question-gate';
import { ManualClock } from '../../fakes/manual-clock';
import { wiredIpc } from '../../support/wired-ipc';
import { UNTIL } from '../../support/waits';
import { OWNERS_UNREAD } from '../../support/owners-unread';

const KEY = 'fal-key-LEAKCANARY-0123456789';
const OWN = 'https://queue.fal.run';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Main's dialog: each question waits for the test's answer. */
function dialogStandIn() {
  const asked: string[] = [];
  const waiting: ((answer: KeyOriginAnswer) => void)[] = [];
  return {
    asked,
    /** Questions on screen now. */
    get open() {
      return waiting.length;
    },
    answer(answer: KeyOriginAnswer) {
      waiting.shift()?.(answer);
    },
    prompts: {
      confirmKeyOrigin: (question: KeyOriginQuestion) =>
        new Promise<KeyOriginAnswer>((resolve) => {
          asked.push(question.to);
          waiting.push(resolve);
        }),
    },
  };
}

async function app() {
  const clock = new ManualClock();
  const dialog = dialogStandIn();
  const { runtime, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-key-question-',
    runtime: () => ({ clock, localServers: OWNERS_UNREAD, prompts: dialog.prompts }),
  });
  await request('keys:set', {
    provider: 'fal',
    key: KEY,
    allowWeakStorage: false,
    skipCheck: true,
  });
  expect(runtime.keys.vault('fal').boundBaseUrl()).toBe(OWN);
  const moveTo = (n: number) =>
    request('settings:update', { serviceBaseUrls: { fal: `https://evil-${n}.example/fal` } });
  /** Waits until main has the question on screen. */
  const shown = async (count: number) => {
    await expect.poll(() => dialog.asked.length, UNTIL).toBe(count);
  };
  return { clock, dialog, runtime, moveTo, shown };
}

const refusal = (key: string) => ({ ok: false, error: { code: 'bad_input', sentence: { key } } });

describe('main’s key question, asked for in a loop by the page', () => {
  it('is on screen once at a time: a change asked for meanwhile is refused, not queued', async () => {
    const { dialog, moveTo, shown, runtime } = await app();
    const first = moveTo(1);
    await shown(1);
    const meanwhile = await Promise.all([moveTo(2), moveTo(1), moveTo(3)]);
    for (const answer of meanwhile)
      expect(answer).toMatchObject(refusal('error.settings.keyQuestionOpen'));
    expect(dialog.open).toBe(1);
    dialog.answer('cancel');
    expect(await first).toMatchObject(refusal('error.settings.keyStaysWith'));
    expect(dialog.asked).toEqual(['https://evil-1.example/fal']);
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe(OWN);
  });

  it('after “keep”, asks again about no address for a quiet spell that grows', async () => {
    const { clock, dialog, moveTo, shown, runtime } = await app();
    let asks = 0;
    let quiet = FIRST_QUIET_MS;
    for (let round = 1; round <= 6; round += 1) {
      const ask = moveTo(round);
      asks += 1;
      await shown(asks);
      dialog.answer('cancel');
      expect(await ask).toMatchObject(refusal('error.settings.keyStaysWith'));
      // The same address and another one: refused without a dialog, the wait said.
      for (const n of [round, round + 100]) {
        const refused = await moveTo(n);
        expect(refused).toMatchObject(refusal('error.settings.keyQuestionResting'));
        expect(JSON.stringify(refused)).toContain(`"seconds":${quiet / 1000}`);
      }
      await clock.advance(quiet - 1);
      expect(await moveTo(round + 200)).toMatchObject(refusal('error.settings.keyQuestionResting'));
      expect(dialog.asked).toHaveLength(asks);
      await clock.advance(1);
      quiet = Math.min(MOST_QUIET_MS, quiet * 2);
    }
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe(OWN);
    expect(runtime.settings.get().serviceBaseUrls).toEqual({});
  });

  it('starts the count again once the user answers otherwise, and never stops other settings', async () => {
    const { clock, dialog, moveTo, shown, runtime } = await app();
    const ask = moveTo(1);
    await shown(1);
    dialog.answer('cancel');
    await ask;
    await clock.advance(FIRST_QUIET_MS);
    const carried = moveTo(2);
    await shown(2);
    dialog.answer('carry');
    expect(await carried).toMatchObject({ ok: true });
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe('https://evil-2.example/fal');
    // A new question at once (the last answer was not “keep”), and only a minute after its “keep”.
    const again = moveTo(3);
    await shown(3);
    dialog.answer('cancel');
    await again;
    await clock.advance(FIRST_QUIET_MS - 1);
    expect(await moveTo(4)).toMatchObject(refusal('error.settings.keyQuestionResting'));
    await clock.advance(1);
    const later = moveTo(4);
    await shown(4);
    dialog.answer('cancel');
    await later;
    // A change that asks nothing is not held up.
    expect(
      await runtime.updateSettings({ serviceBaseUrls: { fal: 'https://evil-2.example/fal' } }),
    ).toMatchObject({ serviceBaseUrls: { fal: 'https://evil-2.example/fal' } });
  });
});
