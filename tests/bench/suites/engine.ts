/**
 * Engine rows of `npm run bench`: poll efficiency (the first run of 200 tasks through the real
 * core against the demo service), completion-to-gallery (the three idle runs' medians) and the
 * part after the poll as its own rows, idle and at load, over three rounds of an idle run and one
 * with a busy loop per core.
 * Download memory is suites/download-memory.ts. Images are checked by the sharp-native engine
 * here; the app's engine (Chromium's) has its own row.
 */
import type { BenchRow, BenchSuite, JudgedFigure } from '../bench-row';
import { availableParallelism } from 'node:os';
import { startBusyLoops } from '../engine/busy-loop';
import { runPollScenario, type PollRunOptions, type PollRunResult } from '../engine/poll-run';
import { mean, quantile, seconds } from '../engine/stats';
import { runHeldScenario, type HeldRunResult } from '../engine/held-run';
import { median } from '../../support/median';

const COMMAND = 'npm run bench -- --only engine';
const TASKS = 200;
const INTERVAL_MS = 3_000;
/** Rounds of an idle run and a run at load. */
const ROUNDS = 3;

function pollRow(run: PollRunResult): BenchRow {
  const ratios = run.tasks.map((task) => task.polls / task.allowance);
  const allowance = run.tasks.reduce((sum, task) => sum + task.allowance, 0);
  const burstLimit = (TASKS / 3) * 1.5;
  const meanRatio = mean(ratios);
  const maxRatio = Math.max(...ratios);
  const unsettled = run.settled && run.tasks.length === TASKS ? 0 : 1;
  const pass = unsettled === 0 && meanRatio <= 1.05 && run.maxPollsPerSecond <= burstLimit;
  return {
    row: 'Poll efficiency',
    scenario: `${TASKS} tasks of 6–60 s submitted at once, real core vs demo service on loopback, 3 s interval`,
    target: 'polls per task ÷ (ceil(duration/3)+1) ≤ 1.05; no 1-s burst above (tasks/3)×1.5',
    measured:
      `mean ${meanRatio.toFixed(3)}, max ${maxRatio.toFixed(3)} (${run.totalPolls} polls / allowance ${allowance}); ` +
      `busiest second ${run.maxPollsPerSecond} polls vs limit ${burstLimit}`,
    pass,
    judged: [
      { name: 'mean', value: meanRatio, unit: '', digits: 3, bound: { atMost: 1.05 } },
      {
        name: 'busiest second',
        value: run.maxPollsPerSecond,
        unit: ' polls',
        digits: 0,
        bound: { atMost: burstLimit },
      },
      // The run must settle every task: a count, 0 or 1.
      { name: 'unsettled runs', value: unsettled, unit: '', digits: 0, bound: { atMost: 0 } },
    ],
    command: COMMAND,
    note:
      'The mean ratio is held to the target; the max is reported (at most 1.0 means no task got a poll beyond its allowance). ' +
      `Polls counted from the demo service's request log per task id; ${run.failedPolls} polls were not answered 200` +
      (run.settled
        ? '.'
        : `; NOT every task settled within the deadline (${seconds(run.wallMs)}).`),
  };
}

/** The part after the poll that saw the completion: download, check, thumbnail, XMP, history write. */
function afterPoll(run: PollRunResult): number[] {
  return run.tasks
    .map((task) =>
      task.doneToSavedMs === null || task.waitMs === null ? null : task.doneToSavedMs - task.waitMs,
    )
    .filter((ms): ms is number => ms !== null);
}

/** The after-poll part split where the service sees it: poll → image asked, image asked → saved. */
function afterPollLegs(run: PollRunResult): string {
  const toAsk: number[] = [];
  const toSave: number[] = [];
  for (const task of run.tasks) {
    if (task.waitMs === null || task.askedMs === null || task.doneToSavedMs === null) continue;
    toAsk.push(task.askedMs - task.waitMs);
    toSave.push(task.doneToSavedMs - task.askedMs);
  }
  const leg = (values: number[]) =>
    `median ${Math.round(quantile(values, 0.5))} ms, p95 ${Math.round(quantile(values, 0.95))} ms`;
  return `From the poll's arrival to the image's request: ${leg(toAsk)}; from the image's request to the record written: ${leg(toSave)}.`;
}

