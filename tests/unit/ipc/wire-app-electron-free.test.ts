/**
 * The app's wiring runs in plain Node (the end-to-end harness calls it outside Electron): bundled
 * as the app bundles it, nothing it pulls in imports `electron` at run time.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

/** Every module path the bundle of `entry` imports at run time that it leaves outside. */
async function runtimeExternals(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(REPO_ROOT, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  return Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((imported) => imported.external).map((imported) => imported.path),
  );
}

describe('electron/ipc/wire-app.ts', () => {
  it('imports electron only as types', async () => {
    const externals = await runtimeExternals('electron/ipc/wire-app.ts');
    expect(externals.length).toBeGreaterThan(0);
    expect(externals).not.toContain('electron');
  });

  it('would be caught importing electron at run time', async () => {
    expect(await runtimeExternals('electron/ipc/install-ipc.ts')).toContain('electron');
  });
});
