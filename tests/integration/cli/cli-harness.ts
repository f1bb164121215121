/**
 * One "world" per test: a quirky service, a fresh data dir and home, and every CLI run made in
 * it. A run goes through the CLI's own entry in this process (run-cli.ts's runCliHere: the same
 * command, environment and output, without a process start of about 0.7 s of CPU each) unless the
 * world or the run asks for a real process: for what only a process shows (its exit once its work
 * is done, a library other processes use at the same time). A world's library starts on an empty
 * history at today's schema (run-cli.ts's newDataDir). After each test the whole world is checked for the two things that must hold in every
 * run: no `authorization` header ever reached the image origin, and no API key appears in any
 * output or any file the CLI wrote.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import {
  QUIRKY_KEYS,
  startQuirkyService,
  type QuirkyService,
  type QuirkyServiceOptions,
} from '../../fakes/quirky-service';
import { filesUnder } from '../../support/files';
import {
  describeRun,
  jsonLines,
  newDataDir,
  runCli,
  runCliHere,
  type CliRun,
  type CliTaskJson,
} from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Options of one CLI run inside a world. */
export interface WorldRunOptions {
  /** `SERVICE_API_KEY`; default alice's first key; `null` leaves it unset. */
  readonly key?: string | null;
  /**
   * Add `--poll-interval 0.2 --timeout 30` when absent (generate, resume, track, demo: the commands
   * that wait on their tasks). Default true.
   */
  readonly fast?: boolean;
  readonly timeoutMs?: number;
  /** Add `--base-url` of the world's service when absent (generate, track, resume). Default true. */
  readonly named?: boolean;
  /** More environment for the CLI (see runCli). */
  readonly env?: Readonly<Record<string, string>>;
  /** Start a real process (`timeoutMs` applies only to one); default the world's. */
  readonly process?: boolean;
}

/** Options of a file's worlds. */
interface WorldsOptions {
  /** Every run a real process unless the run says otherwise. Default false. */
  readonly process?: boolean;
}

/** A quirky service, a data dir, and the CLI runs made against them. */
export interface CliWorld {
  readonly service: QuirkyService;
  readonly dataDir: string;
  /**
   * The HOME its runs have, removed with the world: where a test's own files for the CLI go (a
   * schema to import), as a user's own would be (never beside the data folder: that is the
   * temporary folder itself, which they were left in).
   */
  readonly home: string;
  readonly runs: CliRun[];
  /** Runs `pictor <args>` with `--data-dir` (and `--base-url` for generate/track/resume) added. */
  run(args: readonly string[], options?: WorldRunOptions): Promise<CliRun>;
  /** `list --json`, parsed. */
  list(): Promise<CliTaskJson[]>;
}

/**
 * The watch timeout (seconds, `--timeout`) of a command meant to stop watching a task that does not
 * end by itself meanwhile (exit 3 with its resume line): the watch starts once the service accepted
 * the submit, so any length shows the same stop, and a short one waits less (the runs that waited
 * 1 s each for it spent that second idle).
 */
export const STOP_WATCHING = '0.3';

const KNOWN_KEYS: readonly string[] = Object.values(QUIRKY_KEYS);
/** A key no account has; tests that use it are checked for leaks like the others. */
export const UNKNOWN_KEY = 'sk-nobody-3e8a61d2f09c47b5';

const FAST_COMMANDS = new Set(['generate', 'resume', 'track', 'demo']);
const SERVICE_COMMANDS = new Set(['generate', 'track', 'resume']);

function completeArgs(
  args: readonly string[],
  world: CliWorld,
  fast: boolean,
  named: boolean,
): string[] {
  const full = [...args];
  const command = args[0] ?? '';
  if (!full.includes('--data-dir')) full.push('--data-dir', world.dataDir);
  if (named && SERVICE_COMMANDS.has(command) && !full.includes('--base-url')) {
    full.push('--base-url', world.service.baseUrl);
  }
  if (fast && FAST_COMMANDS.has(command)) {
    if (!full.includes('--poll-interval')) full.push('--poll-interval', '0.2');
    if (!full.includes('--timeout')) full.push('--timeout', '30');
  }
  return full;
}

