/**
 * Bundles the main process and the preload with esbuild (`npm run build:electron`).
 *
 * - main: electron/main.ts → dist-electron/main.js and its chunks (chunk-*.js, shared with the
 *   workers), ESM for Node 24 (Electron 45's Node). Every
 *   production dependency but `zod` stays external: electron-builder copies `dependencies` into
 *   the asar anyway. Node built-ins, `node:sqlite` (the history) among them, are external on platform
 *   `node` and come with Electron's Node. `sharp` too stays an import at run time and is never
 *   packed: only a plain-Node CLI run from a checkout loads it (adapters/image-engines); in the
 *   packed app the import fails and the host uses another engine.
 * - preload: electron/preload.ts → dist-electron/preload.cjs, CommonJS for the sandboxed preload,
 *   which can `require` only `electron` and a few polyfills, so everything else is bundled.
 *   Platform `browser` makes any Node built-in import a build error instead of a runtime crash.
 * - the image renderer: its preload (electron/image-preload.ts → image-preload.cjs, as above) and
 *   its page (electron/image-renderer → dist-electron/image-renderer/: index.html, page.js,
 *   decode-worker.js and c2pa-worker.js, ES modules for the page and its dedicated workers, and
 *   c2pa_bg.wasm, the Content Credentials library's module).
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PAGE_C2PA_WASM } from '../../shared/image-renderer/protocol';
import { messageOf } from '../core/errors';
import { BUNDLED_TRUST_ANCHORS_FILE } from '../core/content-credentials';
import { zodShaken } from './zod-shaken';

/** Where to read the sources and write the bundles (the repo by default; tests pass a temp tree). */
export interface ElectronBuildPaths {
  /** Folder holding `electron/main.ts`, `electron/preload.ts` and `package.json`. */
  readonly rootDir: string;
  /** Output folder; emptied first. */
  readonly outDir: string;
}

/** One bundle written by {@link buildElectron}. */
export interface BuiltBundle {
  readonly file: string;
  readonly bytes: number;
}

/** Node version bundled with Electron 45 (24.x); syntax is lowered no further than this. */
const MAIN_TARGET = 'node24';
/** Chromium of Electron 45 (153); the preload runs in a renderer. */
const PRELOAD_TARGET = 'chrome153';

/**
 * A bundled CommonJS dependency may call `require` (for Node built-ins), which an ES module does
 * not have; give the bundle one bound to its own URL, made on its first call. Every chunk carries
 * it and a one-record CLI command loads some fifty chunks, none of which calls it: each made its
 * own at load (a module record, its paths and the chunk's `import.meta`), about 1-2 ms of CPU in all.
 */
const ESM_REQUIRE_BANNER = [
  "import { createRequire as __pictorCreateRequire } from 'node:module';",
  'let __pictorRequire;',
  'function require(id) {',
  '  __pictorRequire ??= __pictorCreateRequire(import.meta.url);',
  '  return __pictorRequire(id);',
  '}',
].join('\n');

/**
 * Native image libraries the main bundle must never inline: a devDependency the plain-Node CLI
 * loads when present (adapters/image-engines/sharp-native-engine.ts), absent from the packed app.
 */
const NEVER_BUNDLED = ['sharp'] as const;

/**
 * Production dependencies the main bundle inlines all the same: `zod`, which nearly every module
 * of the core and of shared/ imports, so every start (a one-record CLI command too) loads it. Left
 * external it is about a hundred ES module files that Node finds, reads and links one by one at
 * each start, twice the CPU of the same code in one of the bundle's chunks.
 */
const ALWAYS_BUNDLED: readonly string[] = ['zod'];

/**
 * zod's translations of its own issue messages, ~40 languages and half of the bundled zod's code:
 * its entry re-exports them all (`z.locales`), so every start of the main bundle, and every CLI
 * command, read and linked them. Pictor never asks for one (the words a user reads are its own
 * catalogue's), and zod's English, which it sets itself, is imported by its own path and kept.
 */
const ZOD_LOCALES_LEFT_OUT: Plugin = {
  name: 'zod-locales-left-out',
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer)
        ? { path: 'zod-locales', namespace: 'zod-locales' }
        : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: 'export {};',
      loader: 'js',
    }));
  },
};

/**
 * Modules the main bundle leaves to `import` at run time: Electron, every production dependency
 * but {@link ALWAYS_BUNDLED}, and {@link NEVER_BUNDLED}.
 */
