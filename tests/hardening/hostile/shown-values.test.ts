/**
 * Text a hostile service, a crafted file or record puts where a person reads and decides: a
 * service's failure reason in a notification and in an error sentence, a template's name in
 * "Delete the template “…”?", a file name in a sentence. A right-to-left override (U+202E) showed
 * `gnp.exe` as `exe.png` and turned the rest of the sentence around; a line break started a
 * paragraph of its own ("…\n\nPictor checked this service."); a zero-width space made two
 * different names read as one. Every placeholder of both catalogues and every stored message
 * now goes through one rule (shared/text/shown-value.ts): such a character reads as U+FFFD, a
 * break as one space, nothing else changes. Through the real service client over loopback HTTP,
 * the real main and window catalogues, and the real notification policy on a manual clock.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import {
  NotificationPolicy,
  type NotificationContent,
} from '../../../electron/app/os/notification-policy';
import { mainSentence, mainText } from '../../../electron/app/i18n/main-text';
import { englishText } from '../../../shared/i18n/sentence';
import { HIDDEN_MARK, shownValue } from '../../../shared/text/shown-value';
import { errorText, t } from '../../../renderer/i18n';
import { ManualClock } from '../../fakes/manual-clock';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, sendJson, serve } from '../../support/http-servers';
import { makeTaskRecord } from '../../support/task-records';

afterEach(closeServers);

/**
 * What steers, hides or reorders text around it, or breaks its line. The directional marks (LRM,
 * RLM, ALM) are not among them: the locale's own dates and amounts carry them, and a mark only
 * places the punctuation beside it.
 */
const STEERING =
  // eslint-disable-next-line no-control-regex -- these are what the test looks for
  /[\u0000-\u001f\u007f-\u009f\u00ad\u115f\u1160\u180e\u200b\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

/** Pieces of hostile text: each steers, hides, reorders or breaks. */
const HOSTILE_PIECES = [
  '\u202e',
  '\u202d',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u3164',
  '\u{e0041}',
  '\ud800',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u001b[2J',
  '\u009b31m',
  '\u0000',
  '          ',
];
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ maxLength: 6 })), {
    maxLength: 10,
  })
  .map((parts) => parts.join(''));

describe('a value as a sentence shows it', () => {
  it('keeps nothing that steers, hides or breaks, and every other character in its order', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const shown = shownValue(text);
        expect(shown).not.toMatch(STEERING);
        expect(shown).not.toMatch(/ {2}/);
        const visible = (s: string) => s.replace(/[\s\uFFFD]/gu, '');
        expect(visible(shown)).toBe(visible(text.replace(STEERING_GLOBAL, '')));
      }),
      { numRuns: 500 },
    );
  });

  it('reads apart two values that differ only by a hidden character', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        fc.constantFrom(
          ...HOSTILE_PIECES.filter((piece) => shownValue(piece).includes(HIDDEN_MARK)),
        ),
        fc.string({ maxLength: 8 }),
        (before, hidden, after) => {
          expect(shownValue(before + hidden + after)).not.toBe(shownValue(before + after));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves ordinary text alone: accents, right-to-left scripts and dates, Persian joiners, emoji', () => {
    for (const text of [
      'Un phare au crépuscule — 夕暮れの灯台',
      'מגדלור בשקיעה',
      'می‌خواهم',
      'family 👨‍👩‍👧 🏳️‍🌈',
      'a.png',
      // What the locale's own formatting writes, directional marks and all.
      new Intl.DateTimeFormat('ar', { dateStyle: 'short' }).format(Date.UTC(2026, 11, 1)),
      new Intl.NumberFormat('he', { style: 'currency', currency: 'USD' }).format(0.25),
      new Intl.NumberFormat('fa').format(-1234.5),
    ]) {
      expect(shownValue(text)).toBe(text);
    }
  });
});

const KEY = 'sk-shown-values-7310';
const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 30_000,
  ...bundledAnswers(),
});
const REVERSED =
  'Your key is fine \u202Egnp.exe\u202C\u2028\u2028Pictor checked\u200Bthis service.';

describe('a hostile service’s words where the user reads them', () => {
  it('a failed task’s reason: the window’s and main’s sentence', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { id: 'task_1', status: 'failed', error: { message: REVERSED } }),
    );
    const task = await client.getTask(
      { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct' },
      'task_1',
    );
    if (task.status !== 'failed') throw new Error(`not failed: ${task.status}`);
    const read = mainSentence({ message: task.message, sentence: task.sentence });
    expect(read).not.toMatch(STEERING);
    expect(read).toContain(
      `fine ${HIDDEN_MARK}gnp.exe${HIDDEN_MARK} Pictor checked${HIDDEN_MARK}this`,
    );
  });

  it('a failed task’s notification: its reason and its prompt, one line each', async () => {
    // The reason as the service client stores it (cleaned of controls, bidi and all kept).
    const task = { message: 'Your key is fine \u202Egnp.exe\u202C \u200B Pictor checked this.' };
    const clock = new ManualClock();
    const shown: NotificationContent[] = [];
    const policy = new NotificationPolicy({
      clock,
      isEnabled: () => true,
      isWindowFocused: () => false,
      show: (content) => void shown.push(content),
    });
    const record = makeTaskRecord({ request: { prompt: 'a cat \u202Egnp.exe\u2029on a mat' } });
    policy.observe({ ...record, status: 'processing', images: [] });
    policy.observe({
      ...record,
      status: 'failed',
      images: [],
      error: { kind: 'task_failed', message: task.message },
    });
    await clock.advance(10_000);
    expect(shown).toHaveLength(1);
    const [reason, prompt, ...more] = (shown[0]?.body ?? '').split('\n');
    expect(more).toEqual([]);
    for (const line of [shown[0]?.title ?? '', reason ?? '', prompt ?? '']) {
      expect(line).not.toMatch(STEERING);
    }
    expect(prompt).toBe(`a cat ${HIDDEN_MARK}gnp.exe on a mat`);
  });

  it('a refusal quoting the service: its sentence in English, in main’s language and in the window', async () => {
    const server = await serve((_req, res) => sendJson(res, 400, { error: { message: REVERSED } }));
    const error = await client
      .getTask({ baseUrl: server.origin, key: KEY, keyFingerprint: 'acct' }, 'task_1')
      .then(
        () => null,
        (thrown: unknown) => thrown as { message: string; sentence?: { key: never } },
      );
    expect(error?.sentence).toBeDefined();
    const said = error?.sentence as Parameters<typeof englishText>[0];
    for (const text of [
      englishText(said),
      mainSentence({ message: '', sentence: said }),
      errorText({ message: '', sentence: said }),
    ]) {
      expect(text).not.toMatch(STEERING);
      expect(text).toContain(`${HIDDEN_MARK}gnp.exe${HIDDEN_MARK}`);
    }
  });
});

describe('a crafted name in a question', () => {
  it('“Delete the template …?” in the window; main’s dialog sentence', () => {
    const name = 'Portraits\u202E\u2066 ?sdrawkcab\u2069\n\nAll your templates are safe.';
    const question = t('templates.manage.deleteQuestion', { name });
    expect(question).not.toMatch(STEERING);
    expect(question.endsWith('”?')).toBe(true);
    const box = mainText('commandLineTool.confirm', { link: `/usr/local/bin/pictor\u202Egnp.` });
    expect(box).not.toMatch(STEERING);
  });
});

const STEERING_GLOBAL = new RegExp(STEERING.source, 'gu');
