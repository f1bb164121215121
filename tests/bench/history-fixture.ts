/**
 * The history the benchmarks measure: synthetic but app-shaped task records, and a 100,000-record
 * database built once and cached under os.tmpdir() (building it takes ~13 s; the trigram index
 * is most of that). Every run works on a fresh copy, so the cache itself is never written to.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryStore } from '../../electron/core/history/history-store';
import { HISTORY_MIGRATIONS } from '../../electron/core/history/history-schema';
import type { TaskRecord } from '../../shared/domain/task-record';

/** Bump when {@link benchRecord} changes, so a cached database built from older records is not reused. */
const GENERATOR_VERSION = 1;
const EPOCH = 1_700_000_000_000;
const WORDS = [
  'red',
  'fox',
  'lighthouse',
  'storm',
  'portrait',
  'neon',
  'forest',
  'city',
  'cat',
  'watercolor',
];

/** Record `n` of a bench history: 12 words (every word appears in every record), 1–4 saved images. */
export function benchRecord(n: number, createdAt = EPOCH + n * 1_000): TaskRecord {
  const words = Array.from({ length: 12 }, (_, k) => WORDS[(n * 7 + k * 3) % WORDS.length]).join(
    ' ',
  );
  return {
    localId: `local-${n.toString(36).padStart(6, '0')}`,
    taskId: `task-${n}`,
    origin: 'submitted',
    endpoint: 'https://images.example.test',
    account: 'acct-1234',
    request: {
      prompt: `${words} #${n}`,
      model: n % 3 === 0 ? 'model-b' : 'model-a',
      size: '1024x1024',
    },
    status: n % 10 === 0 ? 'failed' : 'completed',
    hold: null,
    error: null,
    createdAt,
    updatedAt: createdAt + 5_000,
    submittedAt: createdAt + 10,
    finishedAt: createdAt + 5_000,
    watchStartedAt: createdAt + 10,
    polls: 4,
    lastPolledAt: createdAt + 4_000,
    images: Array.from({ length: 1 + (n % 4) }, (_, index) => ({
      index,
      url: `https://cdn.example.test/${n}/${index}.png`,
      state: 'saved' as const,
      file: `2024/${n}/image-${index}.png`,
      thumbnail: `2024/${n}/image-${index}.thumb.webp`,
      width: 1024,
      height: 1024,
      bytes: 1_234_567,
      mime: 'image/png' as const,
      attempts: 1,
      savedAt: createdAt + 6_000,
      favourite: n % 50 === 0,
    })),
    favourite: n % 40 === 0,
    folder: `2024/${n}`,
  };
}

export function benchRecords(count: number): TaskRecord[] {
  return Array.from({ length: count }, (_, n) => benchRecord(n));
}

/** Writes `count` records with putMany in batches of 5,000, as an import would. */
export function fillStore(store: HistoryStore, count: number): TaskRecord[] {
  const records = benchRecords(count);
  for (let start = 0; start < count; start += 5_000)
    store.putMany(records.slice(start, start + 5_000));
  return records;
}

/** A history database of `count` bench records at `file`, and how it was obtained. */
export interface BigHistory {
  readonly file: string;
  readonly records: TaskRecord[];
  /** `cache` when copied from a valid cached database, else `built` (then cached). */
  readonly source: 'cache' | 'built';
  /** Time to build it with putMany, when built. */
  readonly buildMs: number | null;
}

/** The cache file for this schema version, generator version and size. */
export function cacheFile(count: number): string {
  return join(
    tmpdir(),
    `pictor-bench-history-s${HISTORY_MIGRATIONS.length}-g${GENERATOR_VERSION}-${count}.sqlite`,
  );
}

/** True when the copy opens at this schema version and holds exactly the bench records. */
function isValidCopy(file: string, count: number): boolean {
  try {
    const store = HistoryStore.open(file);
    try {
      const last = store.get(benchRecord(count - 1).localId);
      return (
        store.schemaVersion === HISTORY_MIGRATIONS.length &&
        store.count() === count &&
        last?.request.prompt === benchRecord(count - 1).request.prompt
      );
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}

/**
 * Puts a `count`-record history at `file`: a copy of the cache when it is valid, else builds it
 * there and stores a copy as the cache (written under a temporary name, then renamed, so a
 * concurrent run never sees half a file).
 */
export function bigHistory(file: string, count: number): BigHistory {
  const cache = cacheFile(count);
  const records = benchRecords(count);
  if (existsSync(cache)) {
    copyFileSync(cache, file);
    if (isValidCopy(file, count)) return { file, records, source: 'cache', buildMs: null };
    rmSync(file, { force: true });
  }
  const start = performance.now();
  const store = HistoryStore.open(file);
  try {
    fillStore(store, count);
  } finally {
    store.close();
  }
  const buildMs = performance.now() - start;
  const partial = `${cache}.${process.pid}.tmp`;
  copyFileSync(file, partial);
  renameSync(partial, cache);
  return { file, records, source: 'built', buildMs };
}
