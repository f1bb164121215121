/**
 * A ComfyUI workflow's name is its file's name (`comfyui-workflows/<name>.json`), in a data folder
 * that moves with the library between systems. On real files, through the book both fronts save
 * with and through a real `pictor comfy import`:
 * - a name Windows reads as another (a device before the first dot, a trailing dot or space) or
 *   that hides a character is refused with its reason, nothing written;
 * - names that differ only in case are one workflow on every system, as macOS and Windows keep
 *   them in one file: a save under the other spelling replaces it, under the name it had, and a
 *   lookup and a removal find it by either (a newer Pictor's such file is still never replaced);
 * - a book an older Pictor kept on Linux loses nothing: a workflow named `CON` or `aux.json` is
 *   listed, run and removed as before; two files whose names differ only in case both stay, each
 *   found by its own name, and a third spelling, which cannot tell them apart, is refused with a
 *   sentence naming both, neither file touched.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  WorkflowBook,
  WorkflowNameError,
  WorkflowSaveError,
} from '../../../electron/core/workflows';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import type { ComfyWorkflow } from '../../../shared/domain/comfy-workflow';
import { workflowNameRefusal } from '../../../shared/domain/workflow-name';
import { runCliHere } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let dataDir: string;
let folder: string;
beforeEach(async () => {
  dir = await tempFolder('workflow-names');
  dataDir = join(dir, 'data');
  folder = join(dataDir, 'comfyui-workflows');
  await mkdir(folder, { recursive: true });
});
afterEach(async () => {
  await removeFolder(dir);
});

/** Another workflow than the default, told apart by its prompt's input. */
const OTHER: ComfyWorkflow = {
  graph: {
    ...DEFAULT_WORKFLOW.graph,
    '6': { class_type: 'CLIPTextEncode', inputs: { text: 'the other one', clip: ['4', 1] } },
  },
  map: DEFAULT_WORKFLOW.map,
};

/** A file as this version writes it, as an older Pictor (this format) left it. */
const stored = (workflow: ComfyWorkflow) => JSON.stringify({ version: 1, workflow });

/** The workflow the file `file` of the folder holds, as this version reads it. */
async function inFile(file: string): Promise<unknown> {
  return (JSON.parse(await readFile(join(folder, file), 'utf8')) as { workflow: unknown }).workflow;
}

async function files(): Promise<string[]> {
  return (await readdir(folder)).sort();
}

async function refusal(book: WorkflowBook, name: string): Promise<WorkflowNameError> {
  const thrown = await book.save(name, DEFAULT_WORKFLOW).catch((error: unknown) => error);
  expect(thrown, name).toBeInstanceOf(WorkflowNameError);
  return thrown as WorkflowNameError;
}

describe('a new workflow’s name', () => {
  it.each([
    ['CON', 'device'],
    ['nul', 'device'],
    ['aux.json', 'device'],
    ['Com1.v2', 'device'],
    ['lpt9', 'device'],
    ['portrait.', 'ending'],
    ['portrait ', 'ending'],
    ['port\u200brait', 'invisible'],
    ['\u202eportrait', 'invisible'],
    ['portr\u00e9t', 'form'],
    ['portre\u0301t', 'form'],
    ['../settings', 'form'],
  ] as const)('%j is refused (%s) with its reason, nothing written', async (name, problem) => {
    const book = new WorkflowBook(dataDir);
    const refused = await refusal(book, name);
    expect(refused.code).toBe('bad_input');
    expect(refused.sentence?.key).toBe('error.workflow.refused');
    expect(refused.message).toBe(
      `Pictor did not import this workflow: ${workflowNameRefusal(problem)} Nothing was saved.`,
    );
    expect(await files()).toEqual([]);
  });
});

describe('names that differ only in case', () => {
  it.each([
    ['Portrait', 'portrait'],
    ['portrait', 'PORTRAIT'],
    ['SDXL-Base_1.0', 'sdxl-base_1.0'],
    ['a.B_c-D', 'A.b_C-d'],
  ])('%j then %j: one workflow, replaced, kept under its first name', async (first, second) => {
    const book = new WorkflowBook(dataDir);
    expect(await book.save(first, DEFAULT_WORKFLOW)).toBe(first);
    expect(await book.save(second, OTHER)).toBe(first);
    expect(await files()).toEqual([`${first}.json`]);
    expect(await inFile(`${first}.json`)).toEqual(OTHER);
    expect((await book.list()).map((row) => row.name)).toEqual([first]);
    for (const spelling of [first, second, first.toUpperCase(), first.toLowerCase()])
      expect(await book.lookup(spelling), spelling).toEqual(OTHER);
    expect(await book.remove(second)).toBe(true);
    expect(await files()).toEqual([]);
    expect(await book.lookup(first)).toBeUndefined();
  });

  it('never replaces a newer Pictor’s workflow spelled otherwise', async () => {
    const newer = JSON.stringify({ version: 2, workflows: { graph: {} } });
    await writeFile(join(folder, 'Sketch.json'), newer);
    const book = new WorkflowBook(dataDir);
    const thrown = await book.save('sketch', DEFAULT_WORKFLOW).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(WorkflowSaveError);
    expect((thrown as Error).message).toMatch(/Sketch was saved by a newer version of Pictor/);
    expect(await files()).toEqual(['Sketch.json']);
    expect(await readFile(join(folder, 'Sketch.json'), 'utf8')).toBe(newer);
  });
});

