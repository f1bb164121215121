/**
 * The import's test hold (electron/cli/import-hold.ts) is only in a test build: the CLI's import
 * command bundled with the main bundle's options (electron/build/build-electron.ts) holds neither
 * the hold's module nor its variables' names when PICTOR_TEST_BUILD is fixed as a release fixes it,
 * and holds both in a test build (what tests/support/node-entries.ts builds the tests' CLI as).
 */
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainBuildOptions } from '../../../electron/build/build-electron';
import {
  IMPORT_HELD,
  IMPORT_HOLD_ENV,
  IMPORT_RELEASE_ENV,
} from '../../../electron/cli/import-hold';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

let dir: string;

beforeAll(async () => {
  dir = await tempFolder('import-hold');
});
afterAll(async () => {
  await removeFolder(dir);
});

/** The text of every file the import command's bundle is, built as a release or a test build. */
async function bundled(testBuild: boolean): Promise<string> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const outDir = join(dir, testBuild ? 'test' : 'release');
  const result = await build({
    ...mainBuildOptions({ rootDir: REPO_ROOT, outDir }, manifest.dependencies, testBuild),
    entryPoints: { commands: join(REPO_ROOT, 'electron/cli/library-commands.ts') },
    write: false,
    sourcemap: false,
  });
  return result.outputFiles.map((file) => file.text).join('\n');
}

describe('the import’s test hold', () => {
  it('is not in a release build, and is in a test build', async () => {
    const release = await bundled(false);
    expect(release).toContain('importArchive');
    expect(release).not.toContain(IMPORT_HOLD_ENV);
    expect(release).not.toContain(IMPORT_RELEASE_ENV);
    expect(release).not.toContain(IMPORT_HELD);
    expect(release).not.toContain('PICTOR_TEST_BUILD');
    const test = await bundled(true);
    expect(test).toContain(IMPORT_HOLD_ENV);
    expect(test).toContain(IMPORT_RELEASE_ENV);
    expect(test).toContain(IMPORT_HELD);
  }, 60_000);
});
