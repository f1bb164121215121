/**
 * Crashes: the whole core in a child process, killed with SIGKILL at random moments
 * aimed at submits, polls, downloads, history writes and thumbnail writes, restarted each time.
 * No task lost, none submitted twice, no image duplicated or half-written, the history opens
 * after every kill, no temporary file survives the next start.
 *
 * tests/integration/core/core-crash.test.ts already kills the CLI at timed moments (6 tasks,
 * 8 kills); this suite aims the kills at phases, at the full scale, and counts them.
 *
 * Sizing. A seed fixes the plan of every kill (which phase, which occurrence, how long after its
 * marker), the demo service's random choices and so the test's work; a run's length is its
 * process start (about half a second) and its writes, so the test costs about its number of kills
 * (1.3 s each on a quiet 2-core machine). `npm test` runs {@link FIXED_SEEDS}: the four seeds that
 * once failed here (300456596 and 945370432 left every task submit_unknown under load, 828304866
 * and 715608504 found the final run waiting on tasks the service never finished), each with
 * {@link KILLS} kills over {@link TASKS} tasks: 24 kills over four fresh libraries, against one
 * random seed's 30 over one before, and the last test checks that together they interrupted
 * submits, polls, history writes and the gallery's writes. What those seeds found was the
 * machine's timing under load, which no seed replays: the fixes are in the runner, the plan and
 * the final run, and a seed keeps the plans that exposed them. PICTOR_CRASH_SEED=<n> runs the
 * seed n alone (the replay of a seed printed on failure); PICTOR_CRASH_SEED=random draws one.
 * `npm run soak` (PICTOR_SOAK=1) runs one seed, random unless given, with 100 kills over 200 tasks.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { recordReliability } from '../support/reliability-record';
import { SOAK, scaled } from '../support/scale';
import { seedsToRun } from '../../support/seeds';
import {
  expectCleanDataDir,
  expectGalleryExact,
  hasLeftLog,
  openAndReadHistory,
  tempFiles,
} from './core-kill-checks';
import { killLiveWorkers, runWorker, type KillPlan } from './core-kill-runner';
import { PHASES, taskOfPrompt, type Phase } from './core-kill-shared';
// The demo service's seeded PRNG: the plan of every kill replays from the seed.
import { seededRandom } from '../../../electron/demo-service/prng';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const TASKS = scaled(12, 200);
const KILLS = scaled(6, 100);
/** New tasks per run, so submits spread over several runs (and kills land among them). */
const SUBMIT_BATCH = Math.ceil(TASKS / 6);
/** The seeds that once failed here (see the header), each run under `npm test`. */
const FIXED_SEEDS = [300_456_596, 945_370_432, 828_304_866, 715_608_504];
const SEEDS = seedsToRun(process.env['PICTOR_CRASH_SEED'], FIXED_SEEDS);
const FILE = 'tests/hardening/crashes/core-kill.test.ts';

/**
 * Each run starts a core in a new process and waits for it to reach its target, and on a loaded
 * machine both take longer: at load 17 to 19 (a full CI run, six busy loops and a second copy of
 * the test beside it) a start took up to 22 s and a run 20 s on average, so a seed's 7 runs could
 * pass the project's 180 s (30 kills of one seed took up to 708 s there). Soak runs keep the
 * limit `npm run soak` gives.
 */
const TIMEOUT = SOAK ? {} : { timeout: 1_200_000 };

const debug = (...args: unknown[]): void => {
  if (process.env['PICTOR_CRASH_DEBUG']) console.log(...args);
};

let service: DemoService | undefined;
let dir: string | undefined;
afterEach(async () => {
  killLiveWorkers();
  await service?.close();
  if (dir) await removeFolder(dir);
});

/** Delay windows (ms) after a phase's marker: short for quick synchronous writes. */
const DELAY_MS: Record<Phase, number> = {
  submit: 12,
  poll: 12,
  download: 25,
  history: 3,
  thumbnail: 3,
  sidecar: 3,
};

/** How many markers of a phase may pass before the kill (more for frequent ones). */
const OCCURRENCES: Record<Phase, number> = {
  submit: 3,
  poll: 8,
  download: 4,
  history: 20,
  thumbnail: 4,
  sidecar: 4,
};

