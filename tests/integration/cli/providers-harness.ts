/**
 * The CLI against the demo service speaking one provider's dialect on loopback, both in this
 * process: the demo service started from the very arguments `npm run demo-service -- --dialect <d>
 * --control` takes (its own parser, cli-args.ts), the CLI's commands run through its own entry
 * (run-cli.ts's runCliHere: the same command, environment and output, without a process start
 * each) except a command a test stops on purpose (`start`), a real process. The demo's request log (GET /_demo/log) records which header carried
 * which key on every request, so a test reads where the key went. After each test, no key
 * appears in any output or any file the CLI wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { afterEach, expect } from 'vitest';
import type { ProviderId } from '../../../shared/domain/providers';
import type { DemoTaskSnapshot, RequestLogEntry } from '../../../electron/demo-service/types';
import { filesUnder } from '../../support/files';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { testImageEngine } from '../../support/image-engine';
import { parseCliArgs } from '../../../electron/demo-service/cli-args';
import { startDemoService } from '../../../electron/demo-service/server';
import { REPO_ROOT, childEnv, describeRun, newDataDir, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The dialects the demo service speaks besides today's contract. */
export const DIALECTS = ['fal', 'replicate', 'dashscope', 'bfl'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** The header each dialect reads the key from, and how the key is written in it. */
export const KEY_HEADER: Readonly<
  Record<Dialect, { header: string; value: (key: string) => string }>
> = {
  fal: { header: 'authorization', value: (key) => `Key ${key}` },
  replicate: { header: 'authorization', value: (key) => `Bearer ${key}` },
  dashscope: { header: 'authorization', value: (key) => `Bearer ${key}` },
  bfl: { header: 'x-key', value: (key) => key },
};

/** The account's key at each dialect's demo (distinct, so a key in the wrong place is told apart). */
export const KEYS: Readonly<Record<Dialect, string>> = {
  fal: 'fal-key-5d1c0e9a7b3f4e21',
  replicate: 'r8_key-90a4c1e7f2b64d38',
  dashscope: 'sk-dashscope-6e2b8f0c1a9d',
  bfl: 'bfl-key-3a7e5c9d1f0b2846',
};
/** A key the demo does not know. */
export const WRONG_KEY = 'sk-wrong-0c4e8a2f6b1d9735';
const ALL_KEYS = [...Object.values(KEYS), WRONG_KEY];

/** The demo service's request log. */
export interface DemoLog {
  readonly requests: RequestLogEntry[];
  readonly submits: RequestLogEntry[];
  readonly polls: RequestLogEntry[];
  readonly downloads: RequestLogEntry[];
}

/** One demo service process in a dialect. */
export interface DialectService {
  readonly dialect: Dialect;
  readonly url: string;
  readonly key: string;
  log(): Promise<DemoLog>;
  tasks(): Promise<DemoTaskSnapshot[]>;
  /** POST /_demo/<path>; throws on a refusal. */
  control(path: string, body?: unknown): Promise<unknown>;
}

/** A CLI process still running, for a test that stops it on purpose. */
export interface RunningCli {
  readonly child: ChildProcess;
  /** Resolves once stderr has a line matching `pattern` (or rejects when the CLI exits first). */
  stderrLine(pattern: RegExp): Promise<string>;
  readonly finished: Promise<CliRun>;
}

/** A dialect service, a data dir and a home, and the CLI runs made against them. */
export interface ProviderWorld {
  readonly service: DialectService;
  readonly dataDir: string;
  /** The HOME its runs have, removed with the world: where a test's own files go (cli-harness.ts). */
  readonly home: string;
  readonly runs: CliRun[];
  /**
   * Runs `pictor <args>` with `--data-dir`, `--poll-interval 0.2` and `--timeout 30` added when
   * absent, SERVICE_API_KEY = the dialect's key unless `key` says otherwise (`null`: unset),
   * with `env` added to the CLI's environment.
   */
  run(
    args: readonly string[],
    options?: { key?: string | null; env?: Readonly<Record<string, string>> },
  ): Promise<CliRun>;
  /** The same, left running. */
  start(args: readonly string[]): RunningCli;
  /** `--provider <d> --base-url <demo>`: how each test names the demo. */
  readonly named: readonly string[];
}

/** Starts the demo service in this process from its command line's arguments. */
async function startDemo(
  args: readonly string[],
): Promise<{ close: () => Promise<void>; url: string }> {
  const command = parseCliArgs(['--port', '0', '--control', ...args]);
  if (command.kind !== 'run') throw new Error(`not a demo service command: ${args.join(' ')}`);
  const service = await startDemoService({ images: testImageEngine, ...command.options });
  return { close: () => service.close(), url: service.url };
}

async function demoJson(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

function dialectService(dialect: Dialect, url: string): DialectService {
  return {
    dialect,
    url,
    key: KEYS[dialect],
    log: async () => (await demoJson(`${url}/_demo/log`)) as DemoLog,
    tasks: async () => (await demoJson(`${url}/_demo/tasks`)) as DemoTaskSnapshot[],
    control: (path, body) =>
      demoJson(`${url}/_demo/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      }),
  };
}

function completeArgs(args: readonly string[], dataDir: string): string[] {
  const full = [...args];
  if (!full.includes('--data-dir')) full.push('--data-dir', dataDir);
  if (['generate', 'resume', 'track', 'cancel'].includes(args[0] ?? '')) {
    if (!full.includes('--poll-interval')) full.push('--poll-interval', '0.2');
    if (!full.includes('--timeout')) full.push('--timeout', '30');
  }
  return full;
}

/** Spawns the CLI and keeps it running; `finished` resolves when it exits. */
function startCli(args: readonly string[], key: string, home: string): RunningCli {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args], {
    cwd: REPO_ROOT,
    env: childEnv({ key, home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const wait of waiting.splice(0)) {
      const line = stderr.split('\n').find((text) => wait.pattern.test(text));
      if (line === undefined) waiting.push(wait);
      else wait.resolve(line);
    }
  });
  const finished = new Promise<CliRun>((resolve) =>
    child.once('close', (code) =>
      resolve({
        args,
        code,
        stdout,
        stderr,
        timedOut: false,
        durationMs: performance.now() - started,
      }),
    ),
  );
  return {
    child,
    finished,
    stderrLine: (pattern) =>
      new Promise((resolve, reject) => {
        waiting.push({ pattern, resolve });
        void finished.then((run) =>
          reject(new Error(`the CLI ended before ${pattern}:\n${describeRun(run)}`)),
        );
      }),
  };
}

async function checkNoKeyLeaked(world: ProviderWorld): Promise<void> {
  for (const run of world.runs) {
    const leaked = ALL_KEYS.filter((key) => run.stdout.includes(key) || run.stderr.includes(key));
    expect(leaked, `an API key was printed by:\n${describeRun(run)}`).toEqual([]);
  }
  for (const file of await filesUnder(world.dataDir, { missing: 'empty' })) {
    const bytes = await readFile(file);
    expect(
      ALL_KEYS.filter((key) => bytes.includes(key)),
      `a key in ${file}`,
    ).toEqual([]);
  }
}

/**
 * Registers the clean-up and the after-each check; returns a function that starts a world in
 * `dialect` with the demo's `extra` flags (`--duration 300` unless given).
 */
export function useProviderWorlds(): (
  dialect: Dialect,
  extra?: readonly string[],
) => Promise<ProviderWorld> {
  const open: { world: ProviderWorld; demo: { close: () => Promise<void> }; dirs: string[] }[] = [];
  afterEach(async () => {
    const current = open.splice(0);
    try {
      for (const { world } of current) await checkNoKeyLeaked(world);
    } finally {
      for (const { demo, dirs } of current) {
        await demo.close();
        for (const dir of dirs) await removeFolder(dir);
      }
    }
  });
  return async (dialect, extra = []) => {
    const duration = extra.includes('--duration') ? [] : ['--duration', '300'];
    const demo = await startDemo([
      '--dialect',
      dialect,
      '--key',
      `a:${KEYS[dialect]}`,
      ...duration,
      ...extra,
    ]);
    // An empty history at today's schema, as cli-harness.ts's worlds start on.
    const dataDir = await newDataDir('cli-providers');
    const home = await tempFolder('cli-home');
    const runs: CliRun[] = [];
    const world: ProviderWorld = {
      service: dialectService(dialect, demo.url),
      dataDir,
      home,
      runs,
      named: ['--provider', dialect, '--base-url', demo.url],
      run: async (args, options = {}) => {
        const key = options.key === undefined ? KEYS[dialect] : (options.key ?? undefined);
        const env = options.env ? { env: options.env } : {};
        const run = await runCliHere(completeArgs(args, dataDir), { key, home, ...env });
        runs.push(run);
        return run;
      },
      start: (args) => {
        const running = startCli(completeArgs(args, dataDir), KEYS[dialect], home);
        void running.finished.then((run) => runs.push(run));
        return running;
      },
    };
    open.push({ world, demo, dirs: [dataDir, home] });
    return world;
  };
}

/**
 * Asserts that every request the demo logged carried the key in the dialect's header, written
 * the dialect's way, and nowhere else (no other header, no path); image downloads carry none.
 */
export function expectKeyOnlyInDialectHeader(dialect: Dialect, log: DemoLog): void {
  const key = KEYS[dialect];
  const { header, value } = KEY_HEADER[dialect];
  expect(log.requests.length).toBeGreaterThan(0);
  for (const entry of log.requests) {
    const elsewhere = Object.entries(entry.headers).filter(
      ([name, text]) => (name !== header || entry.route === 'image') && text.includes(key),
    );
    expect(elsewhere, `${entry.method} ${entry.path}`).toEqual([]);
    expect(entry.path).not.toContain(key);
    if (entry.route === 'image') continue;
    expect(entry.auth, `${entry.method} ${entry.path}`).toEqual({ header, value: value(key) });
  }
}

/** Commands the CLI printed for the user to run next ("Resume with: …", Ctrl+C's). */
export function printedCommands(run: CliRun): string[] {
  return run.stderr
    .split('\n')
    .map((line) => /(?:Resume with|continue with): npm run -s cli -- (.*)$/.exec(line)?.[1])
    .filter((command): command is string => command !== undefined);
}

/**
 * The words of a printed command whose values hold no quote (the tests' temporary folders):
 * shellQuote wraps such a value in single quotes when it needs quoting at all.
 */
export function commandWords(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

/** The provider ids in a run's `--json` lines. */
export function providersOf(run: CliRun): ProviderId[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { provider: ProviderId }).provider);
}
