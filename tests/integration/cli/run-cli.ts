/**
 * Runs Pictor's command-line front as a child process (electron/cli/main.ts bundled once for the
 * run: tests/support/node-entries.ts) and collects what it printed, with a hard timeout.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { newLibraryAt } from '../../support/migrated-history';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { QUICK_DEMO } from '../../support/quick-demo';
import { testImageEngine } from '../../support/image-engine';
import { runCli as runCliEntry } from '../../../electron/cli/main';
import { tempFolder } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';
import { REPO_ROOT } from '../../support/source-files';

/** The repository root (source-files.ts's): the CLI's working folder. */
export { REPO_ROOT };

/**
 * A new data folder (`name` names it: tests/support/temp-folders.ts) whose library starts on
 * an empty history at today's schema (tests/support/migrated-history.ts): the first command opens
 * it as it would have left it, without paying every migration again (migrating a new history took
 * 1.5 s of cancel.test.ts's 10.6 s of CPU in its thread). Migration from nothing is the history's
 * own tests' to prove. `made` makes the folder: the running test's own (per-test.ts `testFolder`,
 * removed when the test ends), or by default one its caller removes.
 */
export async function newDataDir(
  name: string,
  made: (name: string) => Promise<string> = tempFolder,
): Promise<string> {
  const dir = await made(name);
  await newLibraryAt(dir);
  return dir;
}

/** One finished CLI run. */
export interface CliRun {
  readonly args: readonly string[];
  /** Exit code; `null` when the process was killed (see `timedOut`). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** The value of `SERVICE_API_KEY`; `undefined` leaves it unset. */
  readonly key?: string | undefined;
  /** Used as HOME (and XDG dirs) so nothing the CLI does can touch the real home folder. */
  readonly home: string;
  /** Killed with SIGKILL after this many ms. Default 40 s. */
  readonly timeoutMs?: number;
  /** More environment for the child (a proxy, say), over the defaults. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The environment the child gets: no inherited secrets or proxies, loopback never proxied, the
 * built-in demo's tasks short (tests/support/quick-demo.ts).
 */
export function childEnv(options: RunCliOptions): NodeJS.ProcessEnv {
  const env = bareEnv({
    ...QUICK_DEMO,
    HOME: options.home,
    XDG_CONFIG_HOME: `${options.home}/.config`,
    XDG_DATA_HOME: `${options.home}/.local/share`,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    NO_PROXY: '127.0.0.1,localhost',
  });
  if (process.env.NODE_EXTRA_CA_CERTS) env.NODE_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  // The run's compile cache (node-entries-setup.ts): each start compiles less.
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
  if (options.key !== undefined) env.SERVICE_API_KEY = options.key;
  return { ...env, ...options.env };
}

/** Spawns the CLI with `args` and resolves when it exits (or is killed at the timeout). */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args], {
    cwd: REPO_ROOT,
    env: childEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 40_000);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const durationMs = performance.now() - started;
      resolve({ args, code, stdout, stderr, timedOut, durationMs });
    });
  });
}

/** One image in a `--json` line. */
export interface CliImageJson {
  readonly index: number;
  readonly state: 'pending' | 'saved' | 'expired' | 'invalid';
  readonly path: string | null;
  readonly width: number | null | undefined;
  readonly height: number | null | undefined;
  readonly error: string | null;
  readonly xmpPath?: string | null;
  readonly contentCredentials?: ContentCredentials | null;
  readonly boards?: readonly string[];
}

/** One task in `--json` output (the CLI contract). */
export interface CliTaskJson {
  readonly localId: string;
  readonly taskId: string | null;
  readonly status: string;
  readonly hold: string | null;
  readonly error: string | null;
  readonly exitCode: number;
  /** The board the task's images join as they arrive (`generate --board`), or null. */
  readonly board?: string | null;
  readonly images: readonly CliImageJson[];
}

/** Parses `--json` stdout: one object per non-empty line; a bad line fails with the whole output. */
export function jsonLines(run: CliRun): CliTaskJson[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as CliTaskJson;
      } catch {
        throw new Error(`stdout line is not JSON: ${line}\n--- stdout ---\n${run.stdout}`);
      }
    });
}

/** A readable summary of a run for assertion messages. */
export function describeRun(run: CliRun): string {
  return [
    `$ pictor ${run.args.join(' ')}`,
    `exit ${String(run.code)}${run.timedOut ? ' (killed at timeout)' : ''} after ${Math.round(run.durationMs)} ms`,
    `--- stdout ---\n${run.stdout}`,
    `--- stderr ---\n${run.stderr}`,
  ].join('\n');
}

/**
 * Runs the CLI's own entry function (electron/cli/main.ts `runCli`) in this process, with the
 * environment {@link runCli} gives a child: the same command, what it prints and keeps, without a
 * process start (0.3 s of CPU for a `list`, 1.1 s for a `generate` that loads sharp and starts its
 * answer worker; about 1.6 s of wall each on a loaded 2-core machine). Most CLI tests run their
 * commands so (504 runs over the integration CLI files); {@link runCli} stays for what only a
 * process shows: its exit once its work is done (generate.test.ts, usage.test.ts), a kill, a
 * library or cap other processes use at the same time, the bundle's own workers. `timeoutMs` is
 * a process's: here a command that never ends is ended by the test's limit.
 */
export async function runCliHere(args: readonly string[], options: RunCliOptions): Promise<CliRun> {
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  const code = await runCliEntry(args, {
    env: childEnv(options),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    interrupt: new AbortController().signal,
    imageEngine: () => Promise.resolve(testImageEngine),
  });
  const durationMs = performance.now() - started;
  return { args, code, stdout, stderr, timedOut: false, durationMs };
}
