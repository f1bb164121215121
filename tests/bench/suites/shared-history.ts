/**
 * The shared history's rows: node:sqlite against node-sqlite3-wasm in the same run, a
 * 1,000,000-task history, two processes on one library (the app's writes while a CLI
 * command generates 100 tasks; how soon the app sees the command's changes), and `pictor rebuild`
 * of a 100,000-task gallery folder.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoService } from '../../../electron/demo-service/server';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { BenchRow, BenchSuite } from '../bench-row';
import { summarise } from '../history-bench';
import { benchRecord } from '../history-fixture';
import { measureRebuild, type RebuildFigures } from '../gallery-rebuild';
import { engineFigures, largeHistory } from '../shared-history-bench';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const COMMAND = 'npm run bench -- --only shared-history';
const SIDE_BY_SIDE = 100_000;
const MILLION = 1_000_000;
const SMALL = 1_000;

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const ratio = (a: number, b: number) => (a / b).toFixed(2);

function sideBySideRow(dir: string): BenchRow {
  const node = engineFigures('node', dir, SIDE_BY_SIDE, 400);
  const old = engineFigures('wasm', dir, SIDE_BY_SIDE, 400);
  return {
    row: 'History engine',
    scenario: `node:sqlite vs node-sqlite3-wasm in the same run, the same statements (the store's upsert, first page, search page for “#999”), WAL, synchronous=FULL: ${SIDE_BY_SIDE.toLocaleString('en')} inserts in transactions of 5,000, 400 updates, open + first page (5), search page (10)`,
    target: 'reported: ratios wasm ÷ node:sqlite',
    measured: `insert ${(node.insertMs / 1000).toFixed(1)} s vs ${(old.insertMs / 1000).toFixed(1)} s (×${ratio(old.insertMs, node.insertMs)}); update p50 ${ms(node.update.p50)} vs ${ms(old.update.p50)} (×${ratio(old.update.p50, node.update.p50)}), p95 ${ms(node.update.p95)} vs ${ms(old.update.p95)}; open + first page ${ms(node.openFirstPage.p50)} vs ${ms(old.openFirstPage.p50)} (×${ratio(old.openFirstPage.p50, node.openFirstPage.p50)}); search page ${ms(node.searchPage.p50)} vs ${ms(old.searchPage.p50)} (×${ratio(old.searchPage.p50, node.searchPage.p50)})`,
    pass: null,
    judged: [
      { name: 'insert wasm ÷ node', value: old.insertMs / node.insertMs, unit: '', digits: 2 },
      {
        name: 'update p50 wasm ÷ node',
        value: old.update.p50 / node.update.p50,
        unit: '',
        digits: 2,
      },
    ],
    command: COMMAND,
    note: 'node-sqlite3-wasm stays a devDependency for this row only; it runs in exclusive locking mode as the first generation did (one process per library). Both engines are driven through the same prepared statements; where an fsync is cheap, updates are close and the gap shows in bulk inserts, opens and reads.',
  };
}

function millionRow(dir: string): BenchRow {
  const file = join(dir, 'million.sqlite');
  const { built, buildMs } = largeHistory(file, MILLION);
  console.error(
    `bench: shared-history: 1,000,000 tasks ${built ? `built in ${(buildMs / 1000).toFixed(0)} s and cached` : 'copied from the cache'}`,
  );
  const opens: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const start = performance.now();
    const store = HistoryStore.open(file);
    store.list();
    opens.push(performance.now() - start);
    store.close();
  }
  const small = HistoryStore.open(join(dir, 'small.sqlite'));
  for (let from = 0; from < SMALL; from += 500)
    small.putMany(Array.from({ length: 500 }, (_, k) => benchRecord(from + k)));
  const big = HistoryStore.open(file);
  try {
    const bigTimes: number[] = [];
    const smallTimes: number[] = [];
    for (let run = 0; run < 400; run += 1) {
      for (const [store, count, times] of [
        [big, MILLION, bigTimes],
        [small, SMALL, smallTimes],
      ] as const) {
        const record = benchRecord((run * 7_919) % count);
        const start = performance.now();
        store.put({ ...record, polls: record.polls + run + 1 });
        times.push(performance.now() - start);
      }
    }
    const b = summarise(bigTimes);
    const s = summarise(smallTimes);
    const searches: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const start = performance.now();
      big.list({ search: '#99999', limit: 50 });
      searches.push(performance.now() - start);
    }
    const search = summarise(searches);
    const countStart = performance.now();
    const count = big.count();
    const countMs = performance.now() - countStart;
    const open = summarise(opens);
    const scaling = b.p50 / s.p50;
    return {
      row: 'History at 1,000,000 tasks',
      scenario:
        'open + first page (5 runs); one update (put) at 1,000,000 vs 1,000 tasks, 400 each alternated; prompt search page for “#99999” (10 runs); count',
      target:
        'open + first page ≤ 100 ms; update p95 ≤ 5 ms, ratio 1M ÷ 1k ≤ 1.5; search page ≤ 100 ms',
      measured: `open ${ms(open.p50)}; update p95 ${ms(b.p95)} (p50 ${ms(b.p50)} ÷ ${ms(s.p50)} = ${scaling.toFixed(2)}); search page ${ms(search.p50)}; count ${count.toLocaleString('en')} in ${ms(countMs)}`,
      pass: open.p50 <= 100 && b.p95 <= 5 && scaling <= 1.5 && search.p50 <= 100,
      judged: [
        { name: 'open', value: open.p50, unit: ' ms', digits: 2, bound: { atMost: 100 } },
        { name: 'update p95', value: b.p95, unit: ' ms', digits: 2, bound: { atMost: 5 } },
        { name: 'ratio', value: scaling, unit: '', digits: 2, bound: { atMost: 1.5 } },
        { name: 'search page', value: search.p50, unit: ' ms', digits: 2, bound: { atMost: 100 } },
      ],
      command: COMMAND,
    };
  } finally {
    big.close();
    small.close();
  }
}

/**
 * The app's writes (a put every few ms, as its engine does) while `pictor generate --count 100`
 * runs on the same library; the app's change feed times how soon each status the command writes
 * is seen.
 */
