import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import {
  fileScans,
  filesNeedingOwnModules,
  filesNeedingOwnProcess,
  mainSideFiles,
  needsOwnModules,
  plainRendererFiles,
} from './tests/support/module-isolation.ts';
import { RunOrder } from './tests/support/run-order.ts';
import { UNTIL } from './tests/support/waits.ts';

/** `expect.poll` waits on its condition as long as `vi.waitFor(…, UNTIL)` does (tests/support/waits.ts). */
const expectations = { poll: UNTIL };

/**
 * The unit and renderer files run in worker threads: a file starts in a fresh thread of a running
 * process instead of a fresh process, which took a third of those projects' time on 2 cores (unit
 * 180 s in child processes, 135 s in threads; renderer 174 s and 113 s). A thread shares its
 * process: a file that changes what only a whole process has (the time zone Node reads from TZ,
 * the working folder, the umask) or counts what the whole process holds (its open descriptors,
 * which the other thread's file opens and closes meanwhile) is named `*.process.test.*` and runs
 * in a child process of its own; tests/unit/lint/process-bound.test.ts finds any file that does
 * so under another name, and projects-cover.test.ts that every file runs in exactly one project.
 */
const PROCESS_BOUND = '**/*.process.test.{ts,tsx}';

/**
 * Every project's first setup file: a thread whose event loop stops turning (a synchronous loop,
 * which no test time limit can end) is ended within minutes, naming its test, instead of holding
 * the run to CI's limit (tests/support/stall-watchdog.ts).
 */
const STALL_WATCHDOG = 'tests/support/stall-watchdog-setup.ts';

/**
 * The wired renderer projects' global setup: a folder for the files a run makes once and its test
 * files copy (a history of 50,000 tasks, seconds of CPU each time it was written: run-cache.ts).
 */
const RUN_CACHE = 'tests/support/run-cache-setup.ts';
/**
 * Node's arguments for every worker that sets up jsdom: bidi's tables built once per thread
 * instead of at each directionality lookup (tests/support/bidi-once.ts).
 */
export const JSDOM_ARGV = [
  '--import',
  fileURLToPath(new URL('tests/support/bidi-once.ts', import.meta.url)),
];

/**
 * The test files and their helpers read once for the classifications below (OWN_MODULES to
 * HARDENING_OWN), not again for each file that imports a helper: 1,222 files read 8,627 times at
 * every vitest start before (tests/support/module-isolation.ts, FileScans).
 */
const SCANS = fileScans();

/**
 * The `unit` project's files share their modules within a worker thread (`isolate: false`): a
 * file's imports are loaded once for the thread instead of once per file, which was most of that
 * project's time (on a loaded 2-core machine 319 s of CPU isolated, 193 s shared; import 219 s,
 * 35 s). The few that change what the next file in the thread would see (a module mocked or
 * reset, a global or an environment variable stubbed or assigned, fake timers) run isolated in
 * `unit-isolated`: tests/support/module-isolation.ts finds them from their text, and
 * projects-cover.test.ts checks none runs shared.
 */
const OWN_MODULES = filesNeedingOwnModules(
  fileURLToPath(new URL('.', import.meta.url)),
  'tests/unit',
  needsOwnModules,
  SCANS,
).filter((file) => !file.startsWith('tests/unit/renderer/'));

/**
 * The renderer files that run the app's real main side beside the page (tests/support/wired-api.ts)
 * run in worker threads, where the core sees Node's own globals (its Uint8Array, its timers that
 * unref); in a VM context those are the DOM's. Most share their thread's modules and its DOM, as
 * the `unit` files do: the app, the core and jsdom are loaded once for the thread instead of once
 * per file (the 16 shortest files in one thread on a 2-core machine at load 36 to 39: 87.8 s of
 * CPU in fresh threads, 28.9 s shared; import 99 s and 35 s, setup 88 s and 16 s, environment
 * 136 s and 15 s). setup.ts runs again for every file: it ends what the helpers started
 * (tests/support/after-each-test.ts) and empties the DOM, the store and localStorage after
 * every test, as between the tests of one file, and undoes what a test faked or stubbed with vitest
 * (its timers, globals, environment variables). A file that changes what the next file would see
 * beyond that, itself or through a helper it imports (tests/support/module-isolation.ts), gets a
 * fresh thread of its own in `renderer-wired-isolated`. The 34 files that once did so only by
 * faking timers, stubbing a global or importing the gallery harness (which installed its layout
 * when first imported, now test by test) share their thread: 12 of them on a quiet 2-core
 * machine, 61.3 s of CPU isolated and 37.2 s shared (wall 47.9 s and 30.7 s).
 */
