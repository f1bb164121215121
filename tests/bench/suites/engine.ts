/**
 * Engine rows of `npm run bench`: poll efficiency and completion-to-gallery (one run of 200
 * tasks through the real core against the demo service), download memory (a child process with
 * --expose-gc, images checked by the built image worker). The image pipeline's own row is in
 * suites/images.ts.
 */
import type { BenchRow, BenchSuite } from '../bench-row';
import { measureDownloadMemory } from '../engine/download-memory';
import type { DownloadMemoryReport } from '../engine/download-memory-child';
import { runPollScenario, type PollRunResult } from '../engine/poll-run';
import { mean, quantile, seconds } from '../engine/stats';

const COMMAND = 'npm run bench -- --only engine';
const TASKS = 200;
const INTERVAL_MS = 3_000;
const MB = 1024 * 1024;
/** Fresh processes for the download memory row; its verdict is their median. */
const MEMORY_RUNS = 3;

function pollRow(run: PollRunResult): BenchRow {
  const ratios = run.tasks.map((task) => task.polls / task.allowance);
  const allowance = run.tasks.reduce((sum, task) => sum + task.allowance, 0);
  const burstLimit = (TASKS / 3) * 1.5;
  const meanRatio = mean(ratios);
  const maxRatio = Math.max(...ratios);
  const pass =
    run.settled &&
    run.tasks.length === TASKS &&
    meanRatio <= 1.05 &&
    run.maxPollsPerSecond <= burstLimit;
  return {
    row: 'Poll efficiency',
    scenario: `${TASKS} tasks of 6–60 s submitted at once, real core vs demo service on loopback, 3 s interval`,
    target: 'polls per task ÷ (ceil(duration/3)+1) ≤ 1.05; no 1-s burst above (tasks/3)×1.5',
    measured:
      `mean ${meanRatio.toFixed(3)}, max ${maxRatio.toFixed(3)} (${run.totalPolls} polls / allowance ${allowance}); ` +
      `busiest second ${run.maxPollsPerSecond} polls vs limit ${burstLimit}`,
    pass,
    command: COMMAND,
    note:
      'The mean ratio is held to the target; the max is reported (at most 1.0 means no task got a poll beyond its allowance). ' +
      `Polls counted from the demo service's request log per task id; ${run.failedPolls} polls were not answered 200` +
      (run.settled
        ? '.'
        : `; NOT every task settled within the deadline (${seconds(run.wallMs)}).`),
  };
}

function completionRow(run: PollRunResult): BenchRow {
  const latencies = run.tasks
    .map((task) => task.doneToSavedMs)
    .filter((ms): ms is number => ms !== null);
  const waits = run.tasks.map((task) => task.waitMs).filter((ms): ms is number => ms !== null);
  const after = run.tasks
    .map((task) =>
      task.doneToSavedMs === null || task.waitMs === null ? null : task.doneToSavedMs - task.waitMs,
    )
    .filter((ms): ms is number => ms !== null);
  const median = quantile(latencies, 0.5);
  const p95 = quantile(latencies, 0.95);
  const pass = latencies.length === TASKS && median <= 1_600 && p95 <= 3_200;
  return {
    row: 'Completion to gallery',
    scenario: `the same ${TASKS} tasks: service's completesAt → image saved with thumbnail (savedAt in history), 1024×1024 PNGs`,
    target: 'median ≤ 1.6 s, p95 ≤ 3.2 s at a 3 s poll interval',
    measured: `median ${seconds(median)}, p95 ${seconds(p95)}, max ${seconds(Math.max(...latencies))} (${latencies.length}/${TASKS} saved)`,
    pass,
    command: COMMAND,
    note:
      `Split: waiting for the next poll median ${seconds(quantile(waits, 0.5))} / p95 ${seconds(quantile(waits, 0.95))}, ` +
      `then poll → saved median ${seconds(quantile(after, 0.5))} / p95 ${seconds(quantile(after, 0.95))}. ` +
      'The wait is uniform over 0–3 s by design (each task polls at a fixed phase every 3 s, the service’s rule), so its ' +
      'median is 1.5 s and only ~0.1 s is left for the poll answer, the demo rendering the image on first download, ' +
      'the download, the full decode check, the thumbnail, fsyncs and the history write. A median well under 1.6 s ' +
      'would need polls timed to the expected completion (more often than every 3 s), which the service does not allow. ' +
      'With 200 tasks the median of a uniform 0–3 s wait itself varies by about ±0.1 s from run to run, so this ' +
      'verdict can flip between runs (1.54 s, 1.70 s and 1.44 s in three runs on 2026-11-21); the app’s own share is the poll → saved part.',
  };
}

