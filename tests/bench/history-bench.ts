/**
 * History store measurements, used by the bench suite (tests/bench/suites/history.ts, run with
 * `npm run bench -- --only history`) and printable on their own, with a few more cases, by
 * `npx tsx tests/bench/history-bench.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HistoryStore } from '../../electron/core/history/history-store';
import type { TaskRecord } from '../../shared/domain/task-record';
import { bigHistory, fillStore } from './history-fixture';

/** Median and 95th percentile of a set of timings, in ms. */
export interface Stats {
  readonly p50: number;
  readonly p95: number;
  readonly runs: number;
}

export function summarise(times: readonly number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), runs: times.length };
}

/** Runs `work` `runs` times (after one unmeasured warm-up run) and summarises the timings. */
export function measure(runs: number, work: (run: number) => void): Stats {
  work(-1);
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work(run);
    times.push(performance.now() - start);
  }
  return summarise(times);
}

/** One status update: a put of an existing record, as the engine does after a poll. */
function updateOne(store: HistoryStore, records: readonly TaskRecord[], run: number): number {
  const target = records[(run * 7_919) % records.length]!;
  const start = performance.now();
  store.put({ ...target, polls: target.polls + run + 1, updatedAt: Date.now() });
  return performance.now() - start;
}

/**
 * Update latency at both sizes, measured alternately so machine load (other processes, disk
 * write-back) weighs on both the same.
 */
export function alternateUpdates(
  small: { store: HistoryStore; records: readonly TaskRecord[] },
  big: { store: HistoryStore; records: readonly TaskRecord[] },
  runs: number,
): { small: Stats; big: Stats } {
  const smallTimes: number[] = [];
  const bigTimes: number[] = [];
  updateOne(small.store, small.records, runs);
  updateOne(big.store, big.records, runs);
  for (let run = 0; run < runs; run += 1) {
    smallTimes.push(updateOne(small.store, small.records, run));
    bigTimes.push(updateOne(big.store, big.records, run));
  }
  return { small: summarise(smallTimes), big: summarise(bigTimes) };
}

/** A clean open of the file and its first page, as the app does at start. */
export function openAndFirstPage(file: string, runs: number): Stats {
  return measure(runs, () => {
    const store = HistoryStore.open(file);
    store.list();
    store.close();
  });
}

/** An open that checks the whole file first (PRAGMA quick_check), as after an interrupted check. */
export function openChecked(file: string, runs: number): Stats {
  return measure(runs, () => {
    const store = HistoryStore.open(file, { integrityCheck: 'always' });
    store.list();
    store.close();
  });
}

/** electron-store rewrites its whole JSON file on every `set`: one `set` at this size. */
export function jsonControl(dir: string, records: readonly TaskRecord[], runs: number): Stats {
  const file = join(dir, 'history.json');
  const byId: Record<string, TaskRecord> = Object.fromEntries(records.map((r) => [r.localId, r]));
  return measure(runs, (run) => {
    const target = records[Math.max(0, run)]!;
    byId[target.localId] = { ...target, polls: target.polls + 1 };
    writeFileSync(file, JSON.stringify({ history: byId }, null, '\t'));
  });
}

function walk(store: HistoryStore, pages: number): void {
  let cursor: string | null = null;
  for (let page = 0; page < pages; page += 1) cursor = store.list({ cursor }).nextCursor;
}

/** Every case, printed as one table: the suite's rows and more. */
function main(): void {
  const big = Number(process.env['PICTOR_BENCH_RECORDS'] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'pictor-history-bench-'));
  const rows: Record<string, Stats> = {};
  try {
    const small = HistoryStore.open(join(dir, 'small.sqlite'));
    const smallRecords = fillStore(small, 1_000);
    const history = bigHistory(join(dir, 'big.sqlite'), big);
    console.log(`${big} records: ${history.source} ${history.buildMs?.toFixed(0) ?? ''}`);
    let store = HistoryStore.open(history.file);
    const updates = alternateUpdates(
      { store: small, records: smallRecords },
      { store, records: history.records },
      400,
    );
    rows['put update @ 1,000'] = updates.small;
    rows[`put update @ ${big}`] = updates.big;
    small.close();
    store.close();
    rows['open + first page'] = openAndFirstPage(history.file, 5);
    rows['open with a full check (quick_check)'] = openChecked(history.file, 2);
    store = HistoryStore.open(history.file);
    const cases: Record<string, () => unknown> = {
      'list 20 pages (cursor walk)': () => walk(store, 20),
      'list statuses=[failed]': () => store.list({ statuses: ['failed'] }),
      'list favourite': () => store.list({ favourite: true }),
      'listImages first page': () => store.listImages(),
      'listImages search "#99999"': () => store.listImages({ search: '#99999' }),
      'list search "lighthouse" (every record)': () => store.list({ search: 'lighthouse' }),
      'count search "lighthouse"': () => store.count({ search: 'lighthouse' }),
      'list search "#99999" (one record)': () => store.list({ search: '#99999' }),
      'count search "#99999"': () => store.count({ search: '#99999' }),
      'list search "zq" (2 chars: scan, none)': () => store.list({ search: 'zq' }),
      'unfinished()': () => store.unfinished(),
    };
    for (const [name, work] of Object.entries(cases)) rows[name] = measure(10, work);
    store.close();
    rows['JSON rewrite per set (control)'] = jsonControl(dir, history.records, 5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(
    Object.fromEntries(
      Object.entries(rows).map(([name, s]) => [
        name,
        { p50: s.p50.toFixed(2), p95: s.p95.toFixed(2), runs: s.runs },
      ]),
    ),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