/** One run's completesAt → saved figures (ms), and of that the wait for the next poll. */
function completionRun(run: PollRunResult) {
  const latencies = run.tasks
    .map((task) => task.doneToSavedMs)
    .filter((ms): ms is number => ms !== null);
  const waits = run.tasks.map((task) => task.waitMs).filter((ms): ms is number => ms !== null);
  return {
    latencies,
    waits,
    median: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    settled: run.settled,
    complete: latencies.length === TASKS && run.settled,
    // The interval the service saw between a task's polls: 3 s and whatever the schedule drifts.
    gap: mean(run.tasks.flatMap((task) => task.pollGapsMs)),
  };
}

/**
 * Judged, as the issue asks of every row, on the median of the runs: the median of the runs'
 * medians and of their p95s (each run's median has a standard error of about 0.1 s: the wait is
 * uniform over 0–3 s and a run has 200 tasks; the middle of three, about 0.07 s). The median of
 * all the runs' tasks pooled is reported beside it, not judged.
 */
function completionRow(runs: readonly PollRunResult[]): BenchRow {
  const figures = runs.map(completionRun);
  const middle = median(figures.map((run) => run.median));
  const p95 = median(figures.map((run) => run.p95));
  const pooled = figures.flatMap((run) => run.latencies);
  const waits = figures.flatMap((run) => run.waits);
  const incomplete = figures.filter((run) => !run.complete).length;
  const pass = incomplete === 0 && middle <= 1_700 && p95 <= 3_300;
  const each = figures
    .map(
      (run, n) =>
        `run ${n + 1}: median ${seconds(run.median)}, p95 ${seconds(run.p95)}, ` +
        `max ${seconds(Math.max(...run.latencies))} (${run.latencies.length}/${TASKS} saved${run.settled ? '' : ', NOT all settled'}); ` +
        `waiting for the next poll median ${seconds(quantile(run.waits, 0.5))}, mean ${seconds(mean(run.waits))}; ` +
        `polls ${seconds(run.gap)} apart on average at the service`,
    )
    .join('; ');
  return {
    row: 'Completion to gallery',
    scenario:
      `the same ${TASKS} tasks completing over a minute: service's completesAt → its record with the image saved (thumbnail, XMP) written to the history, 1024×1024 PNGs; ` +
      `${runs.length} runs, each before one at load; the median and the p95 of each run, their medians judged (${runs.length * TASKS} tasks in all)`,
    target: 'median ≤ 1.7 s, p95 ≤ 3.3 s at a 3 s poll interval (median of the runs)',
    measured:
      `median ${seconds(middle)}, p95 ${seconds(p95)} (medians of ${runs.length} runs: ${figures.map((run) => seconds(run.median)).join(', ')}); ` +
      `all ${pooled.length} tasks pooled: median ${seconds(quantile(pooled, 0.5))}, p95 ${seconds(quantile(pooled, 0.95))}, max ${seconds(Math.max(...pooled))}`,
    pass,
    judged: latencyFigures(middle, p95, 1_700, 3_300, incomplete),
    command: COMMAND,
    note:
      `Of that, waiting for the next poll (all runs' tasks): median ${seconds(quantile(waits, 0.5))} / p95 ${seconds(quantile(waits, 0.95))}, mean ${seconds(mean(waits))} ` +
      '(uniform over 0–3 s by design: each task polls at a fixed phase every 3 s, the service’s rule, so about 1.5 s / 2.85 s; ' +
      'a poll sent late moves the next ones as late, never sooner than 3 s after it, so the mean wait is about half the interval the service saw). ' +
      `The part after that poll is the next row. A run's median has a standard error of about 0.1 s (200 tasks), the middle of ${runs.length} about 0.07 s. ` +
      each +
      '.',
  };
}

/** One run's after-poll figures (ms). */
interface AfterPollRun {
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly count: number;
  readonly settled: boolean;
  readonly legs: string;
}

