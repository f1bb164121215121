/**
 * `pictor template import` of a `.json` file given no format reads the file once: its kind
 * (Pictor's file or a Fooocus list) is told from the import's own read and parse, not from a read
 * of its own before it (which read, decoded and parsed up to 5 MiB twice, and could judge one
 * content and import another). Opens of the file counted through node:fs/promises, which the
 * template file reader opens it with.
 */
import type * as FsPromises from 'node:fs/promises';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, expect, it, vi } from 'vitest';
import { describeRun, newDataDir, runCliHere } from './run-cli';
import { testFolder } from '../../support/per-test';

const opened = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof FsPromises>();
  const open: typeof fs.open = (path, ...rest) => {
    opened.push(String(path));
    return fs.open(path, ...rest);
  };
  const patched = { ...fs, open };
  return { ...patched, default: patched };
});

let dataDir: string;
let home: string;

beforeEach(async () => {
  dataDir = await newDataDir('tpl-once', testFolder);
  home = await testFolder('tpl-once-home');
});

it.each([
  ['a Fooocus list', [{ name: 'Plain', prompt: 'a photo', negative_prompt: '' }], 'fooocus'],
  [
    'a Pictor file',
    {
      format: 'pictor-templates',
      schemaVersion: 1,
      templates: [{ name: 'Mine', body: 'a {{prompt}}' }],
    },
    'pictor',
  ],
])('tells %s apart on the one read of its file', async (_what, contents, format) => {
  const file = join(dataDir, 'styles.json');
  await writeFile(file, JSON.stringify(contents));
  opened.length = 0;
  const run = await runCliHere(['template', 'import', file, '--data-dir', dataDir], {
    home,
    timeoutMs: 60_000,
  });
  expect(run.code, describeRun(run)).toBe(0);
  expect(run.stderr).toContain(`Read the file as ${format} (guessed from its name`);
  expect(run.stdout).toContain('Imported 1 template(s).');
  expect(opened.filter((path) => path === file)).toHaveLength(1);
});
