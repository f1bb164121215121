/**
 * Error sentences as the main process raises, stores and sends them: the English text an error's
 * `message` holds, the schema that guards what is read back from a history row, a gallery sidecar
 * or an IPC error, and the catalogue that shows them in another language. Values are text, never
 * message syntax, so server-sent words cannot change the sentence around them.
 */
import { describe, expect, it } from 'vitest';
import { localeInfo, type LocaleInfo } from '../../../shared/domain/locales';
import { taskErrorSchema, imageRecordSchema } from '../../../shared/domain/task-record';
import { ipcErrorSchema } from '../../../shared/ipc/contract';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { mainMessages } from '../../../shared/i18n/main-messages';
import { MAIN_TRANSLATIONS } from '../../../shared/i18n/main-translations';
import { englishText, sentence, sentenceSchema, sentenceText } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import { toIpcError, unwrap } from '../../../electron/ipc/ipc-errors';
import { shownValue } from '../../../shared/text/shown-value';

const pseudo = new MainCatalogue(localeInfo('en-XA') as LocaleInfo, undefined);
const german = new MainCatalogue(localeInfo('de') as LocaleInfo, MAIN_TRANSLATIONS['de']);

/** A sentence of the catalogue with a placeholder, found rather than named (areas own theirs). */
function sentenceWithValue(): { key: keyof typeof mainMessages; name: string } {
  for (const [key, text] of Object.entries(mainMessages)) {
    const match = /^[^{]*\{(\w+)\}[^{]*$/.exec(text);
    if (key.startsWith('error.') && match?.[1]) {
      return { key: key as keyof typeof mainMessages, name: match[1] };
    }
  }
  return { key: 'keyOrigin.carry', name: 'to' };
}

describe('an error made from a sentence', () => {
  it('has the English text as its message and keeps the sentence', () => {
    const error = new UserFacingError(sentence('error.unexpected'), { code: 'failed' });
    expect(error.message).toBe(mainMessages['error.unexpected']);
    expect(error.sentence).toEqual({ key: 'error.unexpected' });
  });

  it('goes over IPC with its sentence and comes back with it', () => {
    const said = sentence('keyOrigin.carry', { to: 'a.example' });
    const sent = toIpcError(new UserFacingError(said, { code: 'bad_input', detail: 'why' }));
    expect(sent).toEqual({
      code: 'bad_input',
      message: 'Send the key to a.example',
      detail: 'why',
      sentence: said,
    });
    expect(ipcErrorSchema().parse(sent)).toEqual(sent);
    const back = (() => {
      try {
        unwrap({ ok: false, error: sent });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(back).toBeInstanceOf(UserFacingError);
    expect((back as UserFacingError).sentence).toEqual(said);
  });

  it('that Pictor has no sentence for goes out as the catalogue’s unexpected-failure sentence', () => {
    const sent = toIpcError(new TypeError('x is undefined'));
    expect(sent.sentence).toEqual({ key: 'error.unexpected' });
    expect(sent.message).toBe(mainMessages['error.unexpected']);
    expect(sent.detail).toContain('x is undefined');
  });

  it('reads in the catalogue’s language; a text-only error reads as its text', () => {
    const said = sentence('error.unexpected');
    expect(sentenceText(pseudo, { message: 'ignored', sentence: said })).not.toBe(
      englishText(said),
    );
    expect(sentenceText(german, { message: 'ignored', sentence: said })).toBe(
      MAIN_TRANSLATIONS['de']?.['error.unexpected'],
    );
    expect(sentenceText(german, { message: 'As stored.' })).toBe('As stored.');
  });
});

describe('values in a sentence', () => {
  const { key, name } = sentenceWithValue();
  const hostile = [
    '{count, plural, one {x} other {y}}',
    "'{quoted}'",
    '</script><img src=x onerror=alert(1)>',
    '\u202Egnp.exe',
    '#',
    '{',
  ];

  // Shown as a value is (shared/text/shown-value.ts: the bidi override as U+FFFD), never as syntax.
  it.each(hostile)('are shown as values, never read as message syntax: %s', (value) => {
    const said = sentence(key, { [name]: value });
    const shown = shownValue(value);
    expect(englishText(said)).toContain(shown);
    expect(sentenceText(pseudo, { message: '', sentence: said })).toContain(shown);
    expect(sentenceText(german, { message: '', sentence: said })).toContain(shown);
  });

  it('a missing value shows the English text as written, never throws', () => {
    expect(() => englishText({ key })).not.toThrow();
    expect(() => sentenceText(german, { message: '', sentence: { key } })).not.toThrow();
  });
});

describe('a sentence read back', () => {
  const good = { key: 'keyOrigin.carry', params: { to: 'a.example', count: 3 } };

  it('passes with a known key and a few bounded values', () => {
    expect(sentenceSchema().safeParse(good).success).toBe(true);
    expect(sentenceSchema().safeParse({ key: 'error.unexpected' }).success).toBe(true);
  });

  it.each([
    ['an unknown key', { key: 'error.not.a.key' }],
    ['a prototype key', { key: '__proto__' }],
    ['an inherited name', { key: 'toString' }],
    ['a key that is not text', { key: 42 }],
    ['a value name that is not a name', { ...good, params: { __proto__x: 'a', 'a b': 'c' } }],
    ['an object value', { ...good, params: { to: { toString: 'x' } } }],
    ['a number that is not finite', { ...good, params: { to: Number.POSITIVE_INFINITY } }],
    ['a value too long', { ...good, params: { to: 'x'.repeat(2_001) } }],
    [
      'too many values',
      { ...good, params: Object.fromEntries([...Array(13).keys()].map((i) => [`v${i}`, i])) },
    ],
    ['params that are a list', { ...good, params: ['a'] }],
  ])('is refused with %s', (_what, value) => {
    expect(sentenceSchema().safeParse(value).success).toBe(false);
  });

  it('drops a value named __proto__ without touching the prototype', () => {
    const parsed = sentenceSchema().parse({
      ...good,
      params: JSON.parse('{"__proto__": {"polluted": "yes"}, "to": "a.example"}') as unknown,
    });
    expect(parsed.params).toEqual({ to: 'a.example' });
    expect(Object.getPrototypeOf(parsed.params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('that is damaged loses only itself: the task error and the image keep their message', () => {
    const taskError = taskErrorSchema().parse({
      kind: 'server',
      message: 'The service failed.',
      sentence: { key: 'error.not.a.key', params: { to: 'x' } },
    });
    expect(taskError).toEqual({ kind: 'server', message: 'The service failed.' });
    const image = imageRecordSchema().parse({
      index: 0,
      url: null,
      state: 'invalid',
      attempts: 1,
      error: 'Not an image.',
      errorSentence: { key: 'error.unexpected', params: { x: { y: 1 } } },
    });
    expect(image.error).toBe('Not an image.');
    expect(image.errorSentence).toBeUndefined();
  });

  it('that is whole survives a round trip through JSON (history row, sidecar)', () => {
    const stored = JSON.parse(
      JSON.stringify({ kind: 'server', message: 'm', sentence: good }),
    ) as unknown;
    expect(taskErrorSchema().parse(stored).sentence).toEqual(good);
  });
});
