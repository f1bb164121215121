/**
 * The machine sleeps while polls are out. Their connections die meanwhile: a request out through
 * the sleep is never answered (Node's fetch, as the CLI and MCP use, waits until the request's time
 * limit, 30 s), while the tasks that were only waiting resume at once. A task whose poll was out
 * must resume as promptly: within an interval of the wake, not after the time limit and a backoff.
 *
 * Two sleeps, as the systems have them: on Linux and macOS the timers' clock stands still while
 * the wall clock runs (ManualClock.suspend), on Windows timers fall due late, all at once
 * (ManualClock.jump). And two wakers: the app, whose main process calls engine.wake() on
 * powerMonitor's `resume`, and none (the CLI's `watch`/`resume`, the MCP server), where the engine
 * must notice the sleep itself.
 *
 * Real core, real demo service on loopback, on one manual clock; the one fault injected is the
 * sleep's: the fetch in front of the core drops the answers of the requests out when the lid closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { FetchLike } from '../../../electron/ports/http';
import type { ManualClock } from '../../fakes/manual-clock';
import { until } from '../support/clock-driver';
import { KEY, LogCollector, openCoreRun, polledTaskId, type CoreRun } from './fault-harness';
import { SLEEPS_AND_WAKERS, clockFor, runUntil, type Sleep, type Waker } from './sleep-cases';

const TASKS = 12;
const INTERVAL = 3_000;
/** The client's own default: what a lost request waits before it is given up. */
const REQUEST_LIMIT = 30_000;
const SLEEP = 2 * 3_600_000;

/** The task a poll's URL names. */
function polledTask(url: string): string | null {
  return /^\/v1\/tasks\/([^/?]+)/.exec(new URL(url).pathname)?.[1] ?? null;
}

/**
 * Node's fetch behind a lid. Armed, it closes as the next poll goes out: that request and every
 * other one out are lost (each reaches the service, but its answer never comes back; only its
 * signal ends it), as on a connection that died while the machine slept. Requests sent after go
 * through.
 */
class Lid {
  /** Requests out whose answer will come. */
  inFlight = 0;
  /** The tasks whose poll was lost. */
  readonly lostTasks = new Set<string>();
  armed = false;
  private readonly out = new Set<() => void>();

  readonly fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      let done = false;
      let lost = false;
      const end = (finish: () => void): void => {
        if (done) return;
        done = true;
        this.out.delete(lose);
        if (!lost) this.inFlight -= 1;
        finish();
      };
      const lose = (): void => {
        lost = true;
        this.inFlight -= 1;
        const task = polledTask(url);
        if (task !== null) this.lostTasks.add(task);
      };
      this.inFlight += 1;
      this.out.add(lose);
      fetch(url, init).then(
        (response) => (lost ? void response.body?.cancel() : end(() => resolve(response))),
        (error: unknown) => lost || end(() => reject(error)),
      );
      init?.signal?.addEventListener('abort', () => end(() => reject(init.signal?.reason)), {
        once: true,
      });
      if (this.armed && polledTask(url) !== null) this.close();
    });

  private close(): void {
    this.armed = false;
    for (const lose of this.out) lose();
    this.out.clear();
  }
}

let service: DemoService | undefined;
let run: CoreRun | undefined;
let collector: LogCollector | undefined;

afterEach(async () => {
  collector?.stop();
  await run?.dispose();
  await service?.close();
  [service, run, collector] = [undefined, undefined, undefined];
});

async function start(clock: ManualClock, lid: Lid) {
  service = await startDemoService({
    accounts: [{ account: 'sleeper', key: KEY }],
    // Still running long after the wake (the wall clock moved the sleep forward).
    durationMs: { min: SLEEP + 60_000, max: SLEEP + 90_000 },
    imagesPerTask: 1,
    now: () => clock.now(),
  });
  collector = new LogCollector(service);
  run = await openCoreRun({
    baseUrl: service.url,
    fetch: lid.fetch,
    clock,
    requestTimeoutMs: REQUEST_LIMIT,
    engine: { pollIntervalMs: INTERVAL },
  });
  const engine = run.core.engine;
  engine.start();
  const records = await engine.submit({ prompt: 'lid closes', size: '64x64' }, run.target, TASKS);
  const ids = records.map((record) => record.localId);
  await until(() => ids.every((id) => engine.get(id)?.status === 'processing'));
  return { engine, ids };
}

/** Nothing moves but what the lost requests hold: their tasks stay "polling" until they end. */
function quiet(lid: Lid, engine: CoreRun['core']['engine'], ids: readonly string[]): boolean {
  if (lid.inFlight > 0) return false;
  return ids.every((id) => {
    const live = engine.live(id);
    const lost = lid.lostTasks.has(engine.get(id)?.taskId ?? '');
    return (!live.polling || lost) && live.downloads === 0;
  });
}

describe('asleep with polls out', () => {
  it.each<[Sleep, Waker]>([...SLEEPS_AND_WAKERS])(
    '%s, %s: a task whose poll was out resumes within an interval',
    async (sleep, waker) => {
      const clock = clockFor(sleep);
      const lid = new Lid();
      const { engine, ids } = await start(clock, lid);
      const settle = () => until(() => quiet(lid, engine, ids));
      // To the first moment a poll is out: the lid closes on it.
      lid.armed = true;
      await runUntil(clock, settle, () => !lid.armed, 2 * INTERVAL);
      expect(lid.lostTasks.size).toBeGreaterThan(0);
      // Each lost poll reached the service before the sleep (it travels in real time): else the
      // service logs it after the wake, on its clock.
      const reached = (task: string) =>
        collector!
          .collect()
          .some((entry) => entry.route === 'poll' && polledTaskId(entry) === task);
      await until(() => [...lid.lostTasks].every(reached));
      const lostTasks = lid.lostTasks;
      if (sleep === 'timers stand still (Linux, macOS)') clock.suspend(SLEEP);
      else await clock.jump(SLEEP);
      const wokeAt = clock.now();
      if (waker === 'the app wakes the engine') engine.wake();
      const log = () => collector!.collect().filter((entry) => entry.at >= wokeAt);
      const answered = (taskId: string | null) =>
        log().find(
          (entry) =>
            entry.route === 'poll' && entry.status === 200 && polledTaskId(entry) === taskId,
        );
      await runUntil(
        clock,
        settle,
        () => [...lostTasks].every((task) => answered(task)),
        4 * REQUEST_LIMIT,
      );
      // Within an interval of the wake; where nobody wakes the engine, of when it noticed (a third of one).
      const bound = INTERVAL + (waker === 'the app wakes the engine' ? 0 : INTERVAL / 3);
      const late = [...lostTasks].map((task) => ({
        task,
        after: (answered(task)?.at ?? Infinity) - wokeAt,
      }));
      expect(late.filter(({ after }) => after > bound)).toEqual([]);
      // Never sooner than an interval after a task's previous poll (on the service's clock).
      const polls = collector!.collect().filter((entry) => entry.route === 'poll');
      for (const id of ids) {
        const taskId = engine.get(id)?.taskId ?? null;
        const times = polls
          .filter((entry) => polledTaskId(entry) === taskId)
          .map((entry) => entry.at);
        for (let i = 1; i < times.length; i += 1)
          expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(INTERVAL);
      }
    },
  );
});
