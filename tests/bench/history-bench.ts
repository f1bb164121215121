/**
 * History store figures at scale (not a test): `npx tsx tests/bench/history-bench.ts`.
 * Prints one table: put-update latency at 1,000 vs 100,000 records, open + first page, search,
 * and a control row with the same records in one JSON file rewritten per change (what
 * electron-store does on every `set`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryStore } from '../../electron/core/history/history-store';
import type { TaskRecord } from '../../shared/domain/task-record';

const BIG = Number(process.env['PICTOR_BENCH_RECORDS'] ?? 100_000);
const SMALL = 1_000;
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

interface Row {
  case: string;
  p50: string;
  p95: string;
  runs: number;
}

function record(n: number, createdAt: number): TaskRecord {
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

function fill(store: HistoryStore, count: number): TaskRecord[] {
  const records = Array.from({ length: count }, (_, n) => record(n, 1_700_000_000_000 + n * 1_000));
  for (let start = 0; start < count; start += 5_000)
    store.putMany(records.slice(start, start + 5_000));
  return records;
}

/** Runs `work` `runs` times and reports the median and 95th percentile in ms. */
function measure(name: string, runs: number, work: (run: number) => void): Row {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work(run);
    times.push(performance.now() - start);
  }
  return summarise(name, times);
}

function summarise(name: string, times: number[]): Row {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2);
  return { case: name, p50: at(0.5), p95: at(0.95), runs: times.length };
}

/**
 * Update latency at both sizes, measured alternately so machine load (other processes, disk
 * write-back) weighs on both the same.
 */
function updates(
  small: HistoryStore,
  smallRecords: TaskRecord[],
  big: HistoryStore,
  bigRecords: TaskRecord[],
): Row[] {
  const smallTimes: number[] = [];
  const bigTimes: number[] = [];
  const update = (store: HistoryStore, records: TaskRecord[], run: number, times: number[]) => {
    const target = records[(run * 7_919) % records.length]!;
    const start = performance.now();
    store.put({ ...target, polls: target.polls + run + 1, updatedAt: Date.now() });
    times.push(performance.now() - start);
  };
  for (let run = 0; run < 400; run += 1) {
    update(small, smallRecords, run, smallTimes);
    update(big, bigRecords, run, bigTimes);
  }
  return [
    summarise(`put update @ ${smallRecords.length.toLocaleString('en')}`, smallTimes),
    summarise(`put update @ ${bigRecords.length.toLocaleString('en')}`, bigTimes),
  ];
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'pictor-history-bench-'));
  const file = join(dir, 'big.sqlite');
  const label = BIG.toLocaleString('en');
  const rows: Row[] = [];
  try {
    const small = HistoryStore.open(join(dir, 'small.sqlite'));
    const smallRecords = fill(small, SMALL);
    let store = HistoryStore.open(file);
    const fillStart = performance.now();
    const records = fill(store, BIG);
    rows.push({
      case: `insert ${label} (putMany)`,
      p50: (performance.now() - fillStart).toFixed(0),
      p95: '',
      runs: 1,
    });
    rows.push(...updates(small, smallRecords, store, records));
    small.close();
    store.close();
    rows.push(...opens(file, label));
    store = HistoryStore.open(file);
    rows.push(...queries(store));
    store.close();
    rows.push(jsonControl(dir, records, label));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
}

/** A clean open, and an open after a crash (which runs the full integrity check). */
function opens(file: string, label: string): Row[] {
  const clean = measure(`open + first page @ ${label}`, 5, () => {
    const store = HistoryStore.open(file);
    store.list();
    store.close();
  });
  const afterCrash = measure(`open after a crash (quick_check) @ ${label}`, 2, () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(`${file}.owner`, JSON.stringify({ pid: dead, startedAt: 1 }));
    const store = HistoryStore.open(file);
    store.list();
    store.close();
  });
  return [clean, afterCrash];
}

function queries(store: HistoryStore): Row[] {
  return [
    measure('list 20 pages (cursor walk)', 20, () => walk(store, 20)),
    measure('list statuses=[failed]', 20, () => store.list({ statuses: ['failed'] })),
    measure('list statuses=[processing] (none)', 20, () =>
      store.list({ statuses: ['processing'] }),
    ),
    measure('list favourite', 20, () => store.list({ favourite: true })),
    measure('listImages first page', 20, () => store.listImages()),
    measure('listImages search "#99999"', 20, () => store.listImages({ search: '#99999' })),
    measure('search "lighthouse" (every record)', 20, () => store.list({ search: 'lighthouse' })),
    measure('search "#99999" (one record)', 20, () => store.list({ search: '#99999' })),
    measure('search "zq" (2 chars: scan, none)', 10, () => store.list({ search: 'zq' })),
    measure('count search "storm neon"', 10, () => store.count({ search: 'storm neon' })),
    measure('unfinished()', 10, () => store.unfinished()),
  ];
}

function walk(store: HistoryStore, pages: number): void {
  let cursor: string | null = null;
  for (let page = 0; page < pages; page += 1) cursor = store.list({ cursor }).nextCursor;
}

/** electron-store rewrites its whole JSON file on every `set`. */
function jsonControl(dir: string, records: TaskRecord[], label: string): Row {
  const file = join(dir, 'history.json');
  const byId: Record<string, TaskRecord> = Object.fromEntries(records.map((r) => [r.localId, r]));
  return measure(`JSON rewrite per set @ ${label} (control)`, 10, (run) => {
    const target = records[run]!;
    byId[target.localId] = { ...target, polls: target.polls + 1 };
    writeFileSync(file, JSON.stringify({ history: byId }, null, '\t'));
  });
}

main();
