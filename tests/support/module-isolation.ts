/**
 * Which unit files need a module registry of their own (vitest.config.ts). The `unit` project runs
 * its files one after another in each worker thread with the modules they import loaded once for
 * the thread (`isolate: false`): importing the core anew for every file was most of that project's
 * time. A file that changes what the next file in its thread would get runs in `unit-isolated`
 * instead, with fresh modules: it mocks or resets modules, stubs a global or an environment
 * variable, assigns one, or installs fake timers. tests/unit/lint/projects-cover.test.ts checks
 * every such file runs isolated.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
// With its extension, as vitest.config.ts names its own imports: Vite's config loader wants it.
import { repositoryFiles } from './source-files.ts';

/** What a file does that a later file in the same thread would see. */
const CHANGES_SHARED_STATE = [
  /\bvi\.(?:mock|doMock|unmock|doUnmock|resetModules|stubGlobal|stubEnv|useFakeTimers)\s*\(/,
  /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bglobalThis(?:\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bObject\.(?:defineProperty|assign)\(\s*(?:globalThis|process\.env)\b/,
  // zod's configuration is the whole process's (its post-processor, its locale).
  /\bz\.config\s*\(/,
  // Said by the file: it counts what a module holds for the whole process (a budget, a pool),
  // which a file before it in the thread could still hold.
  /@own-modules\b/,
];

/** Whether a test file's text changes state a later file in its thread would share. */
export function needsOwnModules(text: string): boolean {
  return CHANGES_SHARED_STATE.some((pattern) => pattern.test(text));
}

/**
 * What the renderer's setup undoes after every test (tests/unit/renderer/setup.ts: vi.useRealTimers,
 * vi.unstubAllGlobals, vi.unstubAllEnvs): a renderer file that changes shared state only so leaves
 * nothing for the next file in its thread, as long as it does so within its tests (a stub made in
 * a beforeAll would be gone after the first test, and that file's own tests would say so).
 */
const UNDONE_AFTER_EACH_RENDERER_TEST = /\bvi\.(?:stubGlobal|stubEnv|useFakeTimers)\s*\(/g;

/**
 * {@link needsOwnModules} for a file of the renderer's projects: what their setup undoes after
 * every test ({@link UNDONE_AFTER_EACH_RENDERER_TEST}) does not count.
 */
export function rendererNeedsOwnModules(text: string): boolean {
  return needsOwnModules(text.replace(UNDONE_AFTER_EACH_RENDERER_TEST, ''));
}

/**
 * Whether a renderer test runs the app's real main side in its own thread (tests/support/
 * wired-api.ts, whichever way it starts it: a test's own main, the file's shared one, the
 * gallery's wired harness): the core is plain Node and must see Node's globals (its buffers, timers), which
 * a VM context's DOM globals are not.
 */
export function runsMainSide(text: string): boolean {
  return /\b(?:startWiredApp|startWiredApi|startInterceptedApi|sharedWiredMain|wiredGallery|wiredLargeGallery)\b/.test(
    text,
  );
}

/**
 * The files read and the helpers each imports, kept for one classification: vitest.config.ts
 * classifies every test file with one, and a helper is imported by hundreds of them (before, every
 * vitest start read 1,222 files 8,627 times, 38.7 MB). A fresh one for each call otherwise, so
 * that a file changed between two calls is read again.
 */
export interface FileScans {
  /** Each file's text by its path. */
  texts: Map<string, string>;
  /** The tests' own helpers a file imports, in its order, by the tests' folder and its path. */
  helpers: Map<string, string[]>;
}

/** An empty {@link FileScans}. */
export function fileScans(): FileScans {
  return { texts: new Map(), helpers: new Map() };
}

/** The text of the file at `path`, read once for `scans`. */
function textOf(path: string, scans: FileScans): string {
  let text = scans.texts.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8');
    scans.texts.set(path, text);
  }
  return text;
}

/**
 * The test files under `dir` (relative to `root`, with `/`) whose text matches `which` (default:
 * those that need their own modules), for a project's `include`.
 */
export function filesNeedingOwnModules(
  root: string,
  dir: string,
  which: (text: string) => boolean = needsOwnModules,
  scans: FileScans = fileScans(),
): string[] {
  return repositoryFiles([dir], /\.test\.tsx?$/, { root }).filter((file) =>
    which(textOf(join(root, file), scans)),
  );
}

/**
 * The helper through which a test changes its process and has the change undone when the test
 * ends (an environment variable, an escaped-error listener, a require cache entry): its own text
 * makes those changes, but a file that makes them only through it leaves none for the next file,
 * so {@link withOwnHelpers} does not read it (as the renderer's setup's undoing lets its files
 * stub). The raw forms in a file or any other helper still count.
 */
const UNDONE_AFTER_TEST = 'support/undone-after-test.ts';

/** A relative import (`./x`, `../x`). */
const RELATIVE_IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+)'/g;

/**
 * A test file's text followed by the text of the tests' own helpers it imports (those under
 * `tests`, the product's modules left out), and theirs in turn: a helper that installs a global
 * when it is first imported (the gallery harness's ResizeObserver) changes what a later file in a
 * shared thread sees as much as the file itself would. All but the helper whose changes are
 * undone when the test ends ({@link UNDONE_AFTER_TEST}).
 */
export function withOwnHelpers(
  tests: string,
  file: string,
  scans: FileScans = fileScans(),
): string {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (path: string): void => {
    if (seen.has(path) || relative(tests, path).split('\\').join('/') === UNDONE_AFTER_TEST) return;
    seen.add(path);
    texts.push(textOf(path, scans));
    for (const helper of helpersOf(tests, path, scans)) visit(helper);
  };
  visit(file);
  return texts.join('\n');
}

/** The tests' own helpers (under `tests`) the file at `path` imports, found once for `scans`. */
function helpersOf(tests: string, path: string, scans: FileScans): string[] {
  const key = `${tests}\0${path}`;
  let helpers = scans.helpers.get(key);
  if (helpers === undefined) {
    helpers = [];
    for (const match of textOf(path, scans).matchAll(RELATIVE_IMPORT)) {
      const base = resolve(dirname(path), match[1] ?? '');
      if (relative(tests, base).startsWith('..')) continue;
      const helper = [`${base}.ts`, `${base}.tsx`].find((candidate) => existsSync(candidate));
      if (helper) helpers.push(helper);
    }
    scans.helpers.set(key, helpers);
  }
  return helpers;
}

/**
 * What a file does to the process it runs in, which the next file in that process would still
 * see: its working folder or umask changed, the process's escaped errors caught (a listener the
 * file leaves would take the next file's), a module put into Node's own require cache, V8's
 * flags set (`--expose-gc`); made through {@link UNDONE_AFTER_TEST} instead (the updater tests'
 * variables, listeners and stand-in for `electron`), such a change is gone when the test ends.
 * Or what it measures of the whole process, which a file before it in that process would have
 * changed: its memory, its CPU time, its open descriptors (what the earlier file left to collect,
 * to run or to close counts against this one).
 */
const CHANGES_PROCESS = [
  /\bprocess\.(?:chdir|umask)\s*\(/,
  /\bprocess\.\w+\(\s*'(?:uncaughtException|unhandledRejection)'/,
  /\brequire\.cache\b/,
  /\bsetFlagsFromString\s*\(/,
  /\bprocess\.(?:memoryUsage|cpuUsage|resourceUsage)\s*\(/,
  /\/proc\/self\//,
];

/**
 * Whether a test file, or a helper of the tests it imports ({@link withOwnHelpers}), changes what
 * the next file in its process would see, modules ({@link needsOwnModules}) or the process itself:
 * the integration and hardening files that share a child process (`isolate: false`) must not.
 */
export function needsOwnProcess(text: string): boolean {
  return needsOwnModules(text) || CHANGES_PROCESS.some((pattern) => pattern.test(text));
}

/**
 * The test files under `dir` that need a child process and modules of their own: the file or a
 * helper of the tests it imports matches {@link needsOwnProcess}.
 */
export function filesNeedingOwnProcess(
  root: string,
  dir: string,
  scans: FileScans = fileScans(),
): string[] {
  const tests = join(root, 'tests');
  return filesNeedingOwnModules(root, dir, () => true, scans).filter((file) =>
    needsOwnProcess(withOwnHelpers(tests, join(root, file), scans)),
  );
}

/** Renderer files split into those that may share their thread's modules and those that need their own. */
function splitRendererFiles(
  root: string,
  files: string[],
  scans: FileScans,
): { shared: string[]; own: string[] } {
  const tests = join(root, 'tests');
  const own = files.filter((file) =>
    rendererNeedsOwnModules(withOwnHelpers(tests, join(root, file), scans)),
  );
  return { shared: files.filter((file) => !own.includes(file)), own };
}

/**
 * The renderer files under `dir` that run the app's real main side ({@link runsMainSide}), split
 * into those that may share their thread's modules and those that need their own: the file or a
 * helper of the tests it imports changes what a later file would see, beyond what the renderer's
 * setup undoes after every test ({@link rendererNeedsOwnModules}).
 */
export function mainSideFiles(
  root: string,
  dir: string,
  scans: FileScans = fileScans(),
): { shared: string[]; own: string[] } {
  return splitRendererFiles(root, filesNeedingOwnModules(root, dir, runsMainSide, scans), scans);
}

/** The renderer files under `dir` beside no main side, split as {@link mainSideFiles} splits. */
export function plainRendererFiles(
  root: string,
  dir: string,
  scans: FileScans = fileScans(),
): { shared: string[]; own: string[] } {
  return splitRendererFiles(
    root,
    filesNeedingOwnModules(root, dir, (text) => !runsMainSide(text), scans),
    scans,
  );
}