function afterPollRun(run: PollRunResult): AfterPollRun {
  const after = afterPoll(run);
  return {
    median: quantile(after, 0.5),
    p95: quantile(after, 0.95),
    max: Math.max(...after),
    count: after.length,
    settled: run.settled,
    legs: afterPollLegs(run),
  };
}

/**
 * A latency row's judged figures (in s, as its cells): the runs' median and p95 against their
 * limits (ms), and the runs that did not save every task, held to none.
 */
function latencyFigures(
  middle: number,
  p95: number,
  middleLimitMs: number,
  p95LimitMs: number,
  incomplete: number,
): JudgedFigure[] {
  return [
    {
      name: 'median',
      value: middle / 1000,
      unit: ' s',
      digits: 2,
      bound: { atMost: middleLimitMs / 1000 },
    },
    { name: 'p95', value: p95 / 1000, unit: ' s', digits: 2, bound: { atMost: p95LimitMs / 1000 } },
    { name: 'incomplete runs', value: incomplete, unit: '', digits: 0, bound: { atMost: 0 } },
  ];
}

/** What queued behind what at load, as found with a CPU profile and an event-loop delay histogram. */
const AT_LOAD =
  'What queued at load: the wait for the tasks (the engine’s whenSettled, also the CLI’s) re-read every record at every ' +
  'announcement, a history read and a schema parse on the main thread for each settled task, in stalls the downloads ' +
  'queued behind; it now reads only the tasks still waited for. What is left on the main thread is the history’s own ' +
  'writes, each a synchronous fsynced commit. ';

/**
 * Judged on the median of the runs' medians and of their p95s; every run listed. `cores`: the
 * machine's cores, one busy loop spinning beside the runs on each; null for idle runs.
 */
function afterPollRow(runs: readonly PollRunResult[], cores: number | null): BenchRow {
  const figures = runs.map(afterPollRun);
  const medianOfRuns = median(figures.map((run) => run.median));
  const p95 = median(figures.map((run) => run.p95));
  const complete = figures.every((run) => run.count === TASKS && run.settled);
  const each = figures
    .map(
      (run, n) =>
        `run ${n + 1}: median ${seconds(run.median)}, p95 ${seconds(run.p95)}, max ${seconds(run.max)} (${run.count}/${TASKS}${run.settled ? '' : ', NOT all settled'}); ${run.legs}`,
    )
    .join(' ');
  const scenario = cores
    ? `the same ${TASKS} tasks with ${cores} busy-loop process${cores === 1 ? '' : 'es'} spinning beside them, one per core: arrival of the poll that saw the completion → record with the saved image written to the history; ${runs.length} runs, each after an idle one`
    : `the same ${TASKS} tasks: arrival of the poll that saw the completion → record with the saved image written to the history; ${runs.length} runs, each before one at load`;
  return {
    row: cores
      ? 'Completion to gallery, after the poll, at load'
      : 'Completion to gallery, after the poll',
    scenario,
    target: 'median ≤ 200 ms, p95 ≤ 500 ms (median of the runs)',
    measured: `median ${seconds(medianOfRuns)}, p95 ${seconds(p95)} (medians of ${runs.length} runs)`,
    pass: complete && medianOfRuns <= 200 && p95 <= 500,
    judged: latencyFigures(medianOfRuns, p95, 200, 500, complete ? 0 : 1),
    command: COMMAND,
    note:
      'Everything the app does once it knows: the poll answer, the demo drawing the image on its first download (the app’s ' +
      'embedded demo does so too), the download, the header check, the full decode and thumbnail (sharp-native engine, in ' +
      'this process; the app decodes in its image page), the XMP, the fsyncs and the history write. ' +
      (cores ? AT_LOAD : '') +
      each,
  };
}

const HELD_DIALECTS = [
  { dialect: 'fal', service: 'fal.ai (status stream)' },
  { dialect: 'replicate', service: 'Replicate (Prefer: wait)' },
] as const;
/** At most the engine's waits held open at once (held-waits.ts), so every task is held. */
const HELD_TASKS = 4;

/** Per dialect, interleaved rounds of a run with the held wait and one polling alone. */
async function heldRuns(): Promise<
  Map<string, { held: HeldRunResult[]; polled: HeldRunResult[] }>
