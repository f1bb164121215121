/**
 * A ComfyUI workflow file a newer Pictor wrote (`comfyui-workflows/<name>.json` of a later
 * `version`): this version cannot read it, and an import of the same name must not replace it
 * silently (a downgrade would lose the newer app's workflow). On real files, through the book
 * both fronts save with and through a real `pictor comfy import`: refused with a sentence that
 * names the workflow, the file left byte for byte. Controls: a file of this version, a damaged
 * one, or one whose `version` is no version number are replaced as before.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkflowBook, WorkflowSaveError } from '../../../electron/core/workflows';
import { DEFAULT_WORKFLOW } from '../../../shared/domain/comfy-prompt';
import { describeRun, runCli } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let folder: string;
beforeEach(async () => {
  dir = await tempFolder('newer-workflow');
  folder = join(dir, 'data', 'comfyui-workflows');
  await mkdir(folder, { recursive: true });
});
afterEach(async () => {
  await removeFolder(dir);
});

/** What a newer Pictor keeps: a later version, a shape this one does not know. */
const NEWER = JSON.stringify({ version: 2, workflows: { graph: {}, steps: ['upscale'] } });

describe('a workflow file a newer Pictor wrote', () => {
  it.each([2, 3, 1000])('of version %d is not replaced by an import of its name', async (v) => {
    const text = NEWER.replace('"version":2', `"version":${v}`);
    await writeFile(join(folder, 'sketch.json'), text);
    const book = new WorkflowBook(join(dir, 'data'));
    const refused = await book.save('sketch', DEFAULT_WORKFLOW).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkflowSaveError);
    expect((refused as WorkflowSaveError).sentence?.key).toBe('error.workflow.newerKept');
    expect((refused as Error).message).toMatch(/sketch was saved by a newer version of Pictor/);
    expect(await readFile(join(folder, 'sketch.json'), 'utf8')).toBe(text);
    // Another name is saved as ever.
    await book.save('sketch-2', DEFAULT_WORKFLOW);
    expect(await book.lookup('sketch-2')).toEqual(DEFAULT_WORKFLOW);
  });

  it('is refused by pictor comfy import with its sentence (exit 5), the file left', async () => {
    await writeFile(join(folder, 'sketch.json'), NEWER);
    const graph = join(dir, 'graph.json');
    await writeFile(graph, JSON.stringify(DEFAULT_WORKFLOW.graph));
    const run = await runCli(
      [
        'comfy',
        'import',
        graph,
        '--name',
        'sketch',
        '--prompt',
        '6.text',
        '--data-dir',
        join(dir, 'data'),
      ],
      { home: dir, timeoutMs: 60_000 },
    );
    expect(run.code, describeRun(run)).toBe(5);
    expect(run.stderr, describeRun(run)).toMatch(/sketch was saved by a newer version of Pictor/);
    expect(await readFile(join(folder, 'sketch.json'), 'utf8')).toBe(NEWER);
  });

  it.each([
    ['of this version', JSON.stringify({ version: 1, workflow: { graph: {} } })],
    ['damaged', '{ "version": 2, "workflow": '],
    ['with a version of text', JSON.stringify({ version: '2', workflow: {} })],
    ['with a fractional version', JSON.stringify({ version: 1.5, workflow: {} })],
    ['that is a list', '[2]'],
  ])('a file %s is replaced by an import, as before', async (_, text) => {
    await writeFile(join(folder, 'sketch.json'), text);
    const book = new WorkflowBook(join(dir, 'data'));
    await book.save('sketch', DEFAULT_WORKFLOW);
    expect(await book.lookup('sketch')).toEqual(DEFAULT_WORKFLOW);
  });
});
