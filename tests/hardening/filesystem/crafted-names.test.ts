/**
 * Crafted file names where Pictor judges a name: an archive's entries, a folder to import's
 * entries, and the name "Save As…" suggests from a prompt anyone may have written (an imported
 * record's, a shared template's). Names Windows reads as another file (`CON .png` and `nul.tar`
 * are devices, `CONIN$` the console), invisible characters (tag characters, Hangul fillers,
 * variation selectors) and twins a case-insensitive disk takes for one name (`aς` and `aσ`: a
 * final sigma) are judged by pure rules (shared/text/file-names.ts, entry-path.ts) that need no
 * Windows or macOS disk to run here. Real archives, real folders, the real import.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestedFileName } from '../../../electron/app/os/save-name';
import { parseRequestPath } from '../../../electron/app/protocol/request-path';
import { ArchiveRefusedError } from '../../../electron/core/library/archive/archive-errors';
import { hasInvisible, windowsNameRule } from '../../../shared/text/file-names';
import {
  exportEntries,
  taskFiles,
  writeZip,
  type ExportFile,
} from '../../unit/core/library/archive/crafted-export';
import { importInto, useLibrary } from '../../unit/core/library/archive/library-fixture';

const library = useLibrary();

/** Names Windows opens as a device, whatever follows the first dot or spaces before it. */
const DEVICE_NAMES = ['CON .png', 'nul  .json', 'CONIN$', 'conout$.png', 'Aux .tar.gz', 'lpt¹ .x'];
/** Characters that show as nothing, each between two letters. */
const INVISIBLES = {
  'a tag character': '\u{e0041}',
  'a Hangul filler': '\u3164',
  'a half-width Hangul filler': '\uffa0',
  'a variation selector': '\ufe0f',
  'the Mongolian vowel separator': '\u180e',
  'the combining grapheme joiner': '\u034f',
};
const INVISIBLE_NAMES = Object.entries(INVISIBLES).map(([label, c]) => [label, `ima${c}ge.png`]);

async function importArchive(extra: { name: string; data: Buffer }[], files: ExportFile[]) {
  return importInto(library, await writeZip(library.dir, exportEntries(files, extra)));
}

async function expectArchiveRefused(name: string, reason: RegExp): Promise<void> {
  const { files } = await taskFiles();
  const outcome = importArchive([{ name: `strays/${name}`, data: Buffer.from('x') }], files);
  await expect(outcome).rejects.toBeInstanceOf(ArchiveRefusedError);
  await expect(outcome).rejects.toThrow(reason);
  expect(library.history.count({})).toBe(0);
}

describe('an archive naming an entry crafted for another disk or reader', () => {
  it.each(DEVICE_NAMES)('refuses %j (a Windows device) as a whole', async (name) => {
    await expectArchiveRefused(name, /reserved name or character/);
  });

  it.each(INVISIBLE_NAMES)('refuses a name holding %s as a whole', async (_label, name) => {
    await expectArchiveRefused(name, /invisible, control or look-alike/);
  });

  it.each([
    ['a final sigma and a sigma', 'aς.png', 'aσ.png'],
    ['a capital and a small omega', 'Ω.png', 'ω.png'],
    ['a title-case and a small digraph', 'ǅ.png', 'ǆ.png'],
  ])('refuses two entries a case-insensitive disk takes for one: %s', async (_label, a, b) => {
    const { files } = await taskFiles();
    const outcome = importArchive(
      [
        { name: `strays/${a}`, data: Buffer.from('a') },
        { name: `strays/${b}`, data: Buffer.from('b') },
      ],
      files,
    );
    await expect(outcome).rejects.toThrow(/same name/);
    expect(library.history.count({})).toBe(0);
  });
});

/** A real folder holding `files` at their paths (which may be crafted). */
async function folderOf(files: readonly ExportFile[]): Promise<string> {
  const folder = join(library.dir, 'to-import');
  for (const file of files) {
    await mkdir(join(folder, file.path, '..'), { recursive: true });
    await writeFile(join(folder, file.path), file.data);
  }
  return folder;
}

