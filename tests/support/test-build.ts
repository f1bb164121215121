/**
 * The build the tests pack, run and measure: `npm run build`, the release's own command (the same
 * vite.config.ts and esbuild options), with NODE_ENV=production, written into a temporary folder
 * (PICTOR_BUILD_DIR), one per run and removed after it. The working tree's dist/ and
 * dist-electron/ stay for `npm start` and electron-builder: no test writes or reads them.
 *
 * The folder is laid out like the repository, so the build can be used as it is used there:
 * dist/renderer and dist-electron/ beside copies of package.json, package-lock.json and
 * electron-builder.yml and links to node_modules/ and resources/. The built main process and image
 * worker resolve their dependencies, Electron can start the folder as an app, electron-builder can
 * pack it with the release's configuration.
 *
 * Whoever starts a run (the packaging and journeys' global setups, the bench) calls
 * {@link acquireTestBuild}, which names the folder in PICTOR_TEST_BUILD_DIR for everything that
 * runs after it; code that loads the build finds it with {@link currentTestBuild}. A renderer
 * holding React's development build is refused, never tested or measured.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { copyFile, rm, symlink, utimes } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { acquireRunFolder } from './run-folder';
import { removeFolder, tempFolder } from './temp-folders';

/** The repository root (tests/support → ../..). */
const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** Names the run's test build folder for the processes that use it (workers, children). */
export const TEST_BUILD_ENV = 'PICTOR_TEST_BUILD_DIR';

/** Files copied beside the build and folders linked there (see the module comment). */
const COPIED = ['package.json', 'package-lock.json', 'electron-builder.yml'];
const LINKED = ['node_modules', 'resources'];

/** One build for tests: its folder and where its parts are. */
export interface TestBuild {
  /** The folder, laid out like the repository. */
  readonly root: string;
  /** The renderer bundle (vite): index.html and assets/. */
  readonly rendererDir: string;
  /** The main process, image worker and preload bundles (esbuild). */
  readonly electronDir: string;
}

/** The build in `root`, as {@link createTestBuild} lays it out. */
export function testBuildAt(root: string): TestBuild {
  return {
    root,
    rendererDir: join(root, 'dist', 'renderer'),
    electronDir: join(root, 'dist-electron'),
  };
}

/**
 * What the renderer bundle in `dir` is: `development` when a script holds React's development
 * JSX runtime (`jsxDEV`: Vite bundles it when NODE_ENV is not production, as under a test
 * runner), `missing` when there is no script.
 */
export function rendererBuildKind(dir: string): 'production' | 'development' | 'missing' {
  const assets = join(dir, 'assets');
  const scripts = existsSync(assets)
    ? readdirSync(assets).filter((name) => name.endsWith('.js'))
    : [];
  if (scripts.length === 0) return 'missing';
  const development = scripts.some((name) =>
    readFileSync(join(assets, name), 'utf8').includes('jsxDEV'),
  );
  return development ? 'development' : 'production';
}

/** The files a complete build has, relative to its root. */
const REQUIRED = [
  'dist/renderer/index.html',
  'dist-electron/main.js',
  'dist-electron/c2pa-worker.js',
  'dist-electron/answer-worker.js',
  'dist-electron/history-worker.js',
  'dist-electron/image-preload.cjs',
  'dist-electron/image-renderer/index.html',
  'dist-electron/image-renderer/c2pa_bg.wasm',
  'dist-electron/preload.cjs',
  'package.json',
  'node_modules',
];

/**
 * Throws unless `build` is complete and its renderer is React's production build: a development
 * build measures and tests an app no user gets (three times larger, and slower).
 */
export function checkTestBuild(build: TestBuild): void {
  const missing = REQUIRED.filter((file) => !existsSync(join(build.root, file)));
  if (missing.length > 0) {
    throw new Error(
      `The test build in ${build.root} is incomplete: ${missing.join(', ')} missing.`,
    );
  }
  const kind = rendererBuildKind(build.rendererDir);
  if (kind !== 'production') {
    throw new Error(
      `The test build in ${build.root} holds React's ${kind === 'development' ? 'development build' : 'no renderer script'}, ` +
        'which no user gets: build with NODE_ENV=production (tsx tests/support/test-build.ts <folder>).',
    );
  }
}