async function checkWorld(world: CliWorld): Promise<void> {
  const withAuth = world.service
    .cdnRequests()
    .filter((entry) => entry.headers.authorization !== undefined);
  expect(
    withAuth.map((entry) => entry.path),
    'an authorization header reached the cdn',
  ).toEqual([]);
  const keys = [...KNOWN_KEYS, UNKNOWN_KEY];
  for (const run of world.runs) {
    const leaked = keys.filter((key) => run.stdout.includes(key) || run.stderr.includes(key));
    expect(leaked, `an API key was printed by:\n${describeRun(run)}`).toEqual([]);
  }
  for (const file of await filesUnder(world.dataDir, { missing: 'empty' })) {
    const bytes = await readFile(file);
    const leaked = keys.filter((key) => bytes.includes(key));
    expect(leaked, `an API key was written to ${file}`).toEqual([]);
  }
}

/**
 * Registers the after-each checks and clean-up; returns a function that builds a world.
 * Call at the top of a test file.
 */
export function useCliWorlds(
  worldsOptions: WorldsOptions = {},
): (options?: QuirkyServiceOptions) => Promise<CliWorld> {
  const worlds: { world: CliWorld; dirs: string[] }[] = [];
  afterEach(async () => {
    const current = worlds.splice(0);
    try {
      for (const { world } of current) await checkWorld(world);
    } finally {
      for (const { world, dirs } of current) {
        await world.service.close();
        for (const dir of dirs) await removeFolder(dir);
      }
    }
  });
  return async (options = {}) => {
    const service = await startQuirkyService(options);
    const dataDir = await newDataDir('cli-data');
    const home = await tempFolder('cli-home');
    const runs: CliRun[] = [];
    const world: CliWorld = {
      service,
      dataDir,
      home,
      runs,
      run: async (args, runOptions = {}) => {
        const key =
          runOptions.key === undefined ? QUIRKY_KEYS.alice : (runOptions.key ?? undefined);
        const full = completeArgs(args, world, runOptions.fast ?? true, runOptions.named ?? true);
        const inProcess = !(runOptions.process ?? worldsOptions.process ?? false);
        const run = await (inProcess ? runCliHere : runCli)(full, {
          key,
          home,
          timeoutMs: runOptions.timeoutMs,
          ...(runOptions.env ? { env: runOptions.env } : {}),
        });
        runs.push(run);
        return run;
      },
      list: async () => {
        const run = await world.run(['list', '--json']);
        expectExit(run, 0);
        return jsonLines(run);
      },
    };
    worlds.push({ world, dirs: [dataDir, home] });
    return world;
  };
}

/** Asserts the exit code, showing the whole run when it differs. */
export function expectExit(run: CliRun, code: number): void {
  expect(run.code, describeRun(run)).toBe(code);
}

/** The single `--json` line of a one-task run. */
export function onlyTask(run: CliRun): CliTaskJson {
  const tasks = jsonLines(run);
  expect(tasks, describeRun(run)).toHaveLength(1);
  return tasks[0]!;
}

/**
 * Checks a saved image the way the contract describes the gallery: an absolute path to a
 * real PNG named `image-<n>.png`, `.thumbs/image-<n>.webp` beside it, and `pictor.json` in the
 * task's folder. Returns the parsed sidecar.
 */
export async function expectSavedImage(
  path: string,
  size: { width: number; height: number },
): Promise<unknown> {
  expect(isAbsolute(path), `${path} is absolute`).toBe(true);
  const name = /^image-(\d+)\.png$/.exec(basename(path));
  expect(name, `${path} is named image-<n>.png`).not.toBeNull();
  const png = await sharp(await readFile(path)).metadata();
  expect([png.format, png.width, png.height]).toEqual(['png', size.width, size.height]);
  const thumbnail = join(dirname(path), '.thumbs', `image-${name![1]}.webp`);
  const thumb = await sharp(await readFile(thumbnail)).metadata();
  expect(thumb.format).toBe('webp');
  return JSON.parse(await readFile(join(dirname(path), 'pictor.json'), 'utf8')) as unknown;
}