const MAIN_SIDE = mainSideFiles(
  fileURLToPath(new URL('.', import.meta.url)),
  'tests/unit/renderer',
  SCANS,
);

/**
 * The renderer's other files (its store, its components, its lists' geometry, the catalogues)
 * share their thread's modules and DOM the same way, those that need their own excepted. They ran
 * each in a fresh VM context of a long-lived thread (the thread loaded jsdom once, which a fresh
 * thread per file did not), where each file still imported the page, the store and
 * testing-library anew: 36 of them on a quiet 2-core machine, 27.3 s of CPU in VM contexts,
 * 15.3 s shared (setup 12.1 s and 3.5 s; wall 17.7 s and 9.8 s). setup.ts puts back after every test what a
 * file could leave to the next: the DOM, the store, localStorage, the language (English), what
 * vitest stubbed or faked.
 */
const PLAIN_RENDERER = plainRendererFiles(
  fileURLToPath(new URL('.', import.meta.url)),
  'tests/unit/renderer',
  SCANS,
);

/**
 * The `integration` project's files share their child process and its modules (`isolate: false`):
 * a file's imports (the core, the demo service, the CLI's commands) are loaded once for the
 * process instead of once per file (21 of its files on a 2-core machine at load 2 to 5: import
 * 23.8 s in a fresh process each, 9.2 s shared; 77 s of CPU and 75 s of wall time, 52 s and 54 s).
 * The process stays a child process (pool `forks`), not a thread: what is the whole process's
 * (its working folder, its escaped errors) behaves as when each file had one.
 * tests/support/end-each-test-setup.ts runs again for every file: the helpers' clean-ups after each of its
 * tests (tests/support/after-each-test.ts), its spies taken off at its end. The files that
 * change what the next file in the process would see, themselves or through a helper of the
 * tests they import (tests/support/module-isolation.ts: a module mocked, an environment variable
 * set, the working folder changed), run in `integration-isolated`, each in a child process of its
 * own; projects-cover.test.ts checks none runs shared.
 */
const INTEGRATION_OWN = filesNeedingOwnProcess(
  fileURLToPath(new URL('.', import.meta.url)),
  'tests/integration',
  SCANS,
);

/**
 * The setup of the projects whose files share a child process: what a test's helpers started ends
 * after it, and a spy a file left is taken off at its end (tests/support/end-each-test-setup.ts).
 */
const END_EACH_TEST = 'tests/support/end-each-test-setup.ts';

/**
 * The `hardening` project's files share their child process and its modules too, as the
 * `integration` files do and for the same reason: each file imported the core, the demo service
 * and the servers' fakes anew in a fresh process (key-and-bodies' 31 files on a shared 2-core
 * machine at load 10 to 12, one run after the other: 98.6 s of CPU in a process each, 66.4 s
 * shared; import 35.7 s and 13.4 s; wall 112 s and 93 s). Those that change what the next file
 * would see, or measure what the whole process holds (its memory, CPU time or open descriptors,
 * which an earlier file's leftovers would count in), run in `hardening-isolated`
 * (tests/support/module-isolation.ts); projects-cover.test.ts checks none runs shared. Both end
 * what a test's helpers started after it, as the integration files do (before, no hardening setup
 * ran those clean-ups: a core opened through the integration harness stayed open until the
 * file's process ended).
 */
