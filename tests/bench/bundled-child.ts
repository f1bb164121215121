/**
 * A bench child as the app's main process runs its code: bundled by esbuild with the main
 * bundle's own options (electron/build/build-electron.ts: ESM for Node 24, dependencies left to
 * node_modules, sharp never inlined), into a temporary folder, and started with plain `node`,
 * not through tsx, whose loader and transpiler would share the measured process's memory.
 */
import { build } from 'esbuild';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainBuildOptions, mainWorkerEntries } from '../../electron/build/build-electron';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BundledChild {
  /** The bundle to start with `node`. */
  readonly file: string;
  dispose(): Promise<void>;
}

/**
 * Bundles `entry` (a .ts file) into a new temporary folder, beside a link to node_modules and a
 * package.json that makes its chunks ES modules, as the app's package.json does.
 */
export async function bundleChild(entry: string): Promise<BundledChild> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-bundle-'));
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // The app's chunks are ES modules by its package.json's "type"; without one here Node would
    // tell each chunk's format by compiling it first (a cost the app does not have).
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const options = mainBuildOptions({ rootDir: ROOT, outDir: dir }, manifest.dependencies ?? {});
    await build({
      ...options,
      // The core's workers beside the child, where it looks for them, as beside main.js.
      entryPoints: { child: entry, ...mainWorkerEntries(ROOT) },
      outdir: dir,
      sourcemap: false,
      metafile: false,
      logLevel: 'error',
    });
    return { file: join(dir, 'child.js'), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
