/**
 * Exactly one process polls a task at a time. Two app-like processes share one library
 * (tests/hardening/concurrency/lease-worker.ts, bundled); one of them is killed with SIGKILL at a
 * random moment, again and again, and a new one started, while tasks are submitted, polled and
 * downloaded. A loopback proxy in front of the demo service sees every request and who sent it.
 *
 * Must hold: no task lost (every task a worker said it stored is in the history, once); none
 * submitted twice; never two requests for one task in flight at once; a task's polls come from
 * one process after another, never back and forth; every task with an id ends completed once a
 * last process finishes the work; and tasks were really taken over from killed processes (the
 * workers' lease is a day, lease-shared.ts: no lease ends during a run, so only a takeover from a
 * killed holder moves a task, and without it the last process stalls). A worker never ends by
 * itself, so every kill finds its victim running; one that ended fails the run with its exit and
 * its stderr (CI's "kills that found their worker still running: expected 4 to be 5" at seed
 * 925273889 was such a worker, whose cause that count did not say).
 *
 * Sizing. A seed fixes which process dies, after how many requests and how many milliseconds
 * later, and the demo service's task durations; the test costs about its number of kills (each a
 * worker's start). `npm test` runs {@link FIXED_SEEDS}, the three seeds that once failed here
 * (519130254: every victim died before polling, so nothing was taken over; 547128728: a start-up
 * removed another process's download under it; 925273889: an idle victim sent nothing, which
 * stalled the counted wait), each with 5 kills over one fresh library: 15 kills against one random
 * seed's 16 before. Each failure was the machine's timing meeting that plan, which no seed
 * replays: a seed keeps the plan. PICTOR_LEASE_SEED=<n> runs the seed n alone (the replay of a
 * seed printed on failure), PICTOR_LEASE_SEED=random draws one; PICTOR_LEASE_KILLS sets the kills
 * per seed; `npm run soak` (PICTOR_SOAK=1) runs one seed, random unless given, with 80 kills.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { seededRandom } from '../../../electron/demo-service/prng';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { needsWork } from '../../../electron/core/engine/task-transitions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { scaled } from '../support/scale';
import { seedsToRun } from '../../support/seeds';
import { promptOf } from './lease-shared';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';
import { REPO_ROOT } from '../../support/source-files';

const KILLS = Number(process.env['PICTOR_LEASE_KILLS'] || scaled(5, 80));
const BATCH = 4;
/** The seeds that once failed here (see the header), each run under `npm test`. */
const FIXED_SEEDS = [519_130_254, 547_128_728, 925_273_889];
const SEEDS = seedsToRun(process.env['PICTOR_LEASE_SEED'], FIXED_SEEDS);
/**
 * How long the workers may stand still (no request, no line) before a wait fails: a hang's guard,
 * never a deadline for the work (a loaded machine only makes a run longer). Counted only while no
 * process of the run waits for a CPU (see {@link waitWhileMoving}): 60 s of wall time failed seed
 * 547128728 with "no progress" at load 30-37 on two cores (the file took 129 s against 13.6 s
 * quiet; it passed at load ~10).
 */
const STALL_MS = 60_000;

interface Seen {
  /** Task id → how many of its requests are in flight now, and the most ever at once. */
  readonly inFlight: Map<string, { now: number; max: number }>;
  /** Task id → the workers that polled it, in order of their polls. */
  readonly pollers: Map<string, string[]>;
  /** Prompt of every submit that reached the service. */
  readonly submits: string[];
  /** Worker pid → how many requests it has sent through the proxy. */
  readonly requests: Map<string, number>;
  /** Answers the proxy has written out in full (to any worker). */
  answered: number;
}

const workers = new Set<ChildProcess>();
/** Each worker's `close` (its stdio drained, startWorker's record of how it ended made). */
const closings = new WeakMap<ChildProcess, Promise<unknown>>();
let service: DemoService | undefined;
let proxy: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  for (const child of workers) child.kill('SIGKILL');
  workers.clear();
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await service?.close();
  if (dir) await removeFolder(dir);
});

