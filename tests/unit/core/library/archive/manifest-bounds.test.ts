/**
 * A hostile manifest costs a bounded amount of work. What made one of 767 KiB take seconds and
 * gigabytes was the schema run over every entry at once, collecting every problem of each (five
 * for an empty `{}`) to report only the first. Now the text's shape is checked before JSON.parse
 * ever sees it (counted here with a spy on JSON.parse), and the entries are checked one by one,
 * stopping at the first invalid one (counted with a spy on the entry schema).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../../../shared/text/control-characters';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../../../electron/core/library/archive/archive-limits';
import {
  MANIFEST_NAME,
  manifestEntrySchema,
  parseManifest,
} from '../../../../../electron/core/library/archive/manifest';
import { englishText, sentence, sentenceSchema } from '../../../../../shared/i18n/sentence';
import { filesUnder } from '../../../../support/files';
import { manifestFor, taskFiles } from './crafted-export';
import { importInto, useLibrary } from './library-fixture';

const MAX_ENTRIES = DEFAULT_ARCHIVE_LIMITS.maxEntries;
const HEAD =
  '{"format":"pictor-library-export","version":1,"pictorVersion":"x","createdAt":"2025-01-01T00:00:00Z","entries":';
const manifestWith = (entries: string) => `${HEAD}${entries}}`;
const longList = (count: number, item: string) => `[${Array(count).fill(item).join(',')}]`;
const fields = (count: number) => Array.from({ length: count }, (_, i) => `"f${i}":0`).join(',');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a manifest refused by its schema', () => {
  it('quotes no more of a key of its own naming than a sentence holds, and none of its controls', () => {
    const key = `\u202eevil\u001b]52;c;Y3VybA==\u0007${'x'.repeat(100_000)}`;
    const text = `${HEAD.slice(0, -'"entries":'.length)}${JSON.stringify(key)}:1,"entries":[]}`;
    const result = parseManifest(text, MAX_ENTRIES);
    expect(result).toMatchObject({ ok: false, problem: { key: 'error.library.manifestInvalid' } });
    const said = sentence('error.library.manifestInvalid', {
      ...(!result.ok ? result.problem.params : {}),
      what: 'archive',
    });
    // What the window's errors and lists take (sentenceSchema: 2,000 characters a value).
    expect(sentenceSchema().safeParse(said).success).toBe(true);
    expect(englishText(said)).toMatch(/Unrecognized key: "evil\]52;c;Y3VybA==x+/);
    expect(englishText(said)).not.toMatch(
      anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]),
    );
  });
});

describe('a manifest refused by its shape, before it is parsed', () => {
  it.each<[string, string, string]>([
    [
      '767 KiB of nested arrays',
      manifestWith(`${'['.repeat(392_000)}${']'.repeat(392_000)}`),
      'error.library.manifestShape',
    ],
    [
      'an entry holding an object',
      manifestWith('[{"taskId":{"a":1}}]'),
      'error.library.manifestShape',
    ],
    [
      'an entry of 20,000 fields',
      manifestWith(`[{${fields(20_000)}}]`),
      'error.library.manifestShape',
    ],
    ['a manifest of 20,000 fields', `{${fields(20_000)}}`, 'error.library.manifestShape'],
    [
      'seven long lists of short lists (millions of values within the byte cap)',
      `{${Array.from({ length: 7 }, (_, i) => `"l${i}":${longList(20_000, `[${Array(16).fill(0).join(',')}]`)}`).join(',')}}`,
      'error.library.manifestShape',
    ],
    [
      'a second list longer than an entry beside the entries',
      `${HEAD.slice(0, -'"entries":'.length)}"more":${longList(17, '0')},"entries":${longList(17, '{}')}}`,
      'error.library.manifestShape',
    ],
    [
      'one entry more than allowed',
      manifestWith(
        `[${Array(MAX_ENTRIES + 1)
          .fill('0')
          .join(',')}]`,
      ),
      'error.library.manifestTooManyFiles',
    ],
  ])('refuses %s without calling JSON.parse', (_label, text, key) => {
    const parse = vi.spyOn(JSON, 'parse');
    const result = parseManifest(text, MAX_ENTRIES);
    expect(result).toMatchObject({ ok: false, problem: { key } });
    expect(parse).not.toHaveBeenCalled();
  });

  it('takes one long list, the entries, beside short ones', () => {
    const text = `${HEAD.slice(0, -'"entries":'.length)}"more":${longList(16, '0')},"entries":${longList(MAX_ENTRIES, '{}')}}`;
    // Past the shape check: refused by the schema (an unknown field), not by its shape.
    expect(parseManifest(text, MAX_ENTRIES)).toMatchObject({
      ok: false,
      problem: { key: 'error.library.manifestInvalid' },
    });
  });

  it('reads brackets, braces and commas inside strings as text', () => {
    const tricky = manifestWith(
      `[{"taskId":"a[{,}]\\"[[[[","path":"p,{[","kind":"image","size":1,"sha256":"${'a'.repeat(64)}"}]`,
    );
    expect(parseManifest(tricky, 1)).toMatchObject({ ok: true });
  });
});

describe('a manifest whose entries are invalid', () => {
  it('checks a quarter of a million empty entries no further than the first', () => {
    const check = vi.spyOn(manifestEntrySchema, 'safeParse');
    const result = parseManifest(
      manifestWith(`[${Array(MAX_ENTRIES).fill('{}').join(',')}]`),
      MAX_ENTRIES,
    );
    expect(result).toMatchObject({
      ok: false,
      problem: { key: 'error.library.manifestInvalid', params: { where: 'entries.0.taskId' } },
    });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('stops at the first invalid entry, and names it', async () => {
    const { files } = await taskFiles();
    const valid = JSON.parse(manifestFor(files).toString('utf8')) as { entries: unknown[] };
    const entries = [...valid.entries, { ...(valid.entries[0] as object), size: -1 }, {}, {}];
    const check = vi.spyOn(manifestEntrySchema, 'safeParse');
    const result = parseManifest(JSON.stringify({ ...valid, entries }), MAX_ENTRIES);
    expect(result).toMatchObject({
      ok: false,
      problem: { key: 'error.library.manifestInvalid', params: { where: 'entries.2.size' } },
    });
    expect(check).toHaveBeenCalledTimes(3);
  });
});

describe('importing a folder with a hostile manifest', () => {
  const library = useLibrary();

  it('refuses it in one sentence, with nothing parsed and nothing written', async () => {
    const folder = join(library.dir, 'unpacked');
    await mkdir(folder);
    await writeFile(
      join(folder, MANIFEST_NAME),
      manifestWith(`${'['.repeat(392_000)}${']'.repeat(392_000)}`),
    );
    const parse = vi.spyOn(JSON, 'parse');
    await expect(importInto(library, folder)).rejects.toThrow(
      'Pictor did not import this folder: The manifest is nested deeper, or holds more fields, than a Pictor export manifest can.',
    );
    expect(parse).not.toHaveBeenCalled();
    expect(await filesUnder(library.root)).toEqual([]);
  });
});
