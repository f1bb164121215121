/**
 * A model's choices and text defaults that read as one thing and are another: a choice padded
 * with a character that draws nothing (a variation selector, a Hangul filler, U+034F, an
 * unassigned default-ignorable), or two choices of one text spelled composed and decomposed
 * (`café`, `cafe\u0301`). The form's select listed `hd` twice and sent whichever was picked, a
 * command line's `--param quality=hd` named only one of them, and a choice that shows as `hd` but
 * is `hd\u3164` could not be typed at all. The schema's reader refused controls and format
 * characters only, and the kept file (model-options.json, written by another hand) was read with
 * no rule on its texts at all: a choice there could hold ESC or U+202E. Through the real book of
 * model options, reading real files: a schema file the user imports, and the kept file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParamSchemaBook } from '../../../electron/core/param-schemas/param-schema-book';
import type { ParamSpec } from '../../../shared/domain/model-params';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Characters that draw nothing but are neither controls nor format characters (Cf). */
const INVISIBLE = {
  'U+034F combining grapheme joiner': '\u034f',
  'U+FE0F variation selector 16': '\ufe0f',
  'U+E0100 variation selector 17': '\u{e0100}',
  'U+180B Mongolian variation selector': '\u180b',
  'U+3164 Hangul filler': '\u3164',
  'U+115F Hangul choseong filler': '\u115f',
  'U+FFA0 halfwidth Hangul filler': '\uffa0',
  'U+17B4 Khmer vowel inherent': '\u17b4',
  'U+2065 unassigned default-ignorable': '\u2065',
} as const;

/** What a person reading the form or the terminal cannot tell apart: drawn-nothing and spelling. */
function asRead(text: string): string {
  return text.replace(/\p{Default_Ignorable_Code_Point}/gu, '').normalize('NFC');
}

/** Whether `spec` offers or defaults to a text that is not what a person reads. */
function misleading(spec: ParamSpec | undefined): boolean {
  if (spec === undefined) return false;
  const texts = spec.type === 'enum' ? spec.values.map(String) : [];
  if (spec.default !== undefined) texts.push(String(spec.default));
  const read = texts.map(asRead);
  return texts.some((text, i) => text !== read[i]) || new Set(read).size !== read.length;
}

let dir = '';
let n = 0;
beforeAll(async () => {
  dir = await tempFolder('attack44-choices');
});
afterAll(async () => {
  await removeFolder(dir);
});

/** A book over a data folder of its own. */
async function freshBook(): Promise<{ book: ParamSchemaBook; dataDir: string }> {
  const dataDir = join(dir, `lib-${String(n++)}`);
  await mkdir(dataDir);
  const book = new ParamSchemaBook(dataDir, () => 5);
  await book.open();
  return { book, dataDir };
}

/** The options of the schema file `properties` make, as `models import-schema` keeps them. */
async function imported(properties: Record<string, unknown>) {
  const { book, dataDir } = await freshBook();
  const file = join(dataDir, 'schema.json');
  const steps = { type: 'integer', minimum: 1, maximum: 50 };
  await writeFile(file, JSON.stringify({ properties: { ...properties, steps } }));
  const result = await book.importFile('pictor', 'own-model', file);
  expect(result.ok).toBe(true);
  const kept = book.lookup('pictor', 'own-model');
  expect(kept?.params['steps']).toMatchObject({ type: 'integer', min: 1, max: 50 });
  return kept?.params ?? {};
}

describe('a schema file’s choices', () => {
  it.each(Object.entries(INVISIBLE))('two choices apart only by %s are no choice', async (_, x) => {
    const params = await imported({ quality: { enum: ['hd', `hd${x}`, 'standard'] } });
    expect(misleading(params['quality']), JSON.stringify(params['quality'])).toBe(false);
  });

  it.each(Object.entries(INVISIBLE))('a choice padded with %s is no choice', async (_, x) => {
    const params = await imported({ quality: { enum: [`hd${x}`, 'standard'] } });
    expect(misleading(params['quality']), JSON.stringify(params['quality'])).toBe(false);
  });

  it('two choices spelled composed and decomposed are no choice; apart ones stay', async () => {
    const params = await imported({
      style: { enum: ['caf\u00e9', 'cafe\u0301', 'plain'] },
      mood: { enum: ['caf\u00e9', 'plain'] },
    });
    expect(misleading(params['style']), JSON.stringify(params['style'])).toBe(false);
    expect(params['mood']).toMatchObject({ type: 'enum', values: ['caf\u00e9', 'plain'] });
  });

  it('choices made of what words are made of stay: an emoji, a flag, a Persian half space', async () => {
    const words = [
      '\u2764\ufe0f',
      '\u{1f469}\u200d\u{1f4bb}',
      '\u{1f3f4}\u{e0067}\u{e0062}\u{e0077}\u{e006c}\u{e0073}\u{e007f}',
      '\u0646\u06cc\u200c\u0645',
    ];
    const params = await imported({
      mood: { enum: words },
      style: { type: 'string', default: words[0] },
    });
    expect(params['mood']).toMatchObject({ type: 'enum', values: words });
    expect(params['style']).toMatchObject({ type: 'string', default: words[0] });
  });

  it.each(Object.entries(INVISIBLE))('a text default holding %s is not kept', async (_, x) => {
    const params = await imported({ style: { type: 'string', default: `vivid${x}` } });
    expect(params['style']).toMatchObject({ type: 'string' });
    expect(misleading(params['style']), JSON.stringify(params['style'])).toBe(false);
  });
});

describe('the kept file, written by another hand', () => {
  /** An entry of model-options.json for `model` with `params`. */
  const entry = (model: string, params: Record<string, unknown>) => ({
    provider: 'pictor',
    model,
    origin: 'file',
    at: 1,
    params,
  });
  const enumOf = (values: unknown[], fallback?: unknown) => ({
    type: 'enum',
    values,
    ...(fallback === undefined ? {} : { default: fallback }),
  });
  const CRAFTED: Record<string, Record<string, unknown>> = {
    'a choice holding ESC (a terminal sequence)': { q: enumOf(['\u001b]0;pwned\u0007', 'b']) },
    'a choice holding U+202E (shown backwards)': { q: enumOf(['safe\u202etxt.exe', 'b']) },
    'a choice holding a line separator': { q: enumOf(['one\u2028two', 'b']) },
    'a choice holding a zero-width space': { q: enumOf(['hd\u200b', 'hd']) },
    'a choice holding a Hangul filler': { q: enumOf(['hd\u3164', 'hd']) },
    'a choice holding a variation selector': { q: enumOf(['hd\ufe0f', 'hd']) },
    'two choices composed and decomposed': { q: enumOf(['caf\u00e9', 'cafe\u0301']) },
    'a choice’s default holding ESC': { q: enumOf(['a', 'b'], '\u001b[2J') },
    'a text default holding ESC': { t: { type: 'string', maxLength: 9, default: '\u001b[2J' } },
    'a text default holding U+034F': { t: { type: 'string', maxLength: 9, default: 'a\u034f' } },
  };

  it.each(Object.entries(CRAFTED))(
    'leaves out an entry with %s, keeps the others',
    async (_, p) => {
      const { dataDir } = await freshBook();
      const models = [entry('crafted', p), entry('plain', { q: enumOf(['caf\u00e9', 'hd', 1]) })];
      await writeFile(join(dataDir, 'model-options.json'), JSON.stringify({ version: 1, models }));
      const book = new ParamSchemaBook(dataDir, () => 5);
      await book.open();
      expect(book.kept().map((kept) => kept.model)).toEqual(['plain']);
    },
  );
});