async function twoProcessRows(dir: string): Promise<BenchRow[]> {
  const service = await startDemoService({ durationMs: { min: 300, max: 1_500 } });
  const dataDir = join(dir, 'shared');
  mkdirSync(dataDir, { mode: 0o700 });
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    const own = Array.from({ length: 50 }, (_, n) => ({
      ...benchRecord(n),
      status: 'processing' as const,
    }));
    store.putMany(own);
    const seen = new Map<string, string>();
    const visible: number[] = [];
    store.onDidChangeElsewhere((changes) => {
      const now = Date.now();
      for (const localId of changes.localIds) {
        const record = store.get(localId);
        if (!record || seen.get(localId) === record.status) continue;
        seen.set(localId, record.status);
        visible.push(now - record.updatedAt);
      }
    });
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'electron/cli/main.ts',
        'generate',
        '--prompt',
        'bench lighthouse',
        '--count',
        '100',
        '--data-dir',
        dataDir,
        '--base-url',
        service.url,
        '--poll-interval',
        '0.3',
        '--timeout',
        '120',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, SERVICE_API_KEY: 'demo' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    const exited = once(child, 'close') as Promise<[number | null]>;
    let running = true;
    void exited.then(() => (running = false));
    const times: number[] = [];
    let errors = 0;
    for (let run = 0; running; run += 1) {
      const record = own[run % own.length]!;
      const start = performance.now();
      try {
        store.put({ ...record, polls: run, updatedAt: Date.now() });
      } catch {
        errors += 1;
      }
      times.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [code] = await exited;
    // The last changes: one more look of the feed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const writes = summarise(times);
    const seenVisible = summarise(visible);
    const busy = /busy|locked/i.test(stderr);
    return [
      {
        row: 'Two processes writing',
        scenario: `the app's store puts a record every 5 ms while \`pictor generate --count 100\` (another process, real engine, demo service) writes the same library until it exits`,
        target: 'update p95 ≤ 20 ms; no SQLITE_BUSY reaching the user',
        measured: `p95 ${ms(writes.p95)} (p50 ${ms(writes.p50)}, ${writes.runs} puts); ${errors} failed puts; command exit ${String(code)}${busy ? ', busy/locked in its output' : ', nothing busy in its output'}`,
        pass: writes.p95 <= 20 && errors === 0 && code === 0 && !busy,
        judged: [
          { name: 'p95', value: writes.p95, unit: ' ms', digits: 2, bound: { atMost: 20 } },
          // What the user must never see, as a count: failed puts, a failed command, busy said.
          {
            name: 'failures',
            value: errors + Number(code !== 0) + Number(busy),
            unit: '',
            digits: 0,
            bound: { atMost: 0 },
          },
        ],
        command: COMMAND,
      },
      {
        row: 'Another process visible',
        scenario: `each status the command writes (${seenVisible.runs} changes of 100 tasks), from its write (updatedAt) to the app's change feed reading it (data_version every 250 ms)`,
        target: 'median ≤ 1 s',
        measured: `median ${ms(seenVisible.p50)}, p95 ${ms(seenVisible.p95)}`,
        pass: seenVisible.runs > 0 && seenVisible.p50 <= 1_000,
        judged: [
          { name: 'changes', value: seenVisible.runs, unit: '', digits: 0, bound: { atLeast: 1 } },
          {
            name: 'median',
            value: seenVisible.p50,
            unit: ' ms',
            digits: 0,
            bound: { atMost: 1_000 },
          },
        ],
        command: COMMAND,
      },
    ];
  } finally {
    store.close();
    await service.close();
  }
}