const HARDENING_OWN = filesNeedingOwnProcess(
  fileURLToPath(new URL('.', import.meta.url)),
  'tests/hardening',
  SCANS,
);

/** What both hardening projects' files are given. */
const HARDENING = {
  expect: expectations,
  // The crash and lease tests' workers, bundled once for the run and started dozens of times as
  // `node <bundle>` (tests/support/node-entries.ts).
  globalSetup: ['tests/support/node-entries-setup.ts'],
  environment: 'node',
  setupFiles: [STALL_WATCHDOG, END_EACH_TEST, 'tests/hardening/support/fast-check-seed.ts'],
  pool: 'forks' as const,
  testTimeout: 180_000,
  hookTimeout: 60_000,
};

/** What both integration projects' files are given (the `integration` project's comment). */
const INTEGRATION = {
  expect: expectations,
  // The CLI and the demo service bundled once for the run (tests/support/node-entries.ts).
  globalSetup: ['tests/support/node-entries-setup.ts'],
  environment: 'node',
  setupFiles: [STALL_WATCHDOG, END_EACH_TEST],
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 30_000,
};

/** What every renderer project's files are given: jsdom, the renderer's setup, worker threads. */
const RENDERER_DOM = {
  expect: expectations,
  exclude: [...configDefaults.exclude, PROCESS_BOUND],
  environment: 'jsdom',
  execArgv: JSDOM_ARGV,
  setupFiles: [STALL_WATCHDOG, 'tests/unit/renderer/setup.ts'],
  pool: 'threads' as const,
};