/**
 * Picks a phase that can still happen in the next run, and when within it to kill. Once tasks
 * are stored, a run while none is known by id is killed at its first poll (after a submit was
 * answered): a kill before it can only cut submits, and where answers are slow (a loaded machine)
 * each such kill left all four submits in flight submit_unknown, until no task was left to work on.
 */
function planKill(
  random: () => number,
  records: readonly TaskRecord[],
  toSubmit: number,
): KillPlan {
  if (records.length > 0 && records.every((record) => record.taskId === null))
    return { target: 'poll', occurrence: 1, delayMs: Math.floor(random() * (DELAY_MS.poll + 1)) };
  const processing = records.filter((record) => record.status === 'processing').length;
  const pendingImages = records.some((record) => record.images.some((i) => i.state === 'pending'));
  const phases: Phase[] = ['history'];
  if (toSubmit > 0) phases.push('submit');
  if (processing > 0) phases.push('poll');
  if (processing > 0 || pendingImages) phases.push('download', 'thumbnail');
  const target = phases[Math.floor(random() * phases.length)]!;
  const occurrences = target === 'submit' ? Math.min(3, toSubmit) : OCCURRENCES[target];
  return {
    target,
    occurrence: 1 + Math.floor(random() * occurrences),
    delayMs: Math.floor(random() * (DELAY_MS[target] + 1)),
  };
}

/** How many of each (for the debug lines). */
function countOf(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** A record's service id never changes once known, and no record disappears. */
function checkIdsStable(records: readonly TaskRecord[], ids: Map<string, string | null>): void {
  for (const [localId, taskId] of ids) {
    const record = records.find((candidate) => candidate.localId === localId);
    expect(record, `record ${localId} lost`).toBeDefined();
    if (taskId !== null) expect(record!.taskId).toBe(taskId);
  }
  for (const record of records) ids.set(record.localId, record.taskId);
}

/**
 * Completes the oldest processing service tasks the records know by id until `share` of those
 * are done: completions (and with them downloads and thumbnails) spread over the runs, and with a
 * share below 1 some task is still being polled in every run, so every run has work. Tasks the
 * core never learnt the id of (a kill cut the submit's answer: submit_unknown) are left alone:
 * the core never polls them, and counting them let the known tasks all complete early when kills
 * cut many answers (a loaded machine answers submits slowly), leaving runs with nothing to do.
 */
function completeUpTo(demo: DemoService, share: number, records: readonly TaskRecord[]): void {
  const known = new Set(records.map((record) => record.taskId));
  const tasks = demo.tasks().filter((task) => known.has(task.id));
  const processing = tasks.filter((task) => task.status === 'processing');
  processing.sort((a, b) => a.createdAt - b.createdAt);
  const wanted = Math.floor(tasks.length * share) - (tasks.length - processing.length);
  for (const task of processing.slice(0, Math.max(0, wanted))) demo.completeTask(task.id);
}

/** What one seed's kills did, for the last test's checks and the reliability row. */
interface SeedResult {
  readonly seed: number;
  readonly kills: Readonly<Record<string, number>>;
  /** Markers the killed runs announced, by phase (what the kills could aim at). */
  readonly markers: Readonly<Record<string, number>>;
  readonly outcome: Readonly<Record<string, number>>;
}
const results: SeedResult[] = [];

describe('the core in a child process under SIGKILL', () => {
  for (const seed of SEEDS)
    it(
      `loses nothing across ${KILLS} kills during ${TASKS} tasks (seed ${seed})`,
      TIMEOUT,
      async () => {
        onTestFailed(() => console.error(`core-kill seed: ${seed} (PICTOR_CRASH_SEED=${seed})`));
        results.push(await killAndCheck(seed));
      },
    );

  it("interrupts submits, polls, history writes and the gallery's writes, and records the figures", () => {
    expect(
      results.map((result) => result.seed),
      'every seed ran',
    ).toEqual(SEEDS);
    const kills = addUp(results.map((result) => result.kills));
    // The fixed seeds' sizing is held to it; one seed replayed or drawn (6 kills) may miss a phase.
    const phases = Object.keys(kills);
    if (SEEDS.length > 1) {
      expect(phases).toEqual(expect.arrayContaining(['submit', 'poll', 'history']));
      expect(phases.some((phase) => phase === 'thumbnail' || phase === 'sidecar')).toBe(true);
      // Every phase a plan may aim at is announced (image downloads go through the core's pinned
      // transport, not the service's fetch: a marker there was never printed).
      const markers = addUp(results.map((result) => result.markers));
      for (const phase of PHASES)
        expect(markers[phase] ?? 0, `${phase} markers`).toBeGreaterThan(0);
    }
    const outcome = addUp(results.map((result) => result.outcome));
    recordReliability({
      section: 'crashes',
      row: 'Core killed with SIGKILL mid-work',
      load: `${SEEDS.length} × (${TASKS} tasks, 2 images each, ${KILLS} kills and restarts)`,
      injected: Object.fromEntries(
        Object.entries(kills).map(([phase, count]) => [`SIGKILL during ${phase}`, count]),
      ),
      outcome: { ...outcome, seeds: SEEDS.join(', ') },
      lost: outcome['lost'] ?? 0,
      duplicated: outcome['duplicated'] ?? 0,
      leaked: outcome['tempFilesAfterNextStart'] ?? 0,
      file: FILE,
    });
  });
});

/** Sums of the counts of the same name. */
function addUp(counts: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const each of counts)
    for (const [name, n] of Object.entries(each)) sums[name] = (sums[name] ?? 0) + n;
  return sums;
}