/** Forwards to the demo service, counting what is in flight per task and who sent it. */
async function startProxy(target: string, seen: Seen): Promise<string> {
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = request.url ?? '/';
    const taskId = /^\/v1\/tasks\/([^/?]+)/.exec(url)?.[1] ?? null;
    const worker = String(request.headers['x-worker'] ?? '?');
    seen.requests.set(worker, (seen.requests.get(worker) ?? 0) + 1);
    if (request.method === 'POST') {
      seen.submits.push(String((JSON.parse(body.toString('utf8')) as { prompt?: unknown }).prompt));
    }
    let done = (): void => undefined;
    if (taskId !== null) {
      const list = seen.pollers.get(taskId) ?? [];
      if (list.at(-1) !== worker) list.push(worker);
      seen.pollers.set(taskId, list);
      const count = seen.inFlight.get(taskId) ?? { now: 0, max: 0 };
      count.now += 1;
      count.max = Math.max(count.max, count.now);
      seen.inFlight.set(taskId, count);
      let ended = false;
      done = () => {
        if (ended) return;
        ended = true;
        count.now -= 1;
      };
      // A killed worker's socket closes: its request is no longer in flight.
      response.on('close', done);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    const answer = await fetch(`${target}${url}`, {
      method: request.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-encoding', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    });
    response.writeHead(answer.status, out);
    response.end(bytes, () => {
      seen.answered += 1;
      done();
    });
  };
  proxy = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/**
 * A worker and its printed lines. A worker never ends by itself (a `run` worker idles once its
 * tasks are submitted, a `finish` worker exits 0 after `done`): one that does crashed, or
 * something outside the test killed it, and `died` gets its pid, how it ended and its stderr.
 */
function startWorker(args: readonly string[], lines: string[], died: string[]): ChildProcess {
  const child = spawn(process.execPath, [...nodeEntryArgs('lease-worker'), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.add(child);
  closings.set(child, once(child, 'close'));
  let buffer = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.on('close', (code, signal) => {
    workers.delete(child);
    if (code !== null && code !== 0) lines.push(`error ${err}`);
    // `killed`: this test sent it SIGKILL (kill() below, or afterEach).
    if (!child.killed && (args[2] === 'run' || code !== 0)) {
      died.push(`worker ${child.pid} ended by itself (${signal ?? `exit code ${code}`}): ${err}`);
    }
  });
  return child;
}

/**
 * Kills a worker with SIGKILL and waits for it to be gone. A worker ends only when killed, so
 * one found ended died by itself (its `close` says how, startWorker).
 * @returns whether it was still running: the kill cut its work.
 */
async function kill(child: ChildProcess): Promise<boolean> {
  const running = child.exitCode === null && child.signalCode === null;
  if (running) child.kill('SIGKILL');
  await closings.get(child);
  return running;
}

/**
 * How long `pid` (this process: `self`) has waited for a CPU while it could run, in ms: Linux's
 * run-queue delay (/proc/<pid>/schedstat), or `null` where it is not known (another OS, a process
 * gone).
 */
function cpuWaitMs(pid: number | 'self'): number | null {
  try {
    const waitedNs = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * Waits for `check` as long as `progress` moves: fails once it has stood still for `stallMs`,
 * naming `what` (read then, so it can say where things stood). Stood-still time is wall time less
 * what the run's processes (this one, which counts the moves, and the live workers) spent waiting
 * for a CPU meanwhile, the most any of them waited: a loaded machine that leaves them in the run
 * queue moves no bound, a hang (a worker asleep, waiting for what never comes) still fails, later
 * by what its and this process's wake-ups wait (with the takeover broken, at load ~30: after
 * 98 s of wall time for 60 s counted). Where the wait is not known (not Linux), wall time.
 */
async function waitWhileMoving(
  check: () => boolean,
  progress: () => number,
  stallMs: number,
  what: () => string,
): Promise<void> {
  const pids = (): (number | 'self')[] => [
    'self',
    ...[...workers].flatMap((child) => (child.pid === undefined ? [] : [child.pid])),
  ];
  let seen = progress();
  let stood = 0;
  let last = performance.now();
  let moved = last;
  let waited = new Map(pids().map((pid) => [pid, cpuWaitMs(pid)]));
  while (!check()) {
    const now = performance.now();
    const next = new Map(pids().map((pid) => [pid, cpuWaitMs(pid)]));
    let mostWaited = 0;
    for (const [pid, ms] of next) {
      const before = waited.get(pid);
      if (ms !== null && before !== undefined && before !== null) {
        mostWaited = Math.max(mostWaited, ms - before);
      }
    }
    stood += Math.max(0, now - last - mostWaited);
    last = now;
    waited = next;
    if (progress() !== seen) {
      seen = progress();
      stood = 0;
      moved = now;
    }
    if (stood > stallMs) {
      const wall = Math.round(now - moved);
      throw new Error(
        `no progress in ${stallMs} ms waiting for ${what()} (${wall} ms of wall time, the rest waiting for a CPU)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The history's unfinished tasks, each with its state, for a failure's message. */
function unfinished(dataDir: string): string {
  // "none" with the last process still waiting is a settle its engine never announced.
  const left = readHistory(dataDir).filter(needsWork);
  const states = left.map(
    (record) =>
      `${record.localId} ${record.status} [${record.images.map((image) => image.state).join(',')}]`,
  );
  return states.length === 0 ? 'none' : states.join('; ');
}

function readHistory(dataDir: string): TaskRecord[] {
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE), { integrityCheck: 'always' });
  try {
    return store.list({ limit: 500 }).items;
  } finally {
    store.close();
  }
}

describe('task leases under kill -9', () => {
  for (const seed of SEEDS)
    it(`${KILLS} kills of one of two processes sharing a library: no task lost, resubmitted or polled by two at once (seed ${seed})`, async () => {
      onTestFailed(() => console.log(`replay with PICTOR_LEASE_SEED=${seed}`));
      await killAndCheck(seed);
    });
});

/** One seed: KILLS victims, a last process that finishes the work, then every check. */
async function killAndCheck(seed: number): Promise<void> {
  const random = seededRandom(seed);
  service = await startDemoService({ durationMs: { min: 600, max: 2_500 }, seed });
  const seen: Seen = {
    inFlight: new Map(),
    pollers: new Map(),
    submits: [],
    requests: new Map(),
    answered: 0,
  };
  const url = await startProxy(service.url, seen);
  dir = await tempFolder('leases', memoryTempParent());
  const dataDir = dir;
  const lines: string[] = [];
  const died: string[] = [];
  let next = 0;
  const spawnRunner = (): ChildProcess => {
    const child = startWorker([dataDir, url, 'run', `${next},${BATCH}`], lines, died);
    next += BATCH;
    return child;
  };
  const alive = [spawnRunner(), spawnRunner()];
  // Every other victim is killed only once it has polled a task of its own (a condition, not a
  // time: on a loaded machine a worker could take longer to start than a pause and die having
  // polled nothing, so no task was ever taken over). Each victim dies after a random number of
  // requests from now (0 to 3, by any worker: a worker whose tasks are done sends none, and the
  // newest always has its own to submit), counted at the proxy, either as that request arrives
  // (its answer not yet read) or once the proxy has written out as many more answers (the worker
  // taking one in): the moment of the kill is drawn from the seed among the workers' steps
  // (starting, submitting, polling, downloading) and observed, never a wait of wall time (it was
  // 150-1350 ms, then 0-40 ms after the count, which a fast or a loaded machine moves).
  const ended = (child: ChildProcess): boolean =>
    child.exitCode !== null || child.signalCode !== null;
  const hasPolled = (child: ChildProcess): boolean =>
    ended(child) || [...seen.pollers.values()].some((list) => list.includes(String(child.pid)));
  const requests = (): number => [...seen.requests.values()].reduce((sum, n) => sum + n, 0);
  const moves = (): number => requests() + lines.length;
  let killedAtWork = 0;
  for (let round = 0; round < KILLS; round += 1) {
    const victim = alive.splice(Math.floor(random() * alive.length), 1)[0]!;
    const steps = Math.floor(random() * 4);
    // The draw that was a pause of 0-40 ms: the seeds' plans (victims, steps) stay as they were.
    const onAnswer = random() < 0.5;
    // Waited for as long as the workers move (a request or a line); a stall fails, not a
    // deadline for the whole wait (it was 60 s of wall time each).
    if (round % 2 === 0) {
      await waitWhileMoving(
        () => hasPolled(victim),
        moves,
        STALL_MS,
        () => `worker ${victim.pid} to poll a task`,
      );
    }
    const count = onAnswer ? () => seen.answered : requests;
    const target = count() + steps;
    await waitWhileMoving(
      () => ended(victim) || count() >= target,
      moves,
      STALL_MS,
      () =>
        `${steps} more ${onAnswer ? 'answers' : 'requests'} before killing worker ${victim.pid}`,
    );
    if (await kill(victim)) killedAtWork += 1;
    alive.push(spawnRunner());
  }
  // Each kill found its victim at work: a worker never ends by itself, so one that did crashed
  // (named with its stderr), which is a failure of its own, never a kill that came late.
  expect(died, 'workers that ended without being killed').toEqual([]);
  expect(killedAtWork, 'kills that found their worker still running').toBe(KILLS);
  for (const child of alive) await kill(child);
  // A last process takes everything over at once (every owner's pid is gone) and finishes it.
  const finisher = startWorker([dataDir, url, 'finish'], lines, died);
  // Its work is every task the killed processes left (dozens of downloads on a loaded machine):
  // waited for as long as it moves, never bounded as a whole; a minute without a change fails.
  await waitWhileMoving(
    () => lines.includes('done') || lines.some((line) => line.startsWith('error')),
    () => lines.length,
    STALL_MS,
    () => `the last process to finish (the history's unfinished tasks: ${unfinished(dataDir)})`,
  );
  await kill(finisher);
  expect(lines.filter((line) => line.startsWith('error')).join('\n')).toBe('');

  const records = readHistory(dataDir);
  const stored = lines
    .filter((line) => line.startsWith('submitted '))
    .map((line) => Number(line.slice(10)));
  const prompts = records.map((record) => record.request.prompt);
  // Nothing lost, nothing stored twice.
  for (const n of stored) expect(prompts).toContain(promptOf(n));
  expect(new Set(prompts).size).toBe(prompts.length);
  // Nothing submitted twice.
  expect(seen.submits.length).toBe(new Set(seen.submits).size);
  // Every task that got an id is finished, with its images.
  for (const record of records.filter((r) => r.taskId !== null)) {
    expect(record.status, record.localId).toBe('completed');
    expect(
      record.images.map((image) => image.state),
      `${record.localId}: ${JSON.stringify(record.images)}`,
    ).toEqual(record.images.map(() => 'saved'));
  }
  // Never two requests for one task at once; a task passes from process to process, never back.
  for (const [taskId, count] of seen.inFlight) expect(count.max, taskId).toBe(1);
  for (const [taskId, list] of seen.pollers) {
    expect(new Set(list).size, `${taskId} polled by ${list.join(' → ')}`).toBe(list.length);
  }
  const takenOver = [...seen.pollers.values()].filter((list) => list.length > 1).length;
  expect(takenOver, 'tasks polled by a second process after the first was killed').toBeGreaterThan(
    0,
  );
  console.log(
    `leases: seed ${seed}, ${KILLS} kills, ${records.length} tasks, ${seen.submits.length} submits, ${takenOver} taken over`,
  );
}