export default defineConfig({
  test: {
    // The summary line's `environment` counts a shared worker's one environment setup again for
    // every file it runs (vitest 4.1's worker reports that setup's time with each file): the 41
    // `renderer` files said environment 40.4 s in a run of 14.3 s of CPU in all (load 4 to 6).
    // Its `import` and `setup` count each file's own.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Vitest runs one file at a time on 2 cores by default (cores - 1), and most files here wait
    // on child processes, loopback HTTP, a browser or the disk: the whole run took 18 min with
    // the load average under 2. Two files at a time keep both cores busy; the suite is written
    // to hold at any load (manual clocks, conditions with far deadlines, counted work).
    maxWorkers: 2,
    // The packaging files spread through the hardening files, so that one worker's packs and
    // packed-app boots, which wait on child processes and the disk, run beside the other's
    // CPU-bound crash and lease suites instead of beside each other (tests/support/run-order.ts).
    sequence: { sequencer: RunOrder },
    projects: [
      {
        test: {
          name: 'unit',
          expect: expectations,
          // The history worker bundled once for the run: the cores these files open start it as
          // the app does, not from source through tsx (tests/support/bundled-history-worker.ts).
          globalSetup: [RUN_CACHE],
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          // The renderer's tests need a DOM: they run in the `renderer` project below.
          exclude: [
            ...configDefaults.exclude,
            'tests/unit/renderer/**',
            PROCESS_BOUND,
            ...OWN_MODULES,
          ],
          environment: 'node',
          setupFiles: [STALL_WATCHDOG],
          pool: 'threads',
          isolate: false,
          testTimeout: 15_000,
          // A file's beforeAll may import every CLI command (cli-claims): 10 s is too short loaded.
          hookTimeout: 30_000,
        },
      },
      {
        // The unit files that need modules of their own (OWN_MODULES), each in a fresh thread.
        test: {
          name: 'unit-isolated',
          expect: expectations,
          globalSetup: [RUN_CACHE],
          include: OWN_MODULES,
          exclude: [...configDefaults.exclude, PROCESS_BOUND],
          environment: 'node',
          setupFiles: [STALL_WATCHDOG],
          pool: 'threads',
          testTimeout: 15_000,
          // A file's beforeAll may import every CLI command (cli-claims): 10 s is too short loaded.
          hookTimeout: 30_000,
        },
      },
      {
        // The renderer files beside no main side that share their thread's modules and DOM, as
        // `renderer-wired`'s do (PLAIN_RENDERER).
        test: {
          name: 'renderer',
          ...RENDERER_DOM,
          include: PLAIN_RENDERER.shared,
          isolate: false,
          testTimeout: 15_000,
        },
      },
      {
        // The renderer files beside no main side that need their own modules, each in a fresh
        // thread.
        test: {
          name: 'renderer-isolated',
          ...RENDERER_DOM,
          include: PLAIN_RENDERER.own,
          testTimeout: 15_000,
        },
      },
      {
        // The renderer files over the app's real main side (MAIN_SIDE) that share their thread's
        // modules and DOM.
        test: {
          name: 'renderer-wired',
          expect: expectations,
          include: MAIN_SIDE.shared,
          exclude: [...configDefaults.exclude, PROCESS_BOUND],
          globalSetup: [RUN_CACHE],
          environment: 'jsdom',
          execArgv: JSDOM_ARGV,
          setupFiles: [STALL_WATCHDOG, 'tests/unit/renderer/setup.ts'],
          pool: 'threads',
          isolate: false,
          // A real core under the page: the first test of a file starts it and seeds its history,
          // which on a loaded 2-core machine took past the unit files' 15 s.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The renderer files over the app's real main side that need their own modules, each in
        // a fresh thread.
        test: {
          name: 'renderer-wired-isolated',
          expect: expectations,
          include: MAIN_SIDE.own,
          exclude: [...configDefaults.exclude, PROCESS_BOUND],
          globalSetup: [RUN_CACHE],
          environment: 'jsdom',
          execArgv: JSDOM_ARGV,
          setupFiles: [STALL_WATCHDOG, 'tests/unit/renderer/setup.ts'],
          pool: 'threads',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The few unit files that need a whole process (see PROCESS_BOUND), outside and inside
        // the renderer's DOM.
        test: {
          name: 'unit-process',
          expect: expectations,
          include: ['tests/unit/' + PROCESS_BOUND],
          exclude: [...configDefaults.exclude, 'tests/unit/renderer/**'],
          environment: 'node',
          setupFiles: [STALL_WATCHDOG],
          pool: 'forks',
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'renderer-process',
          expect: expectations,
          include: ['tests/unit/renderer/' + PROCESS_BOUND],
          environment: 'jsdom',
          execArgv: JSDOM_ARGV,
          setupFiles: [STALL_WATCHDOG, 'tests/unit/renderer/setup.ts'],
          pool: 'forks',
          testTimeout: 15_000,
        },
      },
      {
        test: {
          ...INTEGRATION,
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...INTEGRATION_OWN],
          // In child processes, not threads as the unit files: eight files of 1 to 3 s took the
          // same CPU either way (32.9 s in child processes, 32.4 s in threads, load 20 to 23; a
          // first pair, 40.5 s and 34.9 s, had the processes run first, cold).
          isolate: false,
        },
      },
      {
        // The integration files that need a process and modules of their own (INTEGRATION_OWN).
        test: { ...INTEGRATION, name: 'integration-isolated', include: INTEGRATION_OWN },
      },
      {
        // Faults, crashes, hostile input and the key's safety. `npm run soak` runs the
        // same files at a larger size (PICTOR_SOAK=1).
        test: {
          ...HARDENING,
          name: 'hardening',
          include: ['tests/hardening/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...HARDENING_OWN],
          isolate: false,
        },
      },
      {
        // The hardening files that need a process and modules of their own (HARDENING_OWN).
        test: { ...HARDENING, name: 'hardening-isolated', include: HARDENING_OWN },
      },
      {
        // Builds the app and runs electron-builder in beforeAll (about half a minute on 2 cores).
        test: {
          name: 'packaging',
          include: ['tests/packaging/**/*.test.ts'],
          // One `npm run build` for every file, before any of them packs.
          globalSetup: ['tests/packaging/global-setup.ts'],
          environment: 'node',
          setupFiles: [STALL_WATCHDOG],
          testTimeout: 30_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
