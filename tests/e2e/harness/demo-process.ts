/**
 * The demo service as a separate process on loopback (one per test file), with the TCP switch in
 * front of it: the app talks to `url` (the switch), tests read what the service saw and script it
 * through its control API at `directUrl`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type {
  DemoDialect,
  DemoTaskSnapshot,
  RequestLogEntry,
} from '../../../electron/demo-service/types';
import { NODE_ENTRIES_ENV, entryArgs } from '../../support/node-entries';
import { REPO_ROOT } from './repo-paths';
import { TcpSwitch } from './tcp-switch';

export type { DemoTaskSnapshot };
/** One request as the service received it (see docs/DEMO-SERVICE.md). */
export type Entry = RequestLogEntry;

export interface DemoProcess {
  /** The base URL the APP must use: a loopback switch in front of the real service. */
  readonly url: string;
  /** The service itself. */
  readonly directUrl: string;
  /** What the service saw: GET /_demo/log of the real service. */
  log(): Promise<{ requests: Entry[]; submits: Entry[]; polls: Entry[]; downloads: Entry[] }>;
  tasks(): Promise<DemoTaskSnapshot[]>;
  /** POST /_demo/<path> (faults, expire-images, tasks, credits…); throws on a refusal. */
  control(path: string, body?: unknown): Promise<unknown>;
  /** DELETE /_demo/faults. */
  clearFaults(): Promise<void>;
  /** Network off/on for the app: the switch refuses connections / accepts them again on the same port; the service keeps its tasks. */
  goOffline(): Promise<void>;
  goOnline(): Promise<void>;
  stop(): Promise<void>;
}

export interface DemoProcessOptions {
  /** 'account:key'; default the service's own (`demo:demo`). */
  keys?: string[];
  /** Fixed or [min, max] ms; default the service's 3000–6000. */
  durationMs?: number | [number, number];
  failureRate?: number;
  imageTtlMs?: number;
  /** 'account:n'. */
  credits?: string[];
  imagesPerTask?: number;
  /** Files served as they are as each task's images (`--image-file`, in order). */
  imageFiles?: readonly string[];
  /** The interface spoken (`--dialect`); default today's contract. */
  dialect?: DemoDialect;
}

const STARTUP_TIMEOUT_MS = 30_000;

export function demoArgs(options: DemoProcessOptions = {}): string[] {
  const args = ['--port', '0', '--control'];
  for (const key of options.keys ?? []) args.push('--key', key);
  for (const credit of options.credits ?? []) args.push('--credits', credit);
  const { durationMs } = options;
  if (durationMs !== undefined) {
    args.push('--duration', Array.isArray(durationMs) ? durationMs.join('-') : String(durationMs));
  }
  if (options.failureRate !== undefined) args.push('--failure-rate', String(options.failureRate));
  if (options.imageTtlMs !== undefined) args.push('--image-ttl', String(options.imageTtlMs));
  if (options.imagesPerTask !== undefined) {
    args.push('--images-per-task', String(options.imagesPerTask));
  }
  for (const file of options.imageFiles ?? []) args.push('--image-file', file);
  if (options.dialect !== undefined) args.push('--dialect', options.dialect);
  return args;
}

/** Resolves the URL of the `listening on <url>` line, or rejects with what the process said. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`demo service did not start: ${why}\n${stderr.trim()}`));
    };
    const timer = setTimeout(() => fail('no "listening on" line in time'), STARTUP_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => fail(`exited with ${String(code)}`));
    child.once('error', (error) => fail(error.message));
  });
}

async function demoRequest(url: string, method: string, body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The demo service bundled for the run (tests/e2e/global-setup.ts), or its source. */
function demoEntry(): string[] {
  const dir = process.env[NODE_ENTRIES_ENV];
  return dir ? entryArgs(dir, 'demo-service') : ['--import', 'tsx', 'electron/demo-service/cli.ts'];
}

export async function startDemoProcess(options: DemoProcessOptions = {}): Promise<DemoProcess> {
  const child = spawn(process.execPath, [...demoEntry(), ...demoArgs(options)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A worker that dies without afterAll must not leave the service running.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let directUrl: string;
  let relay: TcpSwitch;
  try {
    directUrl = await listeningUrl(child);
    const target = new URL(directUrl);
    relay = await TcpSwitch.start({ host: target.hostname, port: Number(target.port) });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  const demoPath = (path: string): string => `${directUrl}/_demo/${path.replace(/^\/+/, '')}`;
  return {
    url: relay.url,
    directUrl,
    log: async () =>
      (await demoRequest(demoPath('log'), 'GET')) as Awaited<ReturnType<DemoProcess['log']>>,
    tasks: async () => (await demoRequest(demoPath('tasks'), 'GET')) as DemoTaskSnapshot[],
    control: (path, body) => demoRequest(demoPath(path), 'POST', body ?? {}),
    clearFaults: async () => void (await demoRequest(demoPath('faults'), 'DELETE')),
    goOffline: () => relay.off(),
    goOnline: () => relay.on(),
    async stop() {
      await relay.off();
      await stopChild(child);
    },
  };
}