export function mainExternals(dependencies: Readonly<Record<string, string>>): string[] {
  const kept = Object.keys(dependencies).filter((name) => !ALWAYS_BUNDLED.includes(name));
  const names = ['electron', ...kept, ...NEVER_BUNDLED];
  // Subpath imports (`undici/types`, `@img/…`) must stay external too.
  return [...new Set(names)].flatMap((name) => [name, `${name}/*`]);
}

/**
 * Whether a build is for CI's installed-app smoke (`PICTOR_TEST_BUILD=1`): its packaged app keeps
 * the debugger switches Playwright drives it through (adapters/debugger-guard.ts). Never a release.
 */
function isTestBuildEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PICTOR_TEST_BUILD === '1';
}

/**
 * The main bundle's constants, fixed at build time: `process.env.PICTOR_TEST_BUILD` becomes a
 * string literal, so a packaged app's refusal of debugger switches cannot be turned off by the
 * environment it is started in.
 */
function mainDefines(testBuild: boolean): Record<string, string> {
  return { 'process.env.PICTOR_TEST_BUILD': JSON.stringify(testBuild ? '1' : '') };
}

/**
 * The main process's worker threads, each its own bundle beside main.js, where the core looks
 * for it (`new URL('./<name>.js', import.meta.url)`): the Content Credentials verifier's
 * (core/content-credentials), the service answers' reader (core/service/answer-reader.ts) and the
 * history's heavy writes (core/history/history-port.ts).
 * Every bundle that carries the core (the CLI's, the tests' and the bench's children) needs them
 * beside it too.
 */
export function mainWorkerEntries(rootDir: string): Record<string, string> {
  const core = path.join(rootDir, 'electron', 'core');
  return {
    'c2pa-worker': path.join(core, 'content-credentials', 'c2pa-worker.ts'),
    'answer-worker': path.join(core, 'service', 'answer-worker.ts'),
    'history-worker': path.join(core, 'history', 'history-worker.ts'),
  };
}