> {
  const runs = new Map(
    HELD_DIALECTS.map(({ dialect }) => [
      dialect,
      { held: [] as HeldRunResult[], polled: [] as HeldRunResult[] },
    ]),
  );
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const { dialect } of HELD_DIALECTS) {
      for (const heldWaitMs of [20_000, null]) {
        const run = await runHeldScenario({
          dialect,
          heldWaitMs,
          tasks: HELD_TASKS,
          durationMs: { min: 4_000, max: 12_000 },
          pollIntervalMs: INTERVAL_MS,
          size: '1024x1024',
          deadlineMs: 90_000,
        });
        runs.get(dialect)![heldWaitMs === null ? 'polled' : 'held'].push(run);
      }
    }
  }
  return runs;
}

/** The median of the runs' medians of completesAt → saved (ms). */
function medianOfRuns(runs: readonly HeldRunResult[]): number {
  return median(runs.map((run) => quantile(run.doneToSavedMs, 0.5)));
}

function heldWaitRow(runs: Awaited<ReturnType<typeof heldRuns>>): BenchRow {
  const figures = HELD_DIALECTS.map(({ dialect, service }) => {
    const { held, polled } = runs.get(dialect)!;
    const complete = [...held, ...polled].every(
      (run) => run.settled && run.doneToSavedMs.length === HELD_TASKS && run.submits === HELD_TASKS,
    );
    return { service, held: medianOfRuns(held), polled: medianOfRuns(polled), complete };
  });
  return {
    row: 'Completion to gallery, held wait',
    scenario:
      `${HELD_TASKS} tasks of 4–12 s per run (the most waits the engine holds open at once) against the demo speaking fal's and Replicate's dialects on loopback, the real core ` +
      `with its held wait (fal's status stream, Replicate's Prefer: wait on the read; 20 s) and, beside it, polling alone every 3 s; ` +
      `service's completesAt → record with the saved 1024×1024 image written to the history; ${ROUNDS} interleaved rounds`,
    target: 'median ≤ 0.5 s per dialect with the held wait (median of the runs)',
    measured: figures
      .map(
        (f) => `${f.service}: median ${seconds(f.held)} held, ${seconds(f.polled)} polling alone`,
      )
      .join('; '),
    pass: figures.every((f) => f.complete && f.held <= 500),
    judged: [
      ...figures.map((f) => ({
        name: `${f.service} held`,
        value: f.held / 1000,
        unit: ' s',
        digits: 2,
        bound: { atMost: 0.5 },
      })),
      {
        name: 'dialects not saving every task once',
        value: figures.filter((f) => !f.complete).length,
        unit: '',
        digits: 0,
        bound: { atMost: 0 },
      },
    ],
    command: COMMAND,
    note:
      'The held wait only says when to poll: the poll after it reads the task, so the figure is the demo noticing the end ' +
      '(it looks every 20 ms), the answer, one poll (and fal’s result read), then the same download, check, thumbnail and history ' +
      'write as the rows above (sharp-native engine in this process, not the app’s image page). Every task submitted once.' +
      (figures.every((f) => f.complete)
        ? ''
        : ' NOT every task was saved, or one was submitted twice.'),
  };
}

export const suite: BenchSuite = {
  name: 'engine',
  async run() {
    const options: PollRunOptions = {
      tasks: TASKS,
      durationMs: { min: 6_000, max: 60_000 },
      pollIntervalMs: INTERVAL_MS,
      size: '1024x1024',
      deadlineMs: 150_000,
    };
    // Rounds of one idle run and one at load (a process spinning per core beside it), so drift
    // in the machine weighs on both alike.
    const cores = availableParallelism();
    const idle: PollRunResult[] = [];
    const loaded: PollRunResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      idle.push(await runPollScenario(options));
      const loops = await startBusyLoops(cores);
      try {
        loaded.push(await runPollScenario(options));
      } finally {
        await loops.stop();
      }
    }
    const held = await heldRuns();
    return [
      pollRow(idle[0]!),
      completionRow(idle),
      afterPollRow(idle, null),
      afterPollRow(loaded, cores),
      heldWaitRow(held),
    ];
  },
};
