/**
 * How long similar tasks usually took: the median wait (shared/domain/task-timing.ts) of the
 * most recent completed tasks in the loaded list, of the same model when enough are known. Shown
 * beside a running task's elapsed time, so a wait can be judged against the usual one.
 */
import { tookMs } from '../../shared/domain/task-timing';
import type { TaskItem } from '../../shared/ipc/contract';
import type { AppState } from './app-state';
import { selectTaskItems } from './record-selectors';

/** Fewer finished tasks than this say too little about the next one: nothing is shown. */
const MIN_SAMPLES = 3;
/** Only the most recent finished tasks count (the service and its load change over time). */
const RECENT_SAMPLES = 20;

/** The middle value (the mean of the two middle ones for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const upper = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const lower = sorted[Math.ceil(sorted.length / 2) - 1] ?? upper;
  return (lower + upper) / 2;
}

interface Sample {
  readonly model: string;
  readonly finishedAt: number;
  readonly duration: number;
}

function samplesOf(items: readonly TaskItem[]): Sample[] {
  const samples: Sample[] = [];
  for (const { record } of items) {
    const duration = tookMs(record);
    if (record.status !== 'completed' || duration === null || record.finishedAt === null) continue;
    const model = record.request.model ?? '';
    samples.push({ model, finishedAt: record.finishedAt, duration });
  }
  return samples.sort((a, b) => b.finishedAt - a.finishedAt);
}

function recentMedian(samples: readonly Sample[]): number | null {
  if (samples.length < MIN_SAMPLES) return null;
  return median(samples.slice(0, RECENT_SAMPLES).map((sample) => sample.duration));
}

/**
 * The usual duration, in ms, of a task of `model` ('' or undefined: any model), from `items`;
 * null when fewer than {@link MIN_SAMPLES} completed tasks go by.
 */
export function typicalDuration(items: readonly TaskItem[], model?: string): number | null {
  const samples = samplesOf(items);
  if (model) {
    const same = recentMedian(samples.filter((sample) => sample.model === model));
    if (same !== null) return same;
  }
  return recentMedian(samples);
}

/** Per list and model, so every running row asking again after a store change costs nothing. */
const cache = new WeakMap<readonly TaskItem[], Map<string, number | null>>();

/** A selector of {@link typicalDuration} over the loaded tasks, cached per loaded list. */
export function selectTypicalDuration(model?: string): (state: AppState) => number | null {
  return (state) => {
    const items = selectTaskItems(state);
    let known = cache.get(items);
    if (!known) {
      known = new Map();
      cache.set(items, known);
    }
    const key = model ?? '';
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const computed = typicalDuration(items, key);
    known.set(key, computed);
    return computed;
  };
}