describe('a folder to import holding crafted names', () => {
  it('takes its well-named task and refuses, by name, every crafted entry', async () => {
    const { files } = await taskFiles();
    const crafted = [...DEVICE_NAMES, ...INVISIBLE_NAMES.map(([, name]) => name ?? '')];
    const strays = crafted.map((name) => ({ ...files[0]!, path: `strays/${name}` }));
    const summary = await importInto(library, await folderOf([...files, ...strays]));
    expect(summary.addedTasks).toBe(1);
    expect(summary.refused.map((refused) => refused.path).sort()).toEqual(
      strays.map((stray) => JSON.stringify(stray.path)).sort(),
    );
  });

  it('imports a task from a folder named with emoji, their joiner and selector kept', async () => {
    const task = await taskFiles();
    const moved = task.files.map((file) => ({ ...file, path: `❤️ faves/👩‍🔬/${file.path}` }));
    const summary = await importInto(library, await folderOf(moved));
    expect(summary.refused).toEqual([]);
    expect(summary.addedTasks).toBe(1);
  });

  it('never imports a task from inside a folder whose name is a Windows device', async () => {
    const good = await taskFiles();
    const hidden = await taskFiles();
    const inDevice = hidden.files.map((file) => ({ ...file, path: `CON .x/${file.path}` }));
    const summary = await importInto(library, await folderOf([...good.files, ...inDevice]));
    expect(summary.addedTasks).toBe(1);
    expect(library.history.get(good.record.localId)).toBeDefined();
    expect(library.history.get(hidden.record.localId)).toBeUndefined();
    expect(summary.refused.map((refused) => refused.path)).toEqual([JSON.stringify('CON .x')]);
  });
});

/** What a suggested name must be on every platform. */
function expectPortable(name: string): void {
  expect(windowsNameRule(name)).toBeNull();
  // No invisible character but those a word is made of (the one rule, tried over every code point
  // in tag-board-twins.test.ts), and no control.
  expect(hasInvisible(name)).toBe(false);
  expect(name).not.toMatch(/[\p{Cc}/\\]/u);
  expect(name).not.toMatch(/^[.\s]/);
  expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
}

describe('the name Save As suggests from a prompt anyone may have written', () => {
  it.each([
    ['con.x', 0, 'con image.x.png'],
    ['CON .tar', 0, 'CON image.tar.png'],
    ['conin$', 0, 'conin$ image.png'],
    ['nul.tar', 1, 'nul image.tar 2.png'],
    ['COM¹', 0, 'COM1 image.png'],
    ['in\u200bvoice', 0, 'invoice.png'],
    ['\u3164', 0, 'Pictor image.png'],
    ['a\u{e0041}\u{e0042}b', 0, 'ab.png'],
    ['❤️ and 👩‍🔬', 0, '❤️ and 👩‍🔬.png'],
    ['a\ufe0f\u200db', 0, 'ab.png'],
    // What words are made of stays: a Persian half space, a subdivision flag, a keycap.
    [
      '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
      0,
      '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.png',
    ],
    [
      '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} 1\ufe0f\u20e3',
      0,
      '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} 1\ufe0f\u20e3.png',
    ],
    // A format character that is not default-ignorable (an interlinear annotation anchor) draws nothing.
    ['a\ufff9b', 0, 'ab.png'],
  ])('%j #%i → %j', (prompt, index, expected) => {
    expect(suggestedFileName(prompt, index, 'task/image-1.png')).toBe(expected);
  });

  it('is a name every platform takes, for any prompt', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom('CON', 'nul', 'CONIN$', 'COM¹', 'lpt3', '.', ' ', ':', '❤', '\u3164'),
      fc.constantFrom('\ufe0f', '\u200d', '\u{e0041}', '\u00ad'),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom('a/image-1.png', 'a/image-2.webp', 'a/image-3.jpg'),
        (prompt, index, source) => expectPortable(suggestedFileName(prompt, index, source)),
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('the gallery protocol asked for a name Windows opens as a device', () => {
  it.each(DEVICE_NAMES)('refuses %j', (name) => {
    const url = `pictor-gallery://gallery/2025/01/${encodeURIComponent(name)}`;
    expect(parseRequestPath(url, 'pictor-gallery', 'gallery')).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});
