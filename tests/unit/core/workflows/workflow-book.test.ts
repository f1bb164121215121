/**
 * The book of ComfyUI workflows lists what it kept (by name, with the map) and forgets one: a file
 * in its folder that is not a kept workflow (a stray file, a bad name, damaged JSON, a link) is
 * left out of the list, and a removal takes the workflow's own file, never what a link points to.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowBook } from '../../../../electron/core/workflows/workflow-book';
import { DEFAULT_WORKFLOW } from '../../../../shared/domain/comfy-prompt';
import { TempFolders } from '../../../support/temp-folders';

const made = new TempFolders();
afterEach(async () => {
  await made.removeAll();
});

async function book() {
  const dir = await made.make('workflows');
  return { dir, folder: join(dir, 'comfyui-workflows'), book: new WorkflowBook(dir) };
}

describe('WorkflowBook', () => {
  it('lists an empty book before anything was kept', async () => {
    expect(await (await book()).book.list()).toEqual([]);
  });

  it('lists the kept workflows by name and leaves out every file that is not one', async () => {
    const { dir, folder, book: kept } = await book();
    await kept.save('zeta', DEFAULT_WORKFLOW);
    await kept.save('alpha', DEFAULT_WORKFLOW);
    await writeFile(join(folder, 'notes.txt'), 'hello');
    await writeFile(join(folder, 'damaged.json'), '{ "version": 1, "workflow": ');
    await writeFile(
      join(folder, '..json'),
      JSON.stringify({ version: 1, workflow: DEFAULT_WORKFLOW }),
    );
    await writeFile(
      join(dir, 'outside.json'),
      JSON.stringify({ version: 1, workflow: DEFAULT_WORKFLOW }),
    );
    await symlink(join(dir, 'outside.json'), join(folder, 'linked.json'));
    const listed = await kept.list();
    expect(listed.map((row) => row.name)).toEqual(['alpha', 'zeta']);
    expect(listed[0]?.workflow.map).toEqual(DEFAULT_WORKFLOW.map);
  });

  it('removes a workflow’s own file; through a link it removes the link, never its target', async () => {
    const { dir, folder, book: kept } = await book();
    await kept.save('mine', DEFAULT_WORKFLOW);
    expect(await kept.remove('mine')).toBe(true);
    expect(await kept.lookup('mine')).toBeUndefined();
    expect(await kept.remove('mine')).toBe(false);
    expect(await kept.remove('../outside')).toBe(false);
    const target = join(dir, 'target.json');
    await writeFile(target, 'kept');
    await mkdir(folder, { recursive: true });
    await symlink(target, join(folder, 'linked.json'));
    await kept.remove('linked');
    expect(await readFile(target, 'utf8')).toBe('kept');
  });
});
