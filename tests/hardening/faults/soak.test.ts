/**
 * Soak: many tasks submitted at once through the real core while the demo service
 * injects, at random (seeded), every fault kind on the submit, poll and image routes,
 * and image URLs expire. Judged from the history, the files on disk and the service's own log.
 * Replay a failure with PICTOR_FAULT_SEED=<printed seed>.
 *
 * Time is one manual clock for the core (its polls, backoffs and each request's limit) and the
 * service (task progress, URL expiry, a `delay` fault's hold), moved a step at a time only while
 * no request is open but those a fault holds (quiet-clock.ts): the run is bounded by steps and
 * requests, not by the 15 s limit and 16 s holds of wall time it once waited out (24-27 s a run).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../fakes/manual-clock';
import type { FetchLike } from '../../../electron/ports/http';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { recordReliability } from '../support/reliability-record';
import { SOAK, scaled } from '../support/scale';
import { KEY, LogCollector, allRecords, bump, openCoreRun, type CoreRun } from './fault-harness';
import { driveQuietly, held, waitingFetch, type QuietWatch } from './quiet-clock';
import { judgeSoak } from './soak-checks';
import { faultKinds, faultRules, kindOf, retryAfterForm } from './soak-faults';

const SEED = Number(process.env['PICTOR_FAULT_SEED'] ?? 60_601);
const TASKS = scaled(200, 1000);
const IMAGES_PER_TASK = 2;
/**
 * The service's 3 s poll interval scaled down, task durations in proportion (4–8 intervals): fewer
 * steps of the clock. The request timeout is the client's 15 s: on the manual clock no answer the
 * service sent can meet it (the clock stands still while one is on its way), only a slow fault.
 */
const INTERVAL_MS = scaled(500, 1000);
const DURATION_MS = { min: 4 * INTERVAL_MS, max: 8 * INTERVAL_MS };
const REQUEST_TIMEOUT_MS = scaled(15_000, 30_000);
const SLOW_MS = REQUEST_TIMEOUT_MS + 1_000;
const URL_TTL_MS = 20 * INTERVAL_MS;
const MAX_BACKOFF_MS = 8 * INTERVAL_MS;
const FILE = 'tests/hardening/faults/soak.test.ts';
/**
 * Clock time per step, and the most a settle may take on the clock before the test fails. While
 * an image waits for its first try the steps are short: the download queue's work between two
 * requests is quiet too, and long steps there would age the links faster than the queue works.
 */
const STEP_MS = INTERVAL_MS / 5;
const DOWNLOAD_STEP_MS = INTERVAL_MS / 100;
const MAX_CLOCK_MS = 30 * 60_000;

let service: DemoService | undefined;
let run: CoreRun | undefined;
let collector: LogCollector | undefined;

afterEach(async () => {
  collector?.stop();
  await run?.dispose();
  await service?.close();
});

/** The app's fetch, counting the 429s it receives by their Retry-After form. */
function countingFetch(seen: Record<string, number>): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status === 429) bump(seen, retryAfterForm(response.headers.get('retry-after')));
    return response;
  };
}

/**
 * Every task its own submit, all at once: a batch sends its others only after its first was
 * taken (engine's `runBatch`), and the soak is about each request under faults, not batches.
 */
async function submitAll({ core, target }: CoreRun): Promise<string[]> {
  const submits = Array.from({ length: TASKS }, () =>
    core.engine.submit({ prompt: 'soak under faults', size: '64x64' }, target, 1),
  );
  return (await Promise.all(submits)).flat().map((record) => record.localId);
}

/**
 * The images of `ids` still waiting for their first try, read through the engine (a settled
 * task's record from the history). A completed task whose images are all saved is not read again:
 * a saved image never waits again, so it adds nothing from then on. Reading all 200 records at
 * every step of the clock was a quarter of the file's CPU (engine.get of a settled task parses
 * its record and composes its triage); the counts, and so the steps, are the same.
 */
function untriedCounter(core: () => PictorCore, ids: () => readonly string[]): () => number {
  const done = new Set<string>();
  return () => {
    let untried = 0;
    for (const id of ids()) {
      if (done.has(id)) continue;
      const record = core().engine.get(id);
      if (!record) continue;
      const { images } = record;
      if (record.status === 'completed' && images.every((image) => image.state === 'saved'))
        done.add(id);
      untried += images.filter((image) => image.state === 'pending' && image.attempts === 0).length;
    }
    return untried;
  };
}

function describeLoad(): string {
  const scale = 3000 / INTERVAL_MS;
  return (
    `${TASKS} tasks submitted at once, ${IMAGES_PER_TASK} images each; manual clock, time scaled 1:${scale} ` +
    `(poll interval ${INTERVAL_MS} ms for the service's 3 s; task durations ${DURATION_MS.min}–${DURATION_MS.max} ms ` +
    `= ${(DURATION_MS.min * scale) / 1000}–${(DURATION_MS.max * scale) / 1000} s; request timeout ${REQUEST_TIMEOUT_MS} ms; ` +
    `image URLs live ${URL_TTL_MS} ms; backoff cap ${MAX_BACKOFF_MS} ms; history and gallery on tmpfs)`
  );
}

