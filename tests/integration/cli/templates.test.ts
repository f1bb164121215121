/**
 * `pictor template` on a real library, through the CLI's entry in this process (run-cli.ts's runCliHere): each subcommand (ls, show, add, rm,
 * import, export, lists, list-set, list-rm) with and without --json; a Fooocus style list and an
 * A1111 styles.csv imported (format guessed from the name, and said) and exported back to the same
 * styles; exit 2 naming what is wrong: a body's line and column, a taken or unknown name, a word
 * list's bidi character, an import's bad rows by their line; exit 5 with the sentence saying why
 * for an export file that cannot be written; output that cannot drive the terminal.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeRun, newDataDir, runCliHere, type CliRun } from './run-cli';
import { testFolder } from '../../support/per-test';

let dataDir: string;
let home: string;

beforeEach(async () => {
  dataDir = await newDataDir('tpl-data', testFolder);
  home = await testFolder('tpl-home');
});

function pictor(...args: string[]): Promise<CliRun> {
  return runCliHere(['template', ...args, '--data-dir', dataDir], { home, timeoutMs: 60_000 });
}

async function ok(run: Promise<CliRun>, code = 0): Promise<CliRun> {
  const done = await run;
  expect(done.code, describeRun(done)).toBe(code);
  return done;
}

const lines = (run: CliRun) => run.stdout.split('\n').filter((line) => line !== '');
const jsonOut = (run: CliRun) =>
  lines(run).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('pictor template', () => {
  it('adds, shows, updates, lists and removes a template, by any case of its name', async () => {
    await ok(
      pictor(
        'add',
        'Portrait',
        '--body',
        'a {{subject=cat}} by __artists__, {{prompt}}',
        '--negative',
        'blur',
      ),
    );
    const shown = jsonOut(await ok(pictor('show', 'portrait', '--json')))[0];
    expect(shown).toMatchObject({
      name: 'Portrait',
      version: 1,
      negative: 'blur',
      variables: [{ name: 'subject', defaultValue: 'cat' }],
      lists: ['artists'],
    });
    const text = (await ok(pictor('show', 'PORTRAIT'))).stdout;
    expect(text).toContain('Variable: subject (default: cat)');
    // The id `list --template` takes is shown, as its usage error says.
    expect(text).toContain(`Id: ${String((shown as { id: string }).id)}`);
    expect(text).toContain('Word list: artists');
    const bodyFile = join(dataDir, 'body.txt');
    await writeFile(bodyFile, 'new {red|blue} {{prompt}}\n');
    expect((await ok(pictor('add', 'portrait', '--body-file', bodyFile))).stdout).toMatch(
      /Updated \(version 2\) the template Portrait/,
    );
    const listed = jsonOut(await ok(pictor('ls', '--json')));
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'Portrait',
        version: 2,
        body: 'new {red|blue} {{prompt}}',
        negative: 'blur',
      }),
    ]);
    expect(lines(await ok(pictor('ls')))).toEqual(['Portrait\tv2\tnew {red|blue} {{prompt}}']);
    await ok(pictor('rm', 'PORTRAIT'));
    expect(lines(await ok(pictor('ls')))).toEqual([]);
  });

  it('exits 2 naming the problem: a body’s line and column, unknown names, bad usage', async () => {
    const bad = await ok(pictor('add', 'T', '--body', 'fine\nthen {open'), 2);
    expect(bad.stderr).toMatch(/line 2, column 6/);
    expect((await ok(pictor('show', 'nothing'), 2)).stderr).toContain(
      'There is no template "nothing".',
    );
    expect((await ok(pictor('rm', 'nothing'), 2)).stderr).toContain('no template');
    expect((await ok(pictor('add', 'T'), 2)).stderr).toContain('--body');
    expect((await ok(pictor('import', join(dataDir, 'x.txt')), 2)).stderr).toContain('--format');
    expect((await ok(pictor('import', join(dataDir, 'missing.json')), 2)).stderr).toContain(
      'Cannot use that file',
    );
    expect((await ok(pictor('frobnicate'), 2)).stderr).toContain('template takes');
    expect((await ok(pictor('add', 'a\u202Eb', '--body', 'x'), 2)).stderr).toContain('U+202E');
    expect(lines(await ok(pictor('ls')))).toEqual([]);
  });

  it('keeps word lists: set from a file of lines, listed, refused with a bidi word, removed', async () => {
    const file = join(dataDir, 'colors.txt');
    await writeFile(file, 'red\n\n blue \r\ngreen\n');
    await ok(pictor('list-set', 'colors', file));
    expect(jsonOut(await ok(pictor('lists', '--json')))).toEqual([
      { name: 'colors', words: ['red', 'blue', 'green'] },
    ]);
    expect(lines(await ok(pictor('lists')))).toEqual(['colors\t3 word(s)']);
    await writeFile(file, 'fine\nevil\u202Eword\n');
    expect((await ok(pictor('list-set', 'colors', file), 2)).stderr).toMatch(/Word 2 .*U\+202E/);
    expect((await ok(pictor('list-set', 'bad name', file), 2)).stderr).toContain(
      'not a word list name',
    );
    await ok(pictor('list-rm', 'COLORS'));
    expect(lines(await ok(pictor('lists')))).toEqual([]);
    expect((await ok(pictor('list-rm', 'colors'), 2)).stderr).toContain('no word list');
  });

  it('takes a Fooocus style list in and writes it out again as the same styles', async () => {
    const styles = [
      {
        name: 'Fooocus Cinematic',
        prompt: 'cinematic still {prompt} . emotional',
        negative_prompt: 'anime, cartoon',
      },
      { name: 'Plain', prompt: 'a photo', negative_prompt: '' },
      { prompt: 'no name' },
    ];
    const file = join(dataDir, 'sdxl_styles.json');
    await writeFile(file, JSON.stringify(styles));
    const imported = await ok(pictor('import', file));
    expect(imported.stderr).toContain('Read the file as fooocus');
    expect(imported.stderr).toMatch(/entry 3: /);
    expect(imported.stdout).toContain('Imported 2 template(s).');
    const out = join(dataDir, 'out.json');
    await ok(pictor('export', out, '--format', 'fooocus'));
    const written = JSON.parse(await readFile(out, 'utf8')) as unknown[];
    expect(written).toEqual([
      styles[0],
      { name: 'Plain', prompt: '{prompt}, a photo', negative_prompt: '' },
    ]);
  });

  it('takes an A1111 styles.csv in and writes it out again, reporting bad rows by line', async () => {
    const csv =
      'name,prompt,negative_prompt\r\nArtsy,"{prompt}, oil painting, ""fine""",blurry\r\n,"no name",\r\nWide,"{prompt}, wide shot",\r\n';
    const file = join(dataDir, 'styles.csv');
    await writeFile(file, csv);
    const imported = await ok(pictor('import', file));
    expect(imported.stderr).toContain('Read the file as a1111');
    expect(imported.stderr).toMatch(/line 3: A template needs a name\./);
    expect(imported.stdout).toContain('Imported 2 template(s).');
    const out = join(dataDir, 'out.csv');
    const exported = await ok(pictor('export', out, 'artsy', 'WIDE'));
    expect(exported.stderr).toContain('Writing the file as a1111');
    expect(await readFile(out, 'utf8')).toBe(
      'name,prompt,negative_prompt\r\nArtsy,"{prompt}, oil painting, ""fine""",blurry\r\nWide,"{prompt}, wide shot",\r\n',
    );
    // Pictor's own file round trip: same names again are imported beside them, renamed.
    const own = join(dataDir, 'mine.json');
    await ok(pictor('export', own));
    const again = await ok(pictor('import', own));
    expect(again.stderr).toContain('Read the file as pictor');
    expect(again.stderr).toContain('imported as “Artsy (2)”');
    expect(lines(await ok(pictor('ls'))).map((line) => line.split('\t')[0])).toEqual([
      'Artsy',
      'Artsy (2)',
      'Wide',
      'Wide (2)',
    ]);
  });

  it('says why it cannot write an export file there (exit 5), the file that was there kept', async () => {
    await ok(pictor('add', 'Noir', '--body', '{{prompt}}, film noir'));
    const out = join(dataDir, 'out');
    await mkdir(out);
    const kept = join(out, 'styles.json');
    await writeFile(kept, 'the styles of last week');

    const missing = join(out, 'no-such-folder', 'styles.json');
    const noFolder = await ok(pictor('export', missing), 5);
    expect(noFolder.stderr).toContain(
      `Pictor could not save the file ${missing} because its folder does not exist (ENOENT). Nothing was changed there; choose another folder, then try again.\n`,
    );
    expect(noFolder.stderr).not.toMatch(/unexpected problem|Cannot use that file|\n\s+at /);
    expect(noFolder.stdout).toBe('');

    const inFile = join(kept, 'styles.json');
    const notFolder = await ok(pictor('export', inFile), 5);
    expect(notFolder.stderr).toContain(
      `${inFile} because part of its path is a file, not a folder (ENOTDIR).`,
    );
    const tooLong = join(out, `${'a'.repeat(252)}.json`);
    const longName = await ok(pictor('export', tooLong), 5);
    expect(longName.stderr).toContain('because its name is too long (ENAMETOOLONG).');
    expect(await readdir(out)).toEqual(['styles.json']);
    expect(await readFile(kept, 'utf8')).toBe('the styles of last week');

    // The same export over the file that was there.
    await ok(pictor('export', kept));
    expect(await readFile(kept, 'utf8')).toContain('film noir');
    expect(await readdir(out)).toEqual(['styles.json']);
  });

  it('prints names and bodies with control characters made harmless', async () => {
    await ok(pictor('add', 'Esc', '--body', 'red \u001b[31m {{prompt}}'));
    const shown = await ok(pictor('show', 'esc'));
    expect(shown.stdout).not.toContain('\u001b');
    const asJson = await ok(pictor('ls', '--json'));
    expect(asJson.stdout).not.toContain('\u001b');
    expect(jsonOut(asJson)[0]).toMatchObject({ body: 'red \u001b[31m {{prompt}}' });
  });
});
