/**
 * Template files (electron/core/templates/): Pictor's JSON, Fooocus styles, A1111's styles.csv and
 * InvokeAI's presets read into checked templates and written back. Round trips through real files
 * in a temporary folder; the placeholders of each application converted, and every other special
 * character kept literal; the limits (5 MB refused before reading, 10,000 entries) on generated
 * files; bad entries reported by line or index and skipped while the rest import; a file that
 * cannot be read at all refused with a sentence; names made unique; nothing in a file executed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PromptTemplate } from '../../../../shared/domain/prompt-template';
import { englishText, type Sentence } from '../../../../shared/i18n/sentence';
import { UserFacingError } from '../../../../electron/core/errors/user-facing-error';
import {
  exportTemplates,
  type TemplateExportFormat,
} from '../../../../electron/core/templates/template-export';
import {
  importTemplates,
  MAX_TEMPLATE_FILE_BYTES,
  MAX_TEMPLATES_PER_FILE,
  readTemplateFile,
  writeTemplateFile,
  type TemplateFileFormat,
} from '../../../../electron/core/templates/template-files';
import { removeFolder, tempFolderSync } from '../../../support/temp-folders';

const NOW = 1_750_000_000_000;
const bytes = (text: string) => new TextEncoder().encode(text);
const options = { existingNames: [] as string[], now: NOW };
const load = (text: string, format: TemplateFileFormat, existingNames: string[] = []) =>
  importTemplates(bytes(text), format, { ...options, existingNames });
const said = (problem: Sentence) => englishText(problem);
const problemsOf = (result: ReturnType<typeof load>) =>
  result.problems.map(({ problem, ...place }) => ({ ...place, text: said(problem) }));
const essence = (templates: readonly PromptTemplate[]) =>
  templates.map(({ name, body, negative, presets }) => ({ name, body, negative, presets }));

/** The sentence a whole-file refusal says, or a failure when the import went through. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserFacingError);
    expect((error as UserFacingError).code).toBe('bad_input');
    return error instanceof UserFacingError ? error.message : String(error);
  }
  throw new Error('the file was not refused');
}

let folder = '';
beforeEach(() => {
  folder = tempFolderSync('templates');
});
afterEach(async () => {
  await removeFolder(folder);
});

const FOOOCUS_STYLES = [
  {
    name: 'Fooocus Sharp',
    prompt: 'cinematic still {prompt} . emotional, harmonious',
    negative_prompt: 'anime, cartoon',
  },
  {
    name: 'sai-3d-model',
    prompt: 'professional 3d model {prompt} . octane render, {weird|choice}, __wild__ \\ back',
    negative_prompt: '',
  },
  {
    name: 'No placeholder',
    prompt: 'dramatic lighting, film grain',
    negative_prompt: 'ugly, {prompt} stays literal',
  },
  { name: 'Twice', prompt: '{prompt}, then again {prompt}' },
];

const A1111_CSV = [
  'name,prompt,negative_prompt,extra',
  'Cinematic,"cinematic still of {prompt}, 35mm","blurry, low quality",ignored',
  '"Quoted ""name""","{prompt}',
  'second line with {braces} and a | pipe","neg {prompt} part",',
  'Style only,"oil painting, impasto",,',
  '',
].join('\r\n');

describe('Fooocus styles', () => {
  it('convert {prompt} to {{prompt}}, keep every other special character literal, and put the prompt first where a style has none', () => {
    const result = load(JSON.stringify(FOOOCUS_STYLES), 'fooocus');
    expect(result.problems).toEqual([]);
    expect(essence(result.templates)).toEqual([
      {
        name: 'Fooocus Sharp',
        body: 'cinematic still {{prompt}} . emotional, harmonious',
        negative: 'anime, cartoon',
        presets: undefined,
      },
      {
        name: 'sai-3d-model',
        body: 'professional 3d model {{prompt}} . octane render, \\{weird\\|choice\\}, \\_\\_wild\\_\\_ \\\\ back',
        negative: undefined,
        presets: undefined,
      },
      {
        name: 'No placeholder',
        body: '{{prompt}}, dramatic lighting, film grain',
        negative: 'ugly, \\{prompt\\} stays literal',
        presets: undefined,
      },
      {
        name: 'Twice',
        body: '{{prompt}}, then again {{prompt}}',
        negative: undefined,
        presets: undefined,
      },
    ]);
    for (const template of result.templates) {
      expect(template).toMatchObject({ version: 1, createdAt: NOW, updatedAt: NOW });
      expect(template.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(result.templates.map((template) => template.id)).size).toBe(4);
  });

  it('round-trip through a real file: import, export, import gives the same templates', async () => {
    const source = join(folder, 'sdxl_styles_fooocus.json');
    await writeFile(source, JSON.stringify(FOOOCUS_STYLES, null, 4));
    const first = importTemplates(await readTemplateFile(source), 'fooocus', options);
    const exported = exportTemplates(first.templates, 'fooocus');
    expect(exported).toMatchObject({ count: 4, problems: [] });
    const target = join(folder, 'out', 'styles.json');
    await mkdir(join(folder, 'out'));
    await writeTemplateFile(target, exported.text);
    const second = importTemplates(await readTemplateFile(target), 'fooocus', options);
    expect(essence(second.templates)).toEqual(essence(first.templates));
    const written = JSON.parse(await readFile(target, 'utf8')) as {
      name: string;
      prompt: string;
    }[];
    expect(written[1]?.prompt).toBe(FOOOCUS_STYLES[1]?.prompt);
  });

  it('refuse a JSON object, which is not a list of styles', () => {
    expect(refusal(() => load('{"name": "x", "prompt": "{prompt}"}', 'fooocus'))).toBe(
      'The file does not hold a list of styles: this format is a JSON list, starting with “[”.',
    );
  });

  it('report each bad entry by its index and import the rest', () => {
    const entries = [
      { name: 'ok', prompt: '{prompt}' },
      42,
      { prompt: 'no name' },
      { name: 'n', prompt: 7 },
      null,
      { name: '  ' },
      { name: 'fine' },
    ];
    const result = load(JSON.stringify(entries), 'fooocus');
    expect(result.templates.map((template) => template.name)).toEqual(['ok', 'fine']);
    const invalid = 'This entry is not a template Pictor can read.';
    expect(problemsOf(result)).toEqual([
      { index: 1, text: invalid },
      { index: 2, text: invalid },
      { index: 3, text: invalid },
      { index: 4, text: invalid },
      { index: 5, text: 'A template needs a name.' },
    ]);
  });
});

describe('A1111 styles.csv', () => {
  it('reads quoted names, quoted line breaks and CRLF, ignores extra columns, reports nothing', () => {
    const result = load(A1111_CSV, 'a1111');
    expect(result.problems).toEqual([]);
    expect(essence(result.templates)).toEqual([
      {
        name: 'Cinematic',
        body: 'cinematic still of {{prompt}}, 35mm',
        negative: 'blurry, low quality',
        presets: undefined,
      },
      {
        name: 'Quoted "name"',
        body: '{{prompt}}\r\nsecond line with \\{braces\\} and a \\| pipe',
        negative: 'neg  part',
        presets: undefined,
      },
      {
        name: 'Style only',
        body: '{{prompt}}, oil painting, impasto',
        negative: undefined,
        presets: undefined,
      },
    ]);
  });

  it('reads a BOM, LF line ends, spaces after commas and the old "text" column', () => {
    const text = '\ufeffname, text, negative_prompt\nA, "a {prompt}, b", c\n';
    const result = load(text, 'a1111');
    expect(essence(result.templates)).toEqual([
      { name: 'A', body: 'a {{prompt}}, b', negative: 'c', presets: undefined },
    ]);
  });

  it('round-trip through a real file: import, export, import gives the same templates', async () => {
    const source = join(folder, 'styles.csv');
    await writeFile(source, A1111_CSV);
    const first = importTemplates(await readTemplateFile(source), 'a1111', options);
    const exported = exportTemplates(first.templates, 'a1111');
    expect(exported).toMatchObject({ count: 3, problems: [] });
    expect(exported.text.startsWith('name,prompt,negative_prompt\r\n')).toBe(true);
    const target = join(folder, 'exported.csv');
    await writeTemplateFile(target, exported.text);
    const second = importTemplates(await readTemplateFile(target), 'a1111', options);
    expect(essence(second.templates)).toEqual(essence(first.templates));
  });

  it('report bad rows by the line they start on, and import the good ones', () => {
    const text = [
      'name,prompt,negative_prompt',
      'good one,{prompt},',
      `"two\nlines\nof name",{prompt},`,
      '"closed"then text,{prompt},',
      `bidi\u202ename,{prompt},`,
      `long,"${'x'.repeat(33_000)}",`,
      'after long,{prompt},',
      'good two,"{prompt}',
      'spanning",',
    ].join('\n');
    const result = load(text, 'a1111');
    expect(result.templates.map((template) => template.name)).toEqual([
      'good one',
      'after long',
      'good two',
    ]);
    expect(problemsOf(result)).toEqual([
      { line: 3, text: 'A template’s name cannot contain the character U+000A.' },
      { line: 6, text: expect.stringContaining('text right after a closing quote') as string },
      { line: 7, text: 'A template’s name cannot contain the character U+202E.' },
      {
        line: 8,
        text: 'A template’s prompt can have at most 32,000 characters; this one has 33,012.',
      },
    ]);
  });

  it('import the rows before a quote that never closes, and say where it opened', () => {
    const result = load('name,prompt\nfirst,{prompt}\nsecond,"{prompt}\nthird,x\n', 'a1111');
    expect(result.templates.map((template) => template.name)).toEqual(['first']);
    expect(problemsOf(result)).toEqual([
      {
        line: 3,
        text: 'The quote opened on line 3 is never closed, so the rest of the file cannot be read.',
      },
    ]);
  });

  it.each([
    ['no header at all', '\n\n \n'],
    ['a header without prompt', 'name,negative_prompt\na,b\n'],
    ['a header without name', 'title,prompt\na,b\n'],
  ])('refuse %s with a sentence', (_, text) => {
    expect(refusal(() => load(text, 'a1111'))).toMatch(
      /^The file( is empty|’s first line must name its columns)/,
    );
  });
});

describe('InvokeAI presets', () => {
  it('convert [prompt] in JSON and CSV, with prompt or positive_prompt, and its own preset_data', () => {
    const json = JSON.stringify([
      { name: 'A', prompt: 'a [prompt] b {x}', negative_prompt: 'n [prompt]' },
      { name: 'B', positive_prompt: '[prompt] only' },
      {
        name: 'C',
        type: 'default',
        preset_data: { positive_prompt: 'sketch of [prompt]', negative_prompt: 'color' },
      },
      { name: 'D', prompt: 'no placeholder' },
    ]);
    expect(essence(load(json, 'invokeai').templates)).toEqual([
      { name: 'A', body: 'a {{prompt}} b \\{x\\}', negative: 'n ', presets: undefined },
      { name: 'B', body: '{{prompt}} only', negative: undefined, presets: undefined },
      { name: 'C', body: 'sketch of {{prompt}}', negative: 'color', presets: undefined },
      { name: 'D', body: '{{prompt}} no placeholder', negative: undefined, presets: undefined },
    ]);
    const csv = 'name,prompt,negative_prompt\r\nA,"a [prompt], {prompt} b",\r\n';
    expect(essence(load(csv, 'invokeai').templates)).toEqual([
      { name: 'A', body: 'a {{prompt}}, \\{prompt\\} b', negative: undefined, presets: undefined },
    ]);
  });
});

describe('Pictor template files', () => {
  const templates = (): PromptTemplate[] =>
    load(JSON.stringify(FOOOCUS_STYLES), 'fooocus').templates.map((template, index) =>
      index === 0
        ? { ...template, presets: { pictor: { model: 'm', size: '1024x1024', count: 2 } } }
        : template,
    );

  it('round-trip everything, presets included, written pretty', async () => {
    const exported = exportTemplates(templates(), 'pictor');
    expect(exported.text).toContain('\n  "format": "pictor-templates",\n  "schemaVersion": 1,');
    const path = join(folder, 'templates.json');
    await writeTemplateFile(path, exported.text);
    const read = importTemplates(await readTemplateFile(path), 'pictor', options);
    expect(read.problems).toEqual([]);
    expect(essence(read.templates)).toEqual(essence(templates()));
    expect(read.templates[0]?.createdAt).toBe(NOW);
  });

  it('refuse a newer schema version and what is not a Pictor file, with sentences', () => {
    const newer = JSON.stringify({ format: 'pictor-templates', schemaVersion: 2, templates: [] });
    expect(refusal(() => load(newer, 'pictor'))).toBe(
      'The file was written by a newer version of Pictor (template format 2). Update Pictor to read it.',
    );
    for (const text of ['[]', '{"format":"other","schemaVersion":1,"templates":[]}', '"text"']) {
      expect(refusal(() => load(text, 'pictor'))).toBe('The file is not a Pictor template file.');
    }
  });

  it('read __proto__ and constructor keys as keys: nothing is polluted, the entry is checked as any other', () => {
    const text = `{"format":"pictor-templates","schemaVersion":1,"__proto__":{"polluted":1},"templates":[
      {"name":"a","body":"{{prompt}}","__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}}},
      {"name":"b","body":"x","presets":{"__proto__":{"count":1}}},
      {"name":"c","body":"x","presets":{"constructor":{"count":1}}}]}`;
    const result = load(text, 'pictor');
    expect(result.templates.map((template) => template.name)).toEqual(['a']);
    expect(result.problems.map((problem) => problem.index)).toEqual([1, 2]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(result.templates[0])).toBe(Object.prototype);
    expect(Object.keys(result.templates[0] ?? {})).not.toContain('constructor');
  });
});

describe('names', () => {
  it('that an existing template or an earlier entry has, in any case, get " (2)", " (3)"…, reported', () => {
    const entries = [
      { name: 'Sketch', prompt: '{prompt}' },
      { name: 'SKETCH', prompt: '{prompt}' },
      { name: 'Other' },
      { name: 'sketch (2)' },
    ];
    const result = load(JSON.stringify(entries), 'fooocus', ['sketch']);
    expect(result.templates.map((template) => template.name)).toEqual([
      'Sketch (2)',
      'SKETCH (3)',
      'Other',
      'sketch (2) (2)',
    ]);
    expect(problemsOf(result).map((problem) => problem.text)).toEqual([
      'A template named “Sketch” already exists, so this one was imported as “Sketch (2)”.',
      'A template named “SKETCH” already exists, so this one was imported as “SKETCH (3)”.',
      'A template named “sketch (2)” already exists, so this one was imported as “sketch (2) (2)”.',
    ]);
  });

  it('stay within 100 characters when renamed', () => {
    const long = 'n'.repeat(100);
    const result = load(JSON.stringify([{ name: long }, { name: long }]), 'fooocus');
    expect(result.templates[1]?.name).toBe(`${'n'.repeat(96)} (2)`);
  });
});

describe('export to formats that hold less', () => {
  const made = (body: string, negative?: string): PromptTemplate => ({
    id: '0b7f2c1e-4a3d-4c5b-9e8f-1a2b3c4d5e6f',
    name: `T ${body}`,
    body,
    ...(negative === undefined ? {} : { negative }),
    version: 3,
    createdAt: NOW,
    updatedAt: NOW,
  });

  it.each<[string, TemplateExportFormat]>([
    ['{a|b} {{prompt}}', 'a1111'],
    ['__colours__ {{prompt}}', 'fooocus'],
    ['{{subject}} {{prompt}}', 'a1111'],
    ['\\q {{prompt}}', 'a1111'],
    ['\\{prompt\\} {{prompt}}', 'a1111'],
    ['\\{prompt\\} {{prompt}}', 'fooocus'],
  ])('leave out %s (%s) with a sentence, never changing its meaning', (body, format) => {
    const exported = exportTemplates([made(body), made('ok {{prompt}}')], format);
    expect(exported.count).toBe(1);
    expect(exported.problems.map((problem) => [problem.leftOut, said(problem.problem)])).toEqual([
      [true, expect.stringContaining(`The template “T ${body}” uses more than`) as string],
    ]);
  });

  it('leave out a body with no prompt, and a negative the target would read as a placeholder', () => {
    const exported = exportTemplates(
      [made('just words'), made('{{prompt}}', 'neg \\{prompt\\}')],
      'a1111',
    );
    expect(exported.count).toBe(0);
    expect(exported.problems.map((problem) => said(problem.problem))).toEqual([
      'The template “T just words” does not place your prompt anywhere, and AUTOMATIC1111 would add your prompt before it, so it was left out of the file.',
      'The template “T {{prompt}}” uses more than AUTOMATIC1111 can hold (choices, wildcards or other placeholders), so it was left out of the file.',
    ]);
    const fooocus = exportTemplates([made('{{prompt}}', 'neg \\{prompt\\}')], 'fooocus');
    expect(fooocus).toMatchObject({ count: 1, problems: [] });
  });

  it('write a template with presets by its prompts, and say the presets stay behind', () => {
    const template = { ...made('{{prompt}}'), presets: { pictor: { count: 2 } } };
    const exported = exportTemplates([template], 'fooocus');
    expect(exported.count).toBe(1);
    expect(exported.problems.map((problem) => [problem.leftOut, said(problem.problem)])).toEqual([
      [
        false,
        'The template “T {{prompt}}” has settings for services, which Fooocus has no place for: the file holds its prompts only.',
      ],
    ]);
  });
});

describe('files that cannot be read', () => {
  it('refuse a file over 5 MB before reading it, and read one of exactly 5 MB', async () => {
    const path = join(folder, 'big.csv');
    const row = 'name,"{prompt}"\n';
    const body = 'name,prompt\n' + row.repeat(Math.ceil(MAX_TEMPLATE_FILE_BYTES / row.length));
    await writeFile(path, body.slice(0, MAX_TEMPLATE_FILE_BYTES + 1));
    await expect(readTemplateFile(path)).rejects.toThrow(
      'The file is larger than 5 MB, more than a template file holds. Choose another file.',
    );
    await writeFile(path, Buffer.alloc(MAX_TEMPLATE_FILE_BYTES, 0x20));
    expect((await readTemplateFile(path)).length).toBe(MAX_TEMPLATE_FILE_BYTES);
    expect(
      refusal(() =>
        importTemplates(Buffer.alloc(MAX_TEMPLATE_FILE_BYTES + 1, 0x20), 'a1111', options),
      ),
    ).toMatch(/larger than 5 MB/);
  });

  it('refuse a folder and a FIFO without waiting on it', async () => {
    await expect(readTemplateFile(folder)).rejects.toThrow(/.+/);
    if (process.platform === 'win32') return;
    const fifo = join(folder, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    await expect(readTemplateFile(fifo)).rejects.toThrow(
      'This is not a file Pictor can read templates from.',
    );
  });

  it('name 10,000 entries of one name (2) to (10,000), each number tried once, beside names the library has', () => {
    // A crafted styles.csv: every row named "A" (whatever the case). Each rename resumes where
    // the last one of that name stopped: the file is named in one pass, not one pass per row.
    const rows = Array.from(
      { length: MAX_TEMPLATES_PER_FILE },
      (_, i) => `${i % 2 ? 'a' : 'A'},{prompt}\n`,
    );
    const imported = importTemplates(
      new TextEncoder().encode(`name,prompt\n${rows.join('')}`),
      'a1111',
      {
        existingNames: ['A (3)'],
        now: 1,
      },
    );
    const names = imported.templates.map((template) => template.name);
    expect(names).toHaveLength(MAX_TEMPLATES_PER_FILE);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(MAX_TEMPLATES_PER_FILE);
    expect(names.slice(0, 4)).toEqual(['A', 'a (2)', 'A (4)', 'a (5)']);
    expect(names.at(-1)).toBe(`a (${String(MAX_TEMPLATES_PER_FILE + 1)})`);
  });

  it('take 10,000 templates from one file and refuse 10,001, in every format', () => {
    const csv = (count: number) =>
      `name,prompt\n${Array.from({ length: count }, (_, i) => `t${i},{prompt}\n`).join('')}`;
    const list = (count: number) =>
      JSON.stringify(
        Array.from({ length: count }, (_, i) => ({ name: `t${i}`, prompt: '{prompt}' })),
      );
    const pictor = (count: number) =>
      JSON.stringify({
        format: 'pictor-templates',
        schemaVersion: 1,
        templates: Array.from({ length: count }, (_, i) => ({ name: `t${i}`, body: 'x' })),
      });
    expect(load(csv(MAX_TEMPLATES_PER_FILE), 'a1111').templates).toHaveLength(
      MAX_TEMPLATES_PER_FILE,
    );
    expect(load(list(MAX_TEMPLATES_PER_FILE), 'fooocus').templates).toHaveLength(
      MAX_TEMPLATES_PER_FILE,
    );
    const tooMany =
      'The file holds more than 10,000 templates; Pictor reads at most 10,000 from one file.';
    expect(refusal(() => load(csv(MAX_TEMPLATES_PER_FILE + 1), 'a1111'))).toBe(tooMany);
    expect(refusal(() => load(list(MAX_TEMPLATES_PER_FILE + 1), 'invokeai'))).toBe(tooMany);
    expect(refusal(() => load(pictor(MAX_TEMPLATES_PER_FILE + 1), 'pictor'))).toBe(tooMany);
  });

  it.each<[string, Uint8Array, TemplateFileFormat, string]>([
    ['an empty file', new Uint8Array(0), 'a1111', 'The file is empty: it holds no templates.'],
    [
      'a file of only spaces and a BOM',
      bytes('\ufeff \n\t'),
      'fooocus',
      'The file is empty: it holds no templates.',
    ],
    [
      'Latin-1 bytes',
      Uint8Array.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xe9, 0x0a]),
      'a1111',
      'The file is not UTF-8 text, so Pictor cannot read templates from it. Save it as UTF-8 and try again.',
    ],
    [
      'UTF-16 with its BOM',
      Uint8Array.from([0xff, 0xfe, 0x5b, 0x00, 0x5d, 0x00]),
      'fooocus',
      'The file is not UTF-8 text, so Pictor cannot read templates from it. Save it as UTF-8 and try again.',
    ],
    [
      'an overlong UTF-8 encoding',
      Uint8Array.from([0x5b, 0xc0, 0xaf, 0x5d]),
      'fooocus',
      'The file is not UTF-8 text, so Pictor cannot read templates from it. Save it as UTF-8 and try again.',
    ],
    [
      'JSON cut short',
      bytes('[{"name": "a", '),
      'fooocus',
      'The file is not valid JSON, so Pictor cannot read templates from it.',
    ],
    [
      'a CSV given as Pictor JSON',
      bytes('name,prompt\na,b'),
      'pictor',
      'The file is not valid JSON, so Pictor cannot read templates from it.',
    ],
  ])('refuse %s with a clear sentence', (_, input, format, sentence) => {
    expect(refusal(() => importTemplates(input, format, options))).toBe(sentence);
  });
});
