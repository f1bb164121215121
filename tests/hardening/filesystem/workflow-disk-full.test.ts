/**
 * `pictor comfy import` on a full data disk while the app has the library open (its history's
 * shared-memory index already made, so the history itself opens): a real `pictor` process on a
 * real small disk (a tmpfs filled to its last byte; Linux as root, else skipped with the reason).
 * The workflow cannot be written: the command says so in a sentence (exit 5), not "an unexpected
 * problem" (exit 70), and leaves neither the workflow nor a half-written file; with room again the
 * same import succeeds.
 */
import { rmSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeRun, runCli } from '../../integration/cli/run-cli';
import { fillDisk, mountTmpfs, probeMount, unmount } from '../crashes/disk-fixture';
import { filesUnder } from '../../support/files';
import { EXPORTED_WORKFLOW } from '../../support/comfy-export';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const mount = probeMount();
if (!mount.ok) console.warn(`workflow-disk-full: SKIPPED (${mount.reason}).`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!mount.ok)('a workflow import on a full disk', () => {
  it('says the workflow was not saved, leaves nothing, and imports once there is room', async () => {
    const base = await tempFolder('workflow-full');
    cleanups.push(() => removeFolder(base));
    const home = join(base, 'home');
    const small = join(base, 'small');
    await mkdir(home);
    await mkdir(small);
    mountTmpfs(small, 8 * 1024 * 1024);
    cleanups.push(() => unmount(small));
    const data = join(small, 'data');
    const graph = join(base, 'graph.json');
    await writeFile(graph, JSON.stringify(EXPORTED_WORKFLOW));
    const args = ['comfy', 'import', graph, '--name', 'sketch', '--prompt', '11.text'];
    const cli = () => runCli([...args, '--data-dir', data], { home, timeoutMs: 60_000 });
    const list = await runCli(['list', '--data-dir', data], { home });
    expect(list.code, describeRun(list)).toBe(0);
    // The app, its library open: the history's index files exist and are sized.
    const app = new DatabaseSync(join(data, 'history.sqlite'));
    cleanups.push(() => app.close());
    app.prepare('SELECT count(*) FROM sqlite_master').get();

    const filler = fillDisk(small);
    const refused = await cli();
    expect(refused.code, describeRun(refused)).toBe(5);
    expect(refused.stderr, describeRun(refused)).toMatch(/could not save the workflow/);
    const left = (await filesUnder(data))
      .map((path) => relative(data, path))
      .filter((path) => /workflow|pictor-tmp/.test(path));
    expect(left).toEqual([]);

    rmSync(filler);
    const imported = await cli();
    expect(imported.code, describeRun(imported)).toBe(0);
    expect(await readdir(join(data, 'comfyui-workflows'))).toEqual(['sketch.json']);
  });
});