/** One seed: KILLS killed runs over TASKS tasks, a clean final run, then every check. */
async function killAndCheck(seed: number): Promise<SeedResult> {
  const random = seededRandom(seed);
  service = await startDemoService({
    // Longer than the test: tasks complete when the test says, so every run has work.
    durationMs: 600_000,
    imagesPerTask: 2,
    seed,
  });
  dir = await tempFolder('core-kill', memoryTempParent());
  const dataDir = join(dir, 'data');
  const galleryDir = join(dir, 'gallery');
  const base = [dataDir, galleryDir, service.url];
  const kills: Record<string, number> = {};
  const markers: Record<string, number> = {};
  const ids = new Map<string, string | null>();
  const tempAtStart: string[] = [];
  let tempLeftByKills = 0;
  let logsLeft = 0;
  let historyOpens = 0;
  let records: TaskRecord[] = [];
  const checkTemp = async (): Promise<void> => void tempAtStart.push(...tempFiles(galleryDir));

  for (let run = 0; run < KILLS; run += 1) {
    const known = new Set(records.map((record) => taskOfPrompt(record.request.prompt)));
    const missing = Array.from({ length: TASKS }, (_, n) => n).filter((n) => !known.has(n));
    const batch = missing.slice(0, SUBMIT_BATCH);
    const plan = planKill(random, records, batch.length);
    const started = Date.now();
    const outcome = await runWorker([...base, 'run', batch.join(',')], plan, checkTemp);
    kills[outcome.killedAt!] = (kills[outcome.killedAt!] ?? 0) + 1;
    for (const [phase, seen] of Object.entries(outcome.markers))
      markers[phase] = (markers[phase] ?? 0) + seen;
    debug(
      `run ${run} (${Date.now() - started} ms, ${JSON.stringify(outcome.timing)}): plan ${JSON.stringify(plan)} killed at ${outcome.killedAt}`,
      outcome.markers,
    );

    tempLeftByKills += tempFiles(galleryDir).length;
    if (hasLeftLog(dataDir)) logsLeft += 1;
    records = openAndReadHistory(dataDir);
    historyOpens += 1;
    checkIdsStable(records, ids);
    completeUpTo(service, (0.85 * (run + 1)) / KILLS, records);
    debug(
      'records',
      countOf(records.map((r) => r.status)),
      'service',
      countOf(service.tasks().map((t) => t.status)),
    );
  }

  // Everything the service still works on finishes; a clean run collects the rest. A task a
  // kill left stored but never sent is sent by that run (send-mark.ts): it finishes on its own.
  for (const task of service.tasks())
    if (task.status === 'processing') service.completeTask(task.id);
  service.setDuration({ min: 200, max: 400 });
  debug(
    'final run',
    records.map((record) => record.status),
  );
  // A kill can cut a run's submits before every task of its batch was stored, and the runs are
  // KILLS × SUBMIT_BATCH = TASKS, with none to spare: the final run submits what none stored
  // (never sent: a task is stored before it is sent, and checkOutcome counts what was sent twice).
  const stored = new Set(records.map((record) => taskOfPrompt(record.request.prompt)));
  const unsent = Array.from({ length: TASKS }, (_, n) => n).filter((n) => !stored.has(n));
  const final = await runWorker([...base, 'finish', unsent.join(',')], null, checkTemp);
  expect(final.done).not.toBeNull();
  records = openAndReadHistory(dataDir);
  historyOpens += 1;
  checkIdsStable(records, ids);
  expect(tempAtStart, 'temp files found after a start').toEqual([]);
  expectCleanDataDir(dataDir);

  const figures = await checkOutcome(service, records, galleryDir);
  // Kills by the step they interrupted (they add up to KILLS).
  expect(Object.values(kills).reduce((sum, count) => sum + count, 0)).toBe(KILLS);
  expect(kills['idle'] ?? 0, 'kills that found no work to interrupt').toBe(0);
  await service.close();
  service = undefined;
  return {
    seed,
    kills,
    markers,
    outcome: {
      ...figures,
      historyOpens,
      historyLogsRecoveredAtOpen: logsLeft,
      tempFilesLeftByKills: tempLeftByKills,
      tempFilesAfterNextStart: tempAtStart.length,
    },
  };
}

