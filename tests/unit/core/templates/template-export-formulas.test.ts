/**
 * Templates exported as an A1111 `styles.csv` leave no formula live: a name, prompt or negative
 * prompt a spreadsheet would run (`=`, `+`, `-`, `@`, a tab, a CR first) is written with a leading
 * apostrophe by the one CSV cell writer the costs CSV uses too (core/base/csv-cell.ts). A1111's
 * own reading (Python's `csv`, `skipinitialspace`; and csv-rows.ts, which reads as it does) gets
 * every other name as written and those with the apostrophe; Pictor's import takes off exactly
 * that apostrophe, so a real file exported and imported again gives the same templates.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptTemplate } from '../../../../shared/domain/prompt-template';
import { readCsv } from '../../../../electron/core/templates/csv-rows';
import { exportTemplates } from '../../../../electron/core/templates/template-export';
import {
  importTemplates,
  readTemplateFile,
  writeTemplateFile,
} from '../../../../electron/core/templates/template-files';
import { removeFolder, tempFolderSync } from '../../../support/temp-folders';

const NOW = 1_750_000_000_000;

function made(name: string, body: string, negative?: string): PromptTemplate {
  return {
    id: '0b7f2c1e-4a3d-4c5b-9e8f-1a2b3c4d5e6f',
    name,
    body,
    ...(negative === undefined ? {} : { negative }),
    version: 1,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

/** Styles a spreadsheet would run, beside plain ones and an apostrophe that is text. */
const TEMPLATES: readonly PromptTemplate[] = [
  made('=HYPERLINK("https://evil.example","click")', '{{prompt}}, cinematic'),
  made('+cmd', '=1+1 {{prompt}}', '@SUM(A1:A9)'),
  made('-minus', '-{{prompt}}', '\tTAB'),
  made('@at', '{{prompt}}', '\rCR first'),
  made("'=already quoted", '{{prompt}}'),
  made("it's plain", '{{prompt}}, a = b', 'blurry, "soft"'),
  made('Cinematic', 'cinematic still of {{prompt}}', 'cartoon'),
];

/** What A1111 would read as each style's name, prompt and negative (csv-rows reads as Python does). */
function a1111Rows(text: string): string[][] {
  const [, ...rows] = readCsv(text, 100).records;
  return rows.map((row) => [...row.fields]);
}

const FORMULA = /^[=+\-@\t\r]/;

let folder = '';
beforeEach(() => {
  folder = tempFolderSync('template-formulas');
});
afterEach(async () => {
  await removeFolder(folder);
});

describe('an A1111 styles.csv export', () => {
  it('writes no cell a spreadsheet would run as a formula', () => {
    const { text, count, problems } = exportTemplates(TEMPLATES, 'a1111');
    expect([count, problems]).toEqual([TEMPLATES.length, []]);
    for (const cell of a1111Rows(text).flat()) expect(cell).not.toMatch(FORMULA);
  });

  it('is read by A1111 as written: a formula-like cell after an apostrophe, every other cell as it is', () => {
    const rows = a1111Rows(exportTemplates(TEMPLATES, 'a1111').text);
    expect(rows.map(([name]) => name)).toEqual([
      `'=HYPERLINK("https://evil.example","click")`,
      "'+cmd",
      "'-minus",
      "'@at",
      "''=already quoted",
      "it's plain",
      'Cinematic',
    ]);
    expect(rows[1]).toEqual(["'+cmd", "'=1+1 {prompt}", "'@SUM(A1:A9)"]);
    expect(rows[2]).toEqual(["'-minus", "'-{prompt}", "'\tTAB"]);
    expect(rows[5]).toEqual(["it's plain", '{prompt}, a = b', 'blurry, "soft"']);
    expect(rows[6]).toEqual(['Cinematic', 'cinematic still of {prompt}', 'cartoon']);
  });

  it('imports into Pictor again exactly as it was, through a real file', async () => {
    const file = join(folder, 'styles.csv');
    await writeTemplateFile(file, exportTemplates(TEMPLATES, 'a1111').text);
    const back = importTemplates(await readTemplateFile(file), 'a1111', {
      existingNames: [],
      now: NOW,
    });
    expect(back.problems).toEqual([]);
    expect(back.templates.map(({ name, body, negative }) => ({ name, body, negative }))).toEqual(
      TEMPLATES.map(({ name, body, negative }) => ({ name, body, negative })),
    );
  });
});

/** Python's `csv`, as A1111 reads styles (modules/styles.py: DictReader, skipinitialspace). */
function pythonNames(file: string): string[] | null {
  const script = [
    'import csv, json, sys',
    'with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:',
    '    print(json.dumps([row["name"] for row in csv.DictReader(f, skipinitialspace=True)]))',
  ].join('\n');
  try {
    return JSON.parse(
      execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }),
    ) as string[];
  } catch {
    return null;
  }
}

const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', 'import csv'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

// Where Python is installed (the test machines here have it), A1111's own reader is asked too.
describe.runIf(hasPython)('the same file read by Python’s csv, as A1111 reads it', () => {
  it('gets the names csv-rows.ts gets', async () => {
    const text = exportTemplates(TEMPLATES, 'a1111').text;
    const file = join(folder, 'styles.csv');
    await writeTemplateFile(file, text);
    expect(pythonNames(file)).toEqual(a1111Rows(text).map(([name]) => name));
  });
});
