/**
 * Text a crafted file puts where the CLI prints it for a person: characters a terminal draws as
 * nothing (a zero-width space, the word joiner, a BOM, tag characters U+E0000–U+E007F that spell
 * hidden words, a soft hyphen). The CLI showed controls and bidi controls as visible escapes
 * (terminal-text.test.ts) and printed these as they came: two options whose defaults differ only
 * by one read as the same, and a tag-spelled text read as nothing at all. Now every format
 * character is shown by its code (`U+200B`, `U+E0041`) as bidi controls are; the zero-width joiner
 * and non-joiner, which Persian, the Indic scripts and emoji need, print as they are. Through
 * terminalSafe over generated text, and the real CLI: `models show` of a kept options file
 * written by another hand, whose entry holding such texts is now left out at reading
 * (model-params.ts's shownOptionText), so none reaches the terminal; a library's records holding
 * them are printed by their codes (cli-hostile-library.test.ts).
 */
import fc from 'fast-check';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalSafe } from '../../../electron/cli/terminal-text';
import { runCliHere } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** What a terminal draws as nothing, or half a character. */
const INVISIBLE =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

const TAGGED = `calm${[...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`;
const TEXTS = ['ca\u200blm', 'calm\u2060', '\ufeffcalm', 'cal\u00adm', TAGGED, 'calm\u2063'];

let home = '';
beforeAll(async () => {
  home = await tempFolder('terminal-invisibles');
});
afterAll(async () => {
  await removeFolder(home);
});

describe('invisible characters on the terminal', () => {
  it('models show: a kept entry whose defaults hold them is left out, nothing printed', async () => {
    const dataDir = join(home, 'kept');
    await mkdir(dataDir, { recursive: true });
    const params = Object.fromEntries(
      TEXTS.map((text, i) => [`style_${i}`, { type: 'string', maxLength: 200, default: text }]),
    );
    const entry = { provider: 'pictor', model: 'kept-texts', origin: 'file', at: 1, params };
    await writeFile(
      join(dataDir, 'model-options.json'),
      JSON.stringify({ version: 1, models: [entry] }),
    );
    const show = await runCliHere(
      ['models', 'show', 'kept-texts', '--provider', 'pictor', '--data-dir', dataDir],
      { home },
    );
    expect(show.code, show.stdout).toBe(2);
    expect(show.stderr).toContain('Pictor knows no options of that model on that service');
    expect(show.stdout + show.stderr).not.toMatch(INVISIBLE);
  });

  it('terminalSafe: nothing invisible is left, and two texts that differ by one print apart', () => {
    const piece = fc.oneof(
      fc.constantFrom('\u200b', '\u2060', '\ufeff', '\u00ad', '\u{e0041}', '\u2064', '\ud800'),
      fc.string({ maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.nat(), (parts, at) => {
        const text = parts.join('');
        expect(terminalSafe(text)).not.toMatch(INVISIBLE);
        const cut = at % (text.length + 1);
        const hidden = `${text.slice(0, cut)}\u200b${text.slice(cut)}`;
        expect(terminalSafe(hidden)).not.toBe(terminalSafe(text));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what scripts and emoji need: the joiners, accents, right-to-left letters', () => {
    for (const text of ['می‌خواهم', 'family 👨‍👩‍👧', 'Un phare au crépuscule', 'מגדלור']) {
      expect(terminalSafe(text)).toBe(text);
    }
  });
});
