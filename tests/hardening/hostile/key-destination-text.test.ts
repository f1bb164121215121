/**
 * Where the key would go, as the user reads it before deciding: main's "Send your API key to …?"
 * (adapters/dialog-prompts.ts), its refusal sentence, and the window's name for the user's own
 * service. An address a compromised page proposes, or a crafted record names, may be built to be
 * misread:
 * - a host of lookalike letters: `аррӏе.com` all Cyrillic, `аpple.com` mixed, `ɑpple.com` with
 *   Latin alpha. Main's sentences write hosts as the URL parser does (Punycode) and did; the window
 *   decoded every `xn--` label and named the service "аррӏе.com". Now a host is shown in its own
 *   letters only when they cannot pass for another name (shared/text/shown-host.ts);
 * - a long host that starts like a known one (`api.openai.com.<200 characters>.evil.example`) and
 *   a long path: "Send the key to …" named them whole, in the message and on a button, which a
 *   native box draws on one line and cuts or pushes past the screen's edge, leaving the start
 *   (what the host wants to be read as) and losing the end (whose it is). Now a host is shown by
 *   its right end within 64 characters, a path within 48;
 * - user names, bidi controls and zero-width characters: the URL policy refuses the first and
 *   the parser refuses or drops the others; nothing that steers text reaches the dialog.
 * The dialog through the real handlers of a real AppRuntime (main's dialog stood in for by one
 * that records the question), the message box built from it as the app builds it.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { keyOriginMessage } from '../../../electron/adapters/dialog-prompts';
import { checkBaseUrl } from '../../../electron/core/service';
import type { KeyOriginAnswer, KeyOriginQuestion } from '../../../electron/ports/user-prompts';
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import { addressHost, ownServiceName } from '../../../shared/domain/service-name';
import { errorText } from '../../../renderer/i18n';
import { ManualClock } from '../../fakes/manual-clock';
import { wiredIpc, type Cleanups } from '../../support/wired-ipc';
import { OWNERS_UNREAD } from '../../support/owners-unread';

const KEY = 'fal-key-LEAKCANARY-0123456789';
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LONG_LABEL = 'a'.repeat(60);
const LONG_HOST = `api.openai.com.${[LONG_LABEL, LONG_LABEL, LONG_LABEL].join('.')}.evil.example`;

/** Every text of the message box, buttons included. */
function boxTexts(question: KeyOriginQuestion): string[] {
  const box = keyOriginMessage(question);
  return [box.title ?? '', box.message, box.detail ?? '', ...(box.buttons ?? [])];
}

/** The page asks main to move fal's address; main's question, as the dialog would get it. */
async function questionFor(address: string) {
  const asked: KeyOriginQuestion[] = [];
  const { request } = await wiredIpc(cleanups, {
    prefix: 'pictor-key-destination-',
    runtime: () => ({
      clock: new ManualClock(),
      localServers: OWNERS_UNREAD,
      prompts: {
        confirmKeyOrigin: (question: KeyOriginQuestion) => {
          asked.push(question);
          return Promise.resolve<KeyOriginAnswer>('cancel');
        },
      },
    }),
  });
  await request('keys:set', {
    provider: 'fal',
    key: KEY,
    allowWeakStorage: false,
    skipCheck: true,
  });
  const refusal = (await request('settings:update', { serviceBaseUrls: { fal: address } })) as {
    ok: boolean;
    error?: { message: string; sentence?: never };
  };
  expect(refusal.ok).toBe(false);
  expect(asked).toHaveLength(1);
  return { question: asked[0] as KeyOriginQuestion, refusal: errorText(refusal.error as never) };
}