describe('soak: tasks submitted at once under random faults', () => {
  it('completes every task the service completed, saves or fairly expires every image, sends each submit once', async () => {
    console.log(
      `soak seed ${SEED} (replay: PICTOR_FAULT_SEED=${SEED})${SOAK ? ' [soak size]' : ''}`,
    );
    const clock = new ManualClock(Date.now());
    service = await startDemoService({
      now: () => clock.now(),
      timers: clock,
      accounts: [{ account: 'soak', key: KEY }],
      durationMs: DURATION_MS,
      imagesPerTask: IMAGES_PER_TASK,
      imageUrlTtlMs: URL_TTL_MS,
      seed: SEED,
    });
    collector = new LogCollector(service);
    for (const rule of faultRules(faultKinds(SLOW_MS))) service.addFault(rule);
    const seen429: Record<string, number> = {};
    const app = waitingFetch(countingFetch(seen429));
    const watch: QuietWatch = {
      clock,
      service,
      log: () => collector!.collect(),
      appWaiting: app.waiting,
      requestLimitMs: REQUEST_TIMEOUT_MS,
      delayMs: SLOW_MS,
      stallMs: 60_000,
    };
    const untried = untriedCounter(
      () => run!.core,
      () => ids,
    );
    /** Short steps while an image waits for its first try (but those the service holds). */
    const step = (): number => (untried() > held(watch)[1] ? DOWNLOAD_STEP_MS : STEP_MS);
    /** Moves the clock until every task is settled. */
    const settle = async (): Promise<void> => {
      let settled = false;
      void run!.core.engine.whenSettled(ids).then(() => (settled = true));
      const took = await driveQuietly(watch, step, () => settled, MAX_CLOCK_MS);
      expect(settled, `not settled after ${took} ms of clock time`).toBe(true);
    };
    run = await openCoreRun({
      baseUrl: service.url,
      fetch: app.fetch,
      clock,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      engine: { pollIntervalMs: INTERVAL_MS, maxBackoffMs: MAX_BACKOFF_MS },
    });
    run.core.engine.start();
    const ids = await submitAll(run);
    await settle();
    const submitsBefore = service.log.submits.length;
    const pendingImages = allRecords(run.core)
      .flatMap((record) => record.images)
      .filter((image) => image.state === 'pending').length;

    // The app's next start: images still pending are tried again; nothing is submitted again.
    await run.reopen();
    run.core.engine.start();
    await settle();
    // Two more intervals on the clock, for a submit that should not come.
    await driveQuietly(
      watch,
      () => STEP_MS,
      () => false,
      2 * INTERVAL_MS,
    );
    const log = collector.stop();
    expect(service.log.submits.length, 'a submit was sent again after the restart').toBe(
      submitsBefore,
    );

    const records = allRecords(run.core);
    const verdict = await judgeSoak({
      core: run.core,
      records,
      tasks: service.tasks(),
      log,
      expectedTasks: TASKS,
      intervalMs: INTERVAL_MS,
      urlTtlMs: URL_TTL_MS,
    });
    const injected: Record<string, number> = {};
    for (const entry of log) {
      const kind = kindOf(entry);
      if (kind && kind !== '429') bump(injected, `${entry.route}: ${kind}`);
    }
    // Image requests leave through their own pinned connection, not the service fetch counted
    // here: the service routes' 429s must all reach the app; image 429s are judged per image.
    const logged429 = log.filter(
      (entry) => kindOf(entry) === '429' && entry.route !== 'image',
    ).length;
    const appSaw429 = Object.values(seen429).reduce((sum, n) => sum + n, 0);
    Object.assign(injected, seen429);
    console.log(
      `soak counts: ${JSON.stringify(verdict.counts)}; injected ${JSON.stringify(injected)}`,
    );

    expect(verdict.problems, `seed ${SEED}`).toEqual([]);
    expect(appSaw429, 'every 429 the service sent reached the app').toBe(logged429);
    expect(verdict.lost + verdict.duplicated + verdict.leaked).toBe(0);
    expect(verdict.counts['completed']).toBe(verdict.counts['tasks the service completed']);

    recordReliability({
      section: 'faults',
      row: `Soak: ${TASKS} tasks under random faults`,
      load: describeLoad(),
      injected: { ...injected, 'expired image URLs': countExpired(verdict.counts) },
      outcome: {
        seed: SEED,
        tasks: TASKS,
        ...verdict.counts,
        'images pending after the first run, retried at the next start': pendingImages,
        lost: verdict.lost,
        duplicated: verdict.duplicated,
        leaked: verdict.leaked,
      },
      lost: verdict.lost,
      duplicated: verdict.duplicated,
      leaked: verdict.leaked,
      file: FILE,
    });
  });
});

function countExpired(counts: Record<string, number>): number {
  return Object.entries(counts)
    .filter(([name]) => name.startsWith('expired'))
    .reduce((sum, [, n]) => sum + n, 0);
}