function growth(report: DownloadMemoryReport): number {
  return (report.peakRss - report.baselineRss) / MB;
}

/** The run whose growth is the median (runs sorted by growth; an odd count). */
function medianRun(runs: readonly DownloadMemoryReport[]): DownloadMemoryReport {
  const sorted = [...runs].sort((a, b) => growth(a) - growth(b));
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no download memory run');
  return middle;
}

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

const rate = (report: DownloadMemoryReport): number => (report.saved / report.wallMs) * 1000;

function memoryRow(
  imageBytes: number,
  runs: readonly DownloadMemoryReport[],
  control: readonly DownloadMemoryReport[],
  gallery: DownloadMemoryReport,
): BenchRow {
  const engine = medianRun(runs);
  const grew = growth(engine);
  const rates = runs.map(rate).sort((a, b) => a - b);
  const medianRate = rates[Math.floor(rates.length / 2)] ?? 0;
  const pass = runs.every((run) => run.saved === 100) && grew <= 200 && medianRate >= 10;
  const hwm =
    engine.highWaterRss === null
      ? ''
      : `, kernel high-water +${mb(engine.highWaterRss - engine.baselineRss)} MB`;
  const all = runs.map((run) => `+${growth(run).toFixed(0)}`).join(', ');
  const plain = medianRun(control);
  return {
    row: 'Download memory',
    scenario:
      `100 tasks completing together, one ${(imageBytes / 1e6).toFixed(1)} MB noise PNG each, downloaded by the real core (DownloadManager → Gallery) from loopback, ` +
      `each image checked and thumbnailed by the built image worker (dist-electron/image-worker.js); median of ${runs.length} fresh processes; ` +
      `control: the same run with a stand-in worker that decodes nothing, alternated with it`,
    target: 'main-process RSS growth ≤ 200 MB; ≥ 10 images/s saved with thumbnails',
    measured:
      `+${grew.toFixed(0)} MB peak RSS (runs ${all} MB; median run ${mb(engine.baselineRss)} → ${mb(engine.peakRss)} MB, sampled every 50 ms${hwm}); ` +
      `${medianRate.toFixed(1)} images/s (runs ${runs.map((run) => rate(run).toFixed(1)).join(', ')}; ${engine.saved}/100 saved, ${mb(engine.bytes)} MiB in ${seconds(engine.wallMs)}); ` +
      `control without decoding +${growth(plain).toFixed(0)} MB, ${rate(plain).toFixed(1)} images/s (runs ${control.map((run) => `+${growth(run).toFixed(0)}`).join(', ')} MB)`,
    pass,
    command: COMMAND,
    note:
      `Child processes started with --expose-gc, baseline taken after a GC. In the median run, at the RSS peak V8's heap had grown ` +
      `+${mb(engine.peakHeapGrowth)} MB and the memory its objects hold outside it +${mb(engine.peakExternalGrowth)} MB; ` +
      `after a final GC the process still held +${mb(engine.afterRss - engine.baselineRss)} MB. ` +
      'The image worker is one thread running sharp’s WebAssembly build, which starts threads of its own and keeps its WebAssembly ' +
      'memory at its high-water mark until the worker ends (30 s idle); the control run shows what the downloader alone takes. ' +
      `The same 100 images through 100 simultaneous Gallery.downloadImage calls (no download cap) grew +${growth(gallery).toFixed(0)} MB ` +
      `(${gallery.saved}/100 saved).`,
  };
}

export const suite: BenchSuite = {
  name: 'engine',
  async run() {
    const run = await runPollScenario({
      tasks: TASKS,
      durationMs: { min: 6_000, max: 60_000 },
      pollIntervalMs: INTERVAL_MS,
      size: '1024x1024',
      deadlineMs: 150_000,
    });
    const memory = await measureDownloadMemory(100, 1590, {
      engine: MEMORY_RUNS,
      control: MEMORY_RUNS,
      gallery: 1,
    });
    const { engine, control, gallery } = memory.reports;
    if (engine.length !== MEMORY_RUNS || control.length !== MEMORY_RUNS || !gallery[0]) {
      throw new Error('the download memory child gave no report');
    }
    return [
      pollRow(run),
      completionRow(run),
      memoryRow(memory.imageBytes, engine, control, gallery[0]),
    ];
  },
};
