/**
 * The history the "Costs ledger" row measures: the bench's app-shaped task records, every one with
 * a cost (what a heavy user of paid services has), written through the store's own write path
 * (putMany: the ledger, its sums and version kept by the schema's triggers) over the 365 days
 * before {@link COSTS_END}, on five services each billing in its own unit: mostly estimates, some
 * reported, some unknown, not billed or free; one task in a hundred then removed from the history
 * (the ledger keeps it). Built once per size and cached under os.tmpdir() (keyed by schema and
 * generator version); every run works on a fresh copy.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_MIGRATIONS } from '../../electron/core/history/history-schema';
import { HistoryStore } from '../../electron/core/history/history-store';
import type { ProviderId } from '../../shared/domain/providers';
import type { CostUnit, TaskCost } from '../../shared/domain/task-cost';
import type { TaskRecord } from '../../shared/domain/task-record';
import { benchRecord } from './history-fixture';

/** Bump when {@link costRecord} or the ledger's sums (schema v9, still in the making) change. */
const GENERATOR_VERSION = 2;
/** The instant the ledger ends (the bench's "now"): 25 November 2026, noon UTC. */
export const COSTS_END = Date.UTC(2026, 10, 25, 12);
const SPAN_MS = 365 * 86_400_000;
const BATCH = 5_000;

const SERVICES: readonly { provider: ProviderId; unit: CostUnit }[] = [
  { provider: 'fal', unit: 'USD' },
  { provider: 'replicate', unit: 'USD' },
  { provider: 'bfl', unit: 'credits' },
  { provider: 'dashscope', unit: 'CNY' },
  { provider: 'pictor', unit: 'USD' },
];

function costOf(n: number, unit: CostUnit): TaskCost {
  const micros = 10_000 + ((n * 7_919) % 90_000);
  const kind = n % 100;
  if (kind < 70) return { source: 'estimated', micros, unit, basis: 'image' };
  if (kind < 90) return { source: 'reported', micros, unit, field: 'usage.cost' };
  if (kind < 95) return { source: 'unknown' };
  if (kind < 98) return { source: 'not_billed' };
  return { source: 'free' };
}

/** Task `n` of `count`: created evenly over the year before {@link COSTS_END}, with its cost. */
export function costRecord(n: number, count: number): TaskRecord {
  const createdAt = COSTS_END - SPAN_MS + Math.floor(((n + 0.5) * SPAN_MS) / count);
  const { provider, unit } = SERVICES[n % SERVICES.length]!;
  return { ...benchRecord(n, createdAt), provider, cost: costOf(n, unit) };
}

/** Whether task `n` is one of those removed from the history (the ledger keeps them). */
export const isRemoved = (n: number): boolean => n % 100 === 37;

function cacheFile(count: number): string {
  return join(
    tmpdir(),
    `pictor-bench-costs-s${HISTORY_MIGRATIONS.length}-g${GENERATOR_VERSION}-${count}.sqlite`,
  );
}

function isValid(file: string, count: number): boolean {
  try {
    const store = HistoryStore.open(file);
    try {
      return (
        store.schemaVersion === HISTORY_MIGRATIONS.length && store.costs.ledgerSize() === count
      );
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}

function build(file: string, count: number): void {
  const store = HistoryStore.open(file);
  try {
    for (let from = 0; from < count; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - from) }, (_, k) =>
        costRecord(from + k, count),
      );
      store.putMany(batch);
    }
  } finally {
    store.close();
  }
  removeSome(file, count);
}

/**
 * Removes the tasks {@link isRemoved} names from the history, as HistoryStore.delete does (its
 * images, then its row; the schema's triggers move the ledger's version), in one transaction:
 * ten thousand single deletes each synced to disk would take the build minutes.
 */
function removeSome(file: string, count: number): void {
  const db = new DatabaseSync(file);
  try {
    const images = db.prepare('DELETE FROM images WHERE local_id = ?');
    const task = db.prepare('DELETE FROM tasks WHERE local_id = ?');
    db.exec('BEGIN IMMEDIATE');
    for (let n = 0; n < count; n += 1) {
      if (!isRemoved(n)) continue;
      const { localId } = costRecord(n, count);
      images.run(localId);
      task.run(localId);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** A `count`-task ledger at `file`: copied from the cache, else built (then cached). */
export function costsHistory(file: string, count: number): { built: boolean; buildMs: number } {
  const cache = cacheFile(count);
  if (existsSync(cache)) {
    copyFileSync(cache, file);
    if (isValid(file, count)) return { built: false, buildMs: 0 };
    rmSync(file, { force: true });
  }
  const started = performance.now();
  build(file, count);
  const buildMs = performance.now() - started;
  const partial = `${cache}.${process.pid}.tmp`;
  copyFileSync(file, partial);
  renameSync(partial, cache);
  return { built: true, buildMs };
}