/** esbuild options for the main process bundle. */
export function mainBuildOptions(
  paths: ElectronBuildPaths,
  dependencies: Readonly<Record<string, string>>,
  testBuild = false,
): BuildOptions {
  return {
    define: mainDefines(testBuild),
    entryPoints: {
      main: path.join(paths.rootDir, 'electron', 'main.ts'),
      ...mainWorkerEntries(paths.rootDir),
    },
    outdir: paths.outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Split into chunks beside main.js (never in a subfolder: the core finds its workers and the
    // trust list beside its own import.meta.url): a module reached only through a dynamic import
    // (each CLI command behind electron/cli/command-table.ts, the app's host behind main.ts) is
    // its own file, parsed only when used, so `pictor --version` costs about a bare Node start.
    splitting: true,
    chunkNames: '[name]-[hash]',
    target: MAIN_TARGET,
    external: mainExternals(dependencies),
    plugins: [ZOD_LOCALES_LEFT_OUT, zodShaken(paths.rootDir)],
    banner: { js: ESM_REQUIRE_BANNER },
    sourcemap: 'linked',
    // Readable stack traces in the log file matter more than a few kilobytes.
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
  };
}

/** esbuild options for the sandboxed preload bundle. */
function preloadBuildOptions(paths: ElectronBuildPaths): BuildOptions {
  return {
    entryPoints: [path.join(paths.rootDir, 'electron', 'preload.ts')],
    outfile: path.join(paths.outDir, 'preload.cjs'),
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: PRELOAD_TARGET,
    external: ['electron'],
    sourcemap: 'linked',
    keepNames: true,
    metafile: true,
    logLevel: 'warning',
  };
}

/** Where the image renderer's page is written, inside the output folder. */
export const IMAGE_RENDERER_DIR = 'image-renderer';

/** esbuild options for the image renderer's sandboxed preload (one MessagePort, nothing else). */
function imagePreloadBuildOptions(paths: ElectronBuildPaths): BuildOptions {
  return {
    ...preloadBuildOptions(paths),
    entryPoints: [path.join(paths.rootDir, 'electron', 'image-preload.ts')],
    outfile: path.join(paths.outDir, 'image-preload.cjs'),
  };
}

/**
 * esbuild options for the image renderer's page and its workers (no Node, no Electron): the
 * decode worker, and the Content Credentials worker with @contentauth/c2pa-wasm's glue bundled
 * in (its WebAssembly module is copied beside it: {@link buildImagePage}).
 */
function imagePageBuildOptions(paths: ElectronBuildPaths): BuildOptions {
  const source = path.join(paths.rootDir, 'electron', 'image-renderer');
  return {
    entryPoints: {
      page: path.join(source, 'page.ts'),
      'decode-worker': path.join(source, 'decode-worker.ts'),
      'c2pa-worker': path.join(source, 'c2pa-worker.ts'),
    },
    outdir: path.join(paths.outDir, IMAGE_RENDERER_DIR),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: PRELOAD_TARGET,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * Builds the image page and writes its index.html and c2pa-rs's WebAssembly module beside the
 * scripts (the tests build it alone). The module is the one the Node hosts' worker loads from
 * node_modules: one version of the library, whichever process verifies.
 */
export async function buildImagePage(paths: ElectronBuildPaths, options: BuildOptions) {
  const result = await build({ ...imagePageBuildOptions(paths), ...options });
  const folder = path.join(paths.outDir, IMAGE_RENDERER_DIR);
  await mkdir(folder, { recursive: true });
  await copyFile(
    path.join(paths.rootDir, 'electron', 'image-renderer', 'index.html'),
    path.join(folder, 'index.html'),
  );
  const require = createRequire(path.join(paths.rootDir, 'package.json'));
  await copyFile(
    require.resolve('@contentauth/c2pa-wasm/c2pa.wasm'),
    path.join(folder, PAGE_C2PA_WASM),
  );
  return result;
}

async function readDependencies(rootDir: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(rootDir, 'package.json'), 'utf8');
  const manifest = JSON.parse(text) as { dependencies?: Record<string, string> };
  return manifest.dependencies ?? {};
}

function outputsOf(metafile: Metafile | undefined, outDir: string): BuiltBundle[] {
  if (!metafile) return [];
  return Object.entries(metafile.outputs)
    .filter(([file]) => !file.endsWith('.map'))
    .map(([file, output]) => ({
      file: path.relative(outDir, path.resolve(file)),
      bytes: output.bytes,
    }));
}

/**
 * The Content Credentials trust list (resources/c2pa, core/content-credentials/trust-anchors.ts),
 * copied beside the bundles: electron-builder keeps its build-resources folder out of the app.
 */

async function copyTrustAnchors(paths: ElectronBuildPaths): Promise<void> {
  const source = path.join(paths.rootDir, 'resources', 'c2pa', 'trust-anchors.pem');
  // A source tree without one (the build's own tests) builds without it; the packaging test
  // checks that the app has it.
  await copyFile(source, path.join(paths.outDir, BUNDLED_TRUST_ANCHORS_FILE)).catch(
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    },
  );
}

/**
 * Empties `outDir` and writes main.js, preload.cjs and the image renderer (with source maps)
 * into it.
 */
export async function buildElectron(
  paths: ElectronBuildPaths,
  options: { logLevel?: BuildOptions['logLevel']; testBuild?: boolean } = {},
): Promise<BuiltBundle[]> {
  await rm(paths.outDir, { recursive: true, force: true });
  const dependencies = await readDependencies(paths.rootDir);
  const { testBuild = false, ...esbuildOptions } = options;
  // Wait for both bundles even when one fails, so nothing is written after this returns.
  const results = await Promise.allSettled([
    build({ ...mainBuildOptions(paths, dependencies, testBuild), ...esbuildOptions }),
    build({ ...preloadBuildOptions(paths), ...esbuildOptions }),
    build({ ...imagePreloadBuildOptions(paths), ...esbuildOptions }),
    buildImagePage(paths, esbuildOptions),
  ]);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  await copyTrustAnchors(paths);
  return results.flatMap((result) =>
    result.status === 'fulfilled' ? outputsOf(result.value.metafile, paths.outDir) : [],
  );
}

function formatKiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * Where `npm run build:electron` writes: `<rootDir>/dist-electron`, or
 * `<PICTOR_BUILD_DIR>/dist-electron` when that is set (the tests build outside the working tree;
 * vite.config.ts reads the same variable for the renderer). Only the folder changes, never the
 * esbuild options.
 */
export function cliOutDir(rootDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const buildDir = env.PICTOR_BUILD_DIR;
  return path.join(buildDir ? path.resolve(buildDir) : rootDir, 'dist-electron');
}

async function runCli(): Promise<void> {
  const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const outDir = cliOutDir(rootDir);
  const testBuild = isTestBuildEnv();
  if (testBuild)
    console.log('build:electron: a test build (PICTOR_TEST_BUILD=1): never release it');
  const bundles = await buildElectron({ rootDir, outDir }, { testBuild });
  for (const bundle of bundles) {
    console.log(
      `${path.relative(process.cwd(), path.join(outDir, bundle.file))}  ${formatKiB(bundle.bytes)}`,
    );
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  runCli().catch((error: unknown) => {
    // esbuild has already printed the located errors; this line says which step failed.
    console.error(`build:electron failed: ${messageOf(error)}`);
    process.exitCode = 1;
  });
}
