/**
 * One run of the real core (SQLite history, gallery on disk, Node fetch, the real clock) against
 * the demo service on loopback: many tasks submitted at once, then the service's request log and
 * task snapshots read back to count polls per task and time each image from done to saved. The
 * image engine is the plain-Node one (native sharp), which also draws the demo's pictures, as the
 * app's engine draws its embedded demo's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { StaticCredentials } from '../../fakes/static-credentials';
import { maxInWindow } from '../../support/bursts';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';

export interface PollRunOptions {
  readonly tasks: number;
  readonly durationMs: { min: number; max: number };
  readonly pollIntervalMs: number;
  /** Requested image size (the demo renders each image on its first download). */
  readonly size: string;
  /** Give up waiting for the tasks after this long. */
  readonly deadlineMs: number;
}

/** Per task: its duration on the service, the polls it received, and done→saved latency. */
export interface TaskFigures {
  readonly durationMs: number;
  readonly polls: number;
  /** ceil(duration / interval) + 1: the most polls a task should need. */
  readonly allowance: number;
  /**
   * The service's completesAt to the moment the record holding the saved image was written to the
   * history (the engine announces a record once it is written); null when not saved.
   */
  readonly doneToSavedMs: number | null;
  /** Of that: from completesAt to the arrival of the poll that saw it done. */
  readonly waitMs: number | null;
  /** From completesAt to the arrival of the task's first image request; null when none came. */
  readonly askedMs: number | null;
  /** Between the arrivals of the task's successive polls (the interval the service saw). */
  readonly pollGapsMs: readonly number[];
}

export interface PollRunResult {
  readonly tasks: TaskFigures[];
  readonly totalPolls: number;
  readonly failedPolls: number;
  /** Most poll requests the service received in any 1-second window. */
  readonly maxPollsPerSecond: number;
  readonly settled: boolean;
  readonly wallMs: number;
}

const KEY = 'sk-bench';

/** Per task id: when each of its polls arrived, in order. */
function pollsByTask(service: DemoService): Map<string, number[]> {
  const polls = new Map<string, number[]>();
  for (const entry of service.log.polls) {
    const id = /^\/v1\/tasks\/([^/?]+)/.exec(entry.path)?.[1];
    if (!id) continue;
    const seen = polls.get(id) ?? [];
    seen.push(entry.at);
    polls.set(id, seen);
  }
  for (const times of polls.values()) times.sort((a, b) => a - b);
  return polls;
}

/** Per image path: when the service received its first request. */
function firstDownloads(service: DemoService): Map<string, number> {
  const first = new Map<string, number>();
  for (const entry of service.log.downloads) {
    const path = entry.path.split('?')[0]!;
    if (!first.has(path)) first.set(path, entry.at);
  }
  return first;
}

function figures(
  service: DemoService,
  records: readonly TaskRecord[],
  written: ReadonlyMap<string, number>,
  interval: number,
) {
  const counts = pollsByTask(service);
  const downloads = firstDownloads(service);
  const byTaskId = new Map(records.map((record) => [record.taskId, record]));
  return service.tasks().map((task): TaskFigures => {
    const durationMs = task.completesAt - task.createdAt;
    const record = byTaskId.get(task.id);
    const savedAt = record ? written.get(record.localId) : undefined;
    const polls = counts.get(task.id) ?? [];
    const firstUrl = task.imageUrls[0];
    const askedAt = firstUrl === undefined ? undefined : downloads.get(new URL(firstUrl).pathname);
    return {
      durationMs,
      polls: polls.length,
      allowance: Math.ceil(durationMs / interval) + 1,
      doneToSavedMs: savedAt === undefined ? null : savedAt - task.completesAt,
      waitMs: polls.length === 0 ? null : polls[polls.length - 1]! - task.completesAt,
      askedMs: askedAt === undefined ? null : askedAt - task.completesAt,
      pollGapsMs: polls.slice(1).map((at, n) => at - polls[n]!),
    };
  });
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Runs the scenario and returns the figures; everything it starts is closed and removed. */
export async function runPollScenario(options: PollRunOptions): Promise<PollRunResult> {
  const service = await startDemoService({
    accounts: [{ account: 'bench', key: KEY }],
    durationMs: options.durationMs,
    seed: 7,
    images: testImageEngine,
  });
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-engine-'));
  try {
    const core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: createNodeFetch(),
      credentials: new StaticCredentials(service.url, KEY),
      clock: systemClock,
      engine: { pollIntervalMs: options.pollIntervalMs },
    });
    // When each task's record first reached the history with its image saved.
    const written = new Map<string, number>();
    core.engine.onDidUpdate(({ record }) => {
      if (!written.has(record.localId) && record.images[0]?.state === 'saved') {
        written.set(record.localId, Date.now());
      }
    });
    try {
      core.engine.start();
      const started = Date.now();
      // One submit per task so each has its own prompt (and the demo renders each image).
      const submitted = await Promise.all(
        Array.from({ length: options.tasks }, (_, n) =>
          core.engine.submit(
            { prompt: `benchmark task ${n}: a lighthouse`, size: options.size },
            targetAt(service.url),
          ),
        ),
      );
      const ids = submitted.flat().map((record) => record.localId);
      const settled = await withDeadline(core.engine.whenSettled(ids), options.deadlineMs);
      const wallMs = Date.now() - started;
      const records = ids.map((id) => core.history.get(id)).filter((r) => r !== undefined);
      return {
        tasks: figures(service, records, written, options.pollIntervalMs),
        totalPolls: service.log.polls.length,
        failedPolls: service.log.polls.filter((entry) => entry.status !== 200).length,
        maxPollsPerSecond: maxInWindow(
          service.log.polls.map((entry) => entry.at),
          1000,
        ),
        settled: settled !== null,
        wallMs,
      };
    } finally {
      await core.close();
    }
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}