describe('a long address the page proposes', () => {
  it('is named by the right end of its host, on the button as in the message', async () => {
    const { question, refusal } = await questionFor(`https://${LONG_HOST}/v1`);
    const box = keyOriginMessage(question);
    expect(box.message).toMatch(/^Send your API key \(\w+\) to ….evil.example\?$/);
    expect(box.buttons).toContain('Send the key to ….evil.example');
    expect(box.detail).toContain('https://….evil.example.');
    expect(refusal).toContain('….evil.example');
    for (const text of [...boxTexts(question), refusal]) {
      expect(text).not.toContain('api.openai.com');
      expect(text.length).toBeLessThan(600);
    }
    expect(addressHost(question.to)).toBe('….evil.example');
  });

  it('a long path: cut, its host whole', async () => {
    const { question } = await questionFor(`https://gateway.example/${'team'.repeat(100)}`);
    const box = keyOriginMessage(question);
    for (const button of box.buttons ?? []) expect(button.length).toBeLessThan(100);
    expect(box.message).toMatch(/ to gateway\.example\/(team)+\w*…\?$/);
    expect(box.detail?.length).toBeLessThan(600);
  });

  it('a host whose owner’s label alone is long: that label’s end and the top-level name', () => {
    const host = `${'b'.repeat(63)}.example`;
    const question = { fingerprint: null, from: null, to: checkBaseUrl(`https://${host}`) };
    expect(keyOriginMessage(question).message).toBe(`Send your API key to …${host.slice(-63)}?`);
  });
});

describe('a host of lookalike letters', () => {
  it.each([
    ['all Cyrillic', 'https://аррӏе.com'],
    ['Cyrillic and Latin', 'https://аpple.com'],
    ['Latin alpha', 'https://ɑpple.com'],
    ['Greek under .com', 'https://ορεναι.com'],
    ['Cyrillic in one label of several', 'https://api.оpenai.com'],
    ['dotless i', 'https://paypal-logın.com'],
    ['Armenian', 'https://օpenai.com'],
  ])('%s: Punycode in main’s question and in the window', async (_kind, address) => {
    const ascii = new URL(address).hostname;
    expect(ascii).toMatch(/xn--/);
    const { question } = await questionFor(address);
    for (const text of boxTexts(question)) expect(text).not.toMatch(/[^\x20-\x7e…]/);
    expect(keyOriginMessage(question).message).toContain(ascii);
    expect(addressHost(question.to)).toBe(ascii);
    expect(
      ownServiceName({ serviceName: '', serviceBaseUrls: { [DEFAULT_PROVIDER]: question.to } }),
    ).toBe(ascii);
  });

  it.each([
    ['https://bücher.example', 'bücher.example'],
    ['https://пример.рф', 'пример.рф'],
    ['https://παράδειγμα.ελ', 'παράδειγμα.ελ'],
    ['https://例え.jp', '例え.jp'],
    ['https://ドメイン名例.jp', 'ドメイン名例.jp'],
    ['https://한국.kr', '한국.kr'],
    ['https://مثال.إختبار', 'مثال.إختبار'],
    ['https://straße.de', 'straße.de'],
  ])('a name in its own script still reads in it in the window: %s', (address, shown) => {
    expect(addressHost(checkBaseUrl(address))).toBe(shown);
  });
});

describe('any address the URL policy takes', () => {
  const pieces = [
    'api.openai.com',
    '\u202e',
    '\u200b',
    '\u00ad',
    '\u2066',
    '@',
    'user:pw@',
    '%E2%80%AE',
    '%0a',
    'а',
    'ɑ',
    '.',
    '/',
    LONG_LABEL,
  ];
  const address = fc
    .tuple(
      fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }),
      fc.array(fc.constantFrom(...pieces, 'x'), { maxLength: 6 }),
    )
    .map(([host, path]) => `https://${host.join('')}.example/${path.join('')}`);

  it('is asked about in ASCII, nothing that steers text, bounded, its host’s end shown', () => {
    let taken = 0;
    fc.assert(
      fc.property(address, (raw) => {
        let to: string;
        try {
          to = checkBaseUrl(raw);
        } catch {
          return;
        }
        taken += 1;
        const texts = boxTexts({ fingerprint: 'abcd1234', from: 'https://queue.fal.run', to });
        for (const text of texts) {
          expect(text).not.toMatch(/[^\x20-\x7e…]/);
          expect(text.length).toBeLessThan(600);
        }
        // The registrable name (the last two labels), or the end of an owner's label that long.
        const host = new URL(to).hostname;
        const owner = host.split('.').slice(-2).join('.');
        expect(keyOriginMessage({ fingerprint: null, from: null, to }).message).toContain(
          owner.length < 60 ? owner : host.slice(-20),
        );
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(50);
  });
});