describe('a book an older Pictor kept on Linux', () => {
  /** Its files: names the rule now refuses, and two spellings of one name. */
  const OLD_BOOK: Record<string, ComfyWorkflow> = {
    'CON.json': DEFAULT_WORKFLOW,
    'aux.json.json': OTHER,
    'nul.v2.json': DEFAULT_WORKFLOW,
    'com1.json': OTHER,
    'Portrait.json': DEFAULT_WORKFLOW,
    'portrait.json': OTHER,
    'landscape.json': DEFAULT_WORKFLOW,
  };

  beforeEach(async () => {
    for (const [file, workflow] of Object.entries(OLD_BOOK))
      await writeFile(join(folder, file), stored(workflow));
  });

  it('lists every workflow it kept, and each is run by its own name', async () => {
    const book = new WorkflowBook(dataDir);
    const listed = await book.list();
    expect(listed.map((row) => `${row.name}.json`).sort()).toEqual(Object.keys(OLD_BOOK).sort());
    for (const [file, workflow] of Object.entries(OLD_BOOK)) {
      const name = file.slice(0, -'.json'.length);
      expect(await book.lookup(name), name).toEqual(workflow);
      expect(listed.find((row) => row.name === name)?.workflow, name).toEqual(workflow);
    }
  });

  it('removes a workflow kept under a device’s name, and refuses to save one under it', async () => {
    const book = new WorkflowBook(dataDir);
    await refusal(book, 'CON');
    await refusal(book, 'aux.json');
    expect(await readFile(join(folder, 'CON.json'), 'utf8')).toBe(stored(DEFAULT_WORKFLOW));
    expect(await book.remove('CON')).toBe(true);
    expect(await book.remove('aux.json')).toBe(true);
    expect(await files()).not.toContain('CON.json');
    expect(await files()).not.toContain('aux.json.json');
  });

  it('keeps both spellings of one name: each its own, a third refused, naming both', async () => {
    const book = new WorkflowBook(dataDir);
    const before = await files();
    const refused = await refusal(book, 'PORTRAIT');
    expect(refused.message).toMatch(/The workflows Portrait, portrait have names that differ only/);
    expect(await book.lookup('PORTRAIT')).toBeUndefined();
    expect(await book.remove('PORTRAIT')).toBe(false);
    expect(await files()).toEqual(before);
    // Each spelling the disk holds is its own workflow, replaced by its own name only.
    expect(await book.save('portrait', DEFAULT_WORKFLOW)).toBe('portrait');
    expect(await readFile(join(folder, 'Portrait.json'), 'utf8')).toBe(stored(DEFAULT_WORKFLOW));
    expect(await inFile('portrait.json')).toEqual(DEFAULT_WORKFLOW);
    expect(await book.remove('Portrait')).toBe(true);
    // One spelling left: the name is one workflow again.
    expect(await book.save('PORTRAIT', OTHER)).toBe('portrait');
    expect(await book.lookup('Portrait')).toEqual(OTHER);
  });
});

describe('pictor comfy import', () => {
  async function imported(name: string) {
    const graph = join(dir, 'graph.json');
    await writeFile(graph, JSON.stringify(DEFAULT_WORKFLOW.graph));
    return runCliHere(
      ['comfy', 'import', graph, '--name', name, '--prompt', '6.text', '--data-dir', dataDir],
      { home: dir },
    );
  }

  it.each([
    ['CON', 'device'],
    ['aux.json', 'device'],
    ['portrait.', 'ending'],
    ['port\u200brait', 'invisible'],
    ['portr\u00e9t', 'form'],
  ] as const)('refuses --name %j with its reason (exit 2), nothing written', async (name, why) => {
    const run = await imported(name);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(workflowNameRefusal(why));
    expect(await files()).toEqual([]);
  });

  it('keeps a workflow under the name it had when --name differs only in case, and says so', async () => {
    await writeFile(join(folder, 'Portrait.json'), stored(OTHER));
    const run = await imported('portrait');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Imported Portrait (7 nodes)');
    expect(run.stdout).toContain('--model Portrait');
    expect(await files()).toEqual(['Portrait.json']);
    expect(await inFile('Portrait.json')).toEqual({
      graph: DEFAULT_WORKFLOW.graph,
      map: { prompt: '6.text' },
    });
  });

  it('refuses a name that means two kept workflows, saying so (exit 2), neither touched', async () => {
    await writeFile(join(folder, 'Portrait.json'), stored(OTHER));
    await writeFile(join(folder, 'portrait.json'), stored(OTHER));
    const run = await imported('PORTRAIT');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Portrait, portrait have names that differ only in case/);
    expect(await files()).toEqual(['Portrait.json', 'portrait.json']);
    expect(await readFile(join(folder, 'portrait.json'), 'utf8')).toBe(stored(OTHER));
  });
});
