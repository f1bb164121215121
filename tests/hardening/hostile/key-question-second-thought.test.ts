/**
 * The user's own second thought after "keep": main's key question refused ANY change of a service
 * address for a minute after the user kept the key where it was (key-question-fatigue.test.ts),
 * the user's own change back in Settings included, which the page cannot be told apart from by
 * what it sends. What main can tell apart is a press: a key or a mouse button the OS delivers to
 * the window (Electron's `input-event`, counted by adapters/window-gestures.ts), which no script
 * of the page can make. After the first "keep" of a row, a change made once the user pressed
 * something in the window is asked about at once, once; a page that asks without a press is
 * refused as before, and one that waits for the user's presses gains one question a row, never a
 * loop. Through the real handlers of a real AppRuntime, with main's dialog and the window's presses
 * stood in for and a manual clock.
 */
import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { WindowGestures } from '../../../electron/adapters/window-gestures';
import { FIRST_QUIET_MS } from '../../../electron/app/key-question-gate';
import type { KeyOriginAnswer, KeyOriginQuestion } from '../../../electron/ports/user-prompts';
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

/** The window's page as Electron's main sees it: the OS's input events, and nothing else. */
class WindowStandIn extends EventEmitter {
  /** The user presses a key (or a mouse button, a tap) in the window. */
  press(type: 'rawKeyDown' | 'mouseDown' | 'gestureTap' = 'rawKeyDown'): void {
    this.emit('input-event', {}, { type });
  }
  /** What is no press: a pointer crossing the window, a release, a wheel. */
  pass(type: 'mouseMove' | 'mouseUp' | 'keyUp' | 'mouseWheel'): void {
    this.emit('input-event', {}, { type });
  }
}

/** Main's dialog: each question waits for the test's answer. */
function dialogStandIn() {
  const asked: string[] = [];
  const waiting: ((answer: KeyOriginAnswer) => void)[] = [];
  return {
    asked,
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
  const window = new WindowStandIn();
  const userGestures = new WindowGestures();
  userGestures.watch(window as unknown as WebContents);
  const { runtime, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-key-second-thought-',
    runtime: () => ({ clock, localServers: OWNERS_UNREAD, prompts: dialog.prompts, userGestures }),
  });
  await request('keys:set', {
    provider: 'fal',
    key: KEY,
    allowWeakStorage: false,
    skipCheck: true,
  });
  const moveTo = (n: number) =>
    request('settings:update', { serviceBaseUrls: { fal: `https://evil-${n}.example/fal` } });
  /** Asks to move to `n` and answers main's question with `answer`: what the change returned. */
  const askedAndAnswered = async (n: number, answer: KeyOriginAnswer) => {
    const asks = dialog.asked.length;
    const change = moveTo(n);
    await expect.poll(() => dialog.asked.length, UNTIL).toBe(asks + 1);
    dialog.answer(answer);
    return change;
  };
  return { clock, dialog, window, runtime, moveTo, askedAndAnswered };
}

const refusal = (key: string) => ({ ok: false, error: { code: 'bad_input', sentence: { key } } });
const RESTING = refusal('error.settings.keyQuestionResting');

describe('the user’s second thought after “keep”', () => {
  it('is asked about at once once the user pressed something in the window', async () => {
    const { dialog, window, runtime, askedAndAnswered } = await app();
    expect(await askedAndAnswered(1, 'cancel')).toMatchObject(
      refusal('error.settings.keyStaysWith'),
    );
    // The user edits the address again in Settings (typing, a click on Save).
    window.press('rawKeyDown');
    window.press('mouseDown');
    expect(await askedAndAnswered(1, 'carry')).toMatchObject({ ok: true });
    expect(dialog.asked).toEqual(['https://evil-1.example/fal', 'https://evil-1.example/fal']);
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe('https://evil-1.example/fal');
  });

  it('is no press the page can make: with none, or only moves and releases, it waits', async () => {
    const { clock, dialog, window, moveTo, askedAndAnswered } = await app();
    await askedAndAnswered(1, 'cancel');
    expect(await moveTo(2)).toMatchObject(RESTING);
    window.pass('mouseMove');
    window.pass('mouseUp');
    window.pass('keyUp');
    window.pass('mouseWheel');
    expect(await moveTo(3)).toMatchObject(RESTING);
    expect(dialog.asked).toHaveLength(1);
    // A press before the answer (the question on screen) is no second thought either.
    await clock.advance(FIRST_QUIET_MS);
    const change = moveTo(4);
    await expect.poll(() => dialog.asked.length, UNTIL).toBe(2);
    window.press();
    dialog.answer('cancel');
    await change;
    expect(await moveTo(5)).toMatchObject(RESTING);
    expect(dialog.asked).toHaveLength(2);
  });

  it('is one question a row: a page waiting for the user’s presses gains one, not a loop', async () => {
    const { clock, dialog, window, moveTo, askedAndAnswered, runtime } = await app();
    await askedAndAnswered(1, 'cancel');
    window.press('gestureTap');
    await askedAndAnswered(2, 'cancel');
    // The second "keep" in a row: two minutes, whatever the user presses meanwhile.
    for (let n = 3; n < 20; n += 1) {
      window.press();
      expect(await moveTo(n)).toMatchObject(RESTING);
    }
    await clock.advance(2 * FIRST_QUIET_MS - 1);
    window.press();
    expect(await moveTo(20)).toMatchObject(RESTING);
    expect(dialog.asked).toHaveLength(2);
    await clock.advance(1);
    await askedAndAnswered(21, 'cancel');
    // The third "keep": four minutes, and still no second thought let through.
    window.press();
    expect(await moveTo(22)).toMatchObject(RESTING);
    expect(dialog.asked).toHaveLength(3);
    expect(runtime.keys.vault('fal').boundBaseUrl()).toBe(OWN);
  });

  it('comes back once the row is over: an answer that sends the key starts it again', async () => {
    const { window, askedAndAnswered, moveTo, dialog } = await app();
    await askedAndAnswered(1, 'cancel');
    window.press();
    await askedAndAnswered(2, 'carry');
    await askedAndAnswered(3, 'cancel');
    window.press();
    expect(await askedAndAnswered(4, 'forget')).toMatchObject({ ok: true });
    expect(dialog.asked).toHaveLength(4);
    // The key removed: a change of address asks nothing any more.
    expect(await moveTo(5)).toMatchObject({ ok: true });
  });
});