/** True when `path` is inside the repository (where no test build may be written). */
export function isInRepo(path: string): boolean {
  const rel = relative(REPO_ROOT, resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** One file of a build: its path, size and modification time. */
export interface FileStamp {
  readonly file: string;
  readonly bytes: number;
  readonly modified: number;
}

function stampsUnder(dir: string): FileStamp[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = join(entry.parentPath, entry.name);
      const stats = statSync(file);
      return { file: relative(REPO_ROOT, file), bytes: stats.size, modified: stats.mtimeMs };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * The working tree's own build (dist/ and dist-electron/, `npm start`'s and electron-builder's),
 * file by file: what a test run must leave as it found it.
 */
export function listWorkingTreeBuild(): FileStamp[] {
  return ['dist', 'dist-electron'].flatMap((name) => stampsUnder(join(REPO_ROOT, name)));
}

async function layOut(root: string): Promise<void> {
  for (const name of COPIED) await copyFile(join(REPO_ROOT, name), join(root, name));
  for (const name of LINKED) {
    // A link left by an earlier build into the same folder goes (the link, never its target).
    await rm(join(root, name), { force: true });
    // A junction on Windows (no privilege needed), a symbolic link elsewhere.
    await symlink(join(REPO_ROOT, name), join(root, name), 'junction');
  }
  await markInstallRecordCurrent();
}

/**
 * electron-builder finds the production dependencies with `npm list` in the build folder, where
 * node_modules is a link. npm reads a linked tree correctly only from its record of the install
 * (node_modules/.package-lock.json), and ignores that record when node_modules or any package
 * folder is newer: after `npm ci` the packages' install scripts touch theirs, and anything that
 * adds an entry to node_modules (a cache folder) makes node_modules newer. npm then read every
 * package's own dependencies as "missing" and the packed app lacked them (`conf`, `fs-extra`…).
 * The record is what `npm ci` wrote from package-lock.json; marking it current makes npm use it.
 * Called when the build is laid out and again just before each packing (stand-in-targets.ts), so
 * that nothing the run did in between (another test's cache folder) can make it stale.
 */
export async function markInstallRecordCurrent(root: string = REPO_ROOT): Promise<void> {
  const record = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return;
  const now = new Date();
  await utimes(record, now, now);
}

/** The command and arguments of `npm run <script>`: through cmd.exe on Windows (npm.cmd). */
export function npmRun(script: string): [string, string[]] {
  return process.platform === 'win32'
    ? ['cmd.exe', ['/d', '/s', '/c', 'npm', 'run', script]]
    : ['npm', ['run', script]];
}

/**
 * Runs `npm run build` (or `npm run build:electron` with `renderer: false`) into `root`, with the
 * release's settings, and lays the folder out. `root` must be outside the repository.
 */
export async function buildInto(
  root: string,
  options: { renderer?: boolean } = {},
): Promise<TestBuild> {
  if (isInRepo(root)) throw new Error(`A test build goes outside the repository, not in ${root}.`);
  await layOut(root);
  const script = options.renderer === false ? 'build:electron' : 'build';
  try {
    const [command, args] = npmRun(script);
    await promisify(execFile)(command, args, {
      cwd: REPO_ROOT,
      // The release's settings whatever the runner set (vitest sets NODE_ENV=test, with which
      // Vite bundles React's development build); only the output folder differs.
      env: { ...process.env, NODE_ENV: 'production', PICTOR_BUILD_DIR: root },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `npm run ${script} into ${root} failed: ${output.message}\n${output.stdout ?? ''}\n${output.stderr ?? ''}`,
      { cause: error },
    );
  }
  return testBuildAt(root);
}

/** A test build in a new temporary folder; `dispose` removes the folder. */
export async function createTestBuild(
  options: { renderer?: boolean } = {},
): Promise<TestBuild & { dispose(): Promise<void> }> {
  const root = await tempFolder('test-build');
  const dispose = (): Promise<void> => removeFolder(root);
  try {
    const build = await buildInto(root, options);
    if (options.renderer !== false) checkTestBuild(build);
    return { ...build, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The run's test build, named by PICTOR_TEST_BUILD_DIR; throws when there is none. */
export function currentTestBuild(env: NodeJS.ProcessEnv = process.env): TestBuild {
  const root = env[TEST_BUILD_ENV];
  if (!root) {
    throw new Error(
      `No test build: ${TEST_BUILD_ENV} is not set. The packaging and journeys' global setups and ` +
        'the bench make one (acquireTestBuild in tests/support/test-build.ts).',
    );
  }
  return testBuildAt(root);
}

/** What {@link acquireTestBuild} gives: the build, a line for the run's output, and its end. */
export interface AcquiredBuild {
  readonly build: TestBuild;
  readonly line: string;
  /** Removes a build made for this run (and unsets PICTOR_TEST_BUILD_DIR); keeps one passed in. */
  release(): Promise<void>;
}

/**
 * The run's build: the one PICTOR_TEST_BUILD_DIR already names (checked, reused and kept, so a
 * developer can build once for several runs), or a new one in a temporary folder. Either way
 * PICTOR_TEST_BUILD_DIR names it afterwards, for this process and what it starts
 * (tests/support/run-folder.ts).
 */
export async function acquireTestBuild(
  env: NodeJS.ProcessEnv = process.env,
): Promise<AcquiredBuild> {
  const started = performance.now();
  const acquired = await acquireRunFolder(
    TEST_BUILD_ENV,
    (root) => checkTestBuild(testBuildAt(root)),
    async () => {
      const made = await createTestBuild();
      return { dir: made.root, dispose: made.dispose };
    },
    env,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return {
    build: testBuildAt(acquired.dir),
    line: acquired.given
      ? `test build: ${acquired.dir} (given, reused)`
      : `test build: npm run build into ${acquired.dir} (NODE_ENV=production) in ${seconds} s`,
    release: acquired.release,
  };
}

/** `tsx tests/support/test-build.ts <folder>`: a build to reuse with PICTOR_TEST_BUILD_DIR. */
async function runCli(folder: string | undefined): Promise<void> {
  if (!folder)
    throw new Error('usage: tsx tests/support/test-build.ts <empty folder outside the repository>');
  const build = await buildInto(resolve(folder));
  checkTestBuild(build);
  console.log(`${TEST_BUILD_ENV}=${build.root}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCli(process.argv[2]).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