const REBUILD_TASKS = 100_000;
const REBUILD_RUNS = 3;
const MB = 1_000_000;

async function rebuildRow(): Promise<BenchRow> {
  const runs: RebuildFigures[] = [];
  for (let run = 0; run < REBUILD_RUNS; run += 1) runs.push(await measureRebuild(REBUILD_TASKS));
  const [first] = runs;
  const byTime = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  const median = byTime[Math.floor(byTime.length / 2)];
  if (!first || !median) throw new Error('the rebuild gave no figures');
  const peaks = runs.map((run) => run.peakRss ?? Number.NaN);
  const worstPeak = Math.max(...peaks);
  const addedAll = (run: RebuildFigures) =>
    run.exitCode === 0 &&
    run.output.includes(
      `Found ${REBUILD_TASKS} task(s) in the gallery; added ${REBUILD_TASKS} to the history.`,
    );
  const allFound = runs.every(addedAll);
  return {
    row: 'Gallery rebuild',
    scenario: `\`pictor rebuild\` of a ${REBUILD_TASKS.toLocaleString('en')}-task gallery folder (a folder per task with its sidecar, a PNG and its WebP thumbnail) into an empty library, the CLI bundled as the app's main process is and run by Node; ${REBUILD_RUNS} fresh processes`,
    target: '≤ 60 s; peak RSS ≤ 300 MB',
    measured: `${(median.wallMs / 1000).toFixed(1)} s median (runs ${runs.map((run) => (run.wallMs / 1000).toFixed(1)).join(', ')} s); peak RSS ${(worstPeak / MB).toFixed(0)} MB at most (runs ${peaks.map((peak) => (peak / MB).toFixed(0)).join(', ')} MB); ${allFound ? `all ${REBUILD_TASKS.toLocaleString('en')} tasks added every run` : `not every task added: ${first.output.slice(0, 200)}`}`,
    pass: allFound && median.wallMs <= 60_000 && worstPeak <= 300 * MB,
    judged: [
      {
        name: 'runs not adding every task',
        value: runs.length - runs.filter(addedAll).length,
        unit: '',
        digits: 0,
        bound: { atMost: 0 },
      },
      {
        name: 'median',
        value: median.wallMs / 1000,
        unit: ' s',
        digits: 1,
        bound: { atMost: 60 },
      },
      {
        name: 'peak RSS',
        value: worstPeak / MB,
        unit: ' MB',
        digits: 0,
        bound: { atMost: 300 },
      },
    ],
    command: COMMAND,
    note: `The folder is built once (${first.built ? `this run, in ${(first.buildMs / 1000).toFixed(0)} s` : 'cached from an earlier run'}) under the system's temp folder. Peak RSS is the kernel's high-water mark (VmHWM) of the command's process, read every 25 ms until it exits. The rebuild reads every sidecar twice: a first pass keeps only what picks one sidecar per task, the second repairs the chosen ones and the command writes them 500 at a time (one history transaction each), so the live data stays small; most of the peak is V8's committed heap, not live objects (a --trace-gc run shows it; capping the old space did not bring the peak under the target). MB here is 10^6 bytes (earlier runs reported MiB against the same figure).`,
  };
}

export const suite: BenchSuite = {
  name: 'shared-history',
  run: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pictor-bench-shared-'));
    try {
      const rows = [sideBySideRow(dir)];
      rows.push(...(await twoProcessRows(dir)));
      rows.push(millionRow(dir));
      rows.push(await rebuildRow());
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