/**
 * Records against what the service saw. Every task number has exactly one record; every service
 * task was submitted once and is either the record with its id or a submit the kill cut between
 * send and answer (submit_unknown, never re-sent); every other record completed with its images
 * saved, exactly once, byte for byte.
 */
async function checkOutcome(demo: DemoService, records: readonly TaskRecord[], galleryDir: string) {
  const numbers = records.map((record) => taskOfPrompt(record.request.prompt));
  expect(numbers.sort((a, b) => a! - b!)).toEqual(Array.from({ length: TASKS }, (_, n) => n));
  const tasks = demo.tasks();
  const prompts = tasks.map((task) => task.prompt);
  const duplicated = prompts.length - new Set(prompts).size;
  expect(demo.log.submits.length).toBeLessThanOrEqual(TASKS);
  let lost = 0;
  let orphaned = 0;
  for (const task of tasks) {
    const record = records.find((candidate) => candidate.request.prompt === task.prompt);
    if (record?.taskId === task.id) continue;
    if (record?.status === 'submit_unknown' && record.taskId === null) orphaned += 1;
    else lost += 1;
  }
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  const withId = records.filter((record) => record.taskId !== null);
  expect(new Set(withId.map((record) => record.taskId)).size).toBe(withId.length);
  for (const record of records) {
    if (record.taskId === null) expect(record.status).toBe('submit_unknown');
    else expect(record.status, record.localId).toBe('completed');
  }
  const completed = records.filter((record) => record.status === 'completed');
  for (const record of completed)
    expect(record.images.map((image) => image.state)).toEqual(['saved', 'saved']);
  const gallery = await expectGalleryExact(galleryDir, completed);
  // A kill between the last image's history write and the first sidecar write used to leave a
  // finished task with no sidecar, invisible to a rebuild (fixed in download-manager.ts).
  expect(gallery.missingSidecars, 'completed tasks without a sidecar').toBe(0);
  expect(prompts.every((prompt) => records.some((r) => r.request.prompt === prompt))).toBe(true);
  return {
    serviceSubmits: demo.log.submits.length,
    serviceTasks: tasks.length,
    completed: completed.length,
    submitUnknown: records.length - withId.length,
    submitUnknownAccepted: orphaned,
    imagesSaved: gallery.images,
    staleSidecarsRebuiltFromFiles: gallery.staleSidecars,
    missingSidecars: gallery.missingSidecars,
    lost,
    duplicated,
  };
}
