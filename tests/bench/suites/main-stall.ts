/**
 * "Main stall": main's longest event-loop stall while the heavy history operations run in the
 * history worker (core/history/history-port.ts), each beside the same operation run on main
 * synchronously (the control: what the loop waited before). On the bench's history of
 * `PICTOR_BENCH_STALL_TASKS` tasks (default 1,000,000; history-fixture.ts) and a ledger of as
 * many (costs-fixture.ts): a rating of 10,000 images (the newest; runs alternating two ratings,
 * the commit's p95 beside the stall) and its Undo; a removal of the tasks holding 300 images and
 * its Undo; an import of 10,000 tasks; a rebuild's writes (50,000 tasks in batches of 5,000); the
 * Costs screen (all time). `npm run bench -- --only main-stall`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CostBook } from '../../../electron/core/costs/cost-book';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { runHistoryOp } from '../../../electron/core/history/history-worker-ops';
import type {
  HistoryOp,
  HistoryOps,
  TriageWritten,
} from '../../../electron/core/history/history-worker-protocol';
import type { BenchRow, BenchSuite } from '../bench-row';
import { COSTS_END, costsHistory } from '../costs-fixture';
import { summarise } from '../history-bench';
import { benchRecord, bigHistory } from '../history-fixture';
import { stalled, type Stalled } from '../main-stall';

const COMMAND = 'npm run bench -- --only main-stall';
const TASKS = Number(process.env['PICTOR_BENCH_STALL_TASKS'] ?? 1_000_000);
const SELECTION = 10_000;
const RATING_RUNS = 10;
const REBUILD_TASKS = 50_000;
const TARGET_MS = 50;
const ZONE = 'America/New_York';

const ms = (value: number): string => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

/** One operation, through the worker and (the control) on main. */
interface Figure {
  readonly name: string;
  readonly worker: Stalled<unknown>;
  readonly main: Stalled<unknown>;
}

interface Side {
  readonly port: HistoryPort;
  readonly store: HistoryStore;
}

/** `op` through the worker, then on main, each with main's longest stall. */
async function both<K extends HistoryOp>(
  side: Side,
  op: K,
  args: HistoryOps[K]['args'],
  between?: () => Promise<unknown> | unknown,
): Promise<{ worker: Stalled<HistoryOps[K]['result']>; main: Stalled<HistoryOps[K]['result']> }> {
  const worker = await stalled(() => side.port.call(op, args));
  await between?.();
  const main = await stalled(() => runHistoryOp(side.store, op, args));
  return { worker, main };
}

async function ratings(side: Side): Promise<{ figures: Figure[]; commits: number[] }> {
  const refs = side.store.imageKeys({}, SELECTION);
  const commits: number[] = [];
  let worst: Stalled<TriageWritten> | undefined;
  let last: TriageWritten | undefined;
  for (let run = 0; run < RATING_RUNS; run += 1) {
    const edit = { kind: 'rating', rating: run % 2 === 0 ? 4 : 3 } as const;
    const done = await stalled(() => side.port.call('triage', { refs, edit, at: Date.now() }));
    if (done.value.changed !== SELECTION) throw new Error(`rated ${done.value.changed} images`);
    commits.push(done.ms);
    if (!worst || done.stallMs > worst.stallMs) worst = done;
    last = done.value;
  }
  const { step } = last!;
  const undone = await both(side, 'restoreTriage', { step, side: 'before', at: Date.now() }, () =>
    side.port.call('restoreTriage', { step, side: 'after', at: Date.now() }),
  );
  const control = await stalled(() =>
    runHistoryOp(side.store, 'triage', { refs, edit: { kind: 'rating', rating: 1 }, at: 1 }),
  );
  return {
    figures: [
      { name: `rating ${SELECTION.toLocaleString('en')} images`, worker: worst!, main: control },
      { name: 'its Undo', ...undone },
    ],
    commits,
  };
}

/** The tasks holding the first 300 images of the newest tasks, removed, then put back. */
async function removal(side: Side): Promise<Figure[]> {
  const keys = side.store.imageKeys({}, 300);
  const localIds = [...new Set(keys.map((key) => key.localId))];
  let removed: HistoryOps['deleteMany']['result'] = [];
  const worker = await stalled(async () => {
    removed = await side.port.call('deleteMany', { localIds });
    return removed;
  });
  const undo = await both(side, 'putMany', { records: removed }, () =>
    side.port.call('deleteMany', { localIds }),
  );
  const main = await stalled(() => runHistoryOp(side.store, 'deleteMany', { localIds }));
  runHistoryOp(side.store, 'putMany', { records: removed });
  const what = `removing the ${localIds.length} tasks of 300 images`;
  return [
    { name: what, worker, main },
    { name: 'its Undo', ...undo },
  ];
}

const newRecords = (from: number, count: number) =>
  Array.from({ length: count }, (_, n) => benchRecord(from + n));

async function imports(side: Side): Promise<Figure[]> {
  const first = newRecords(TASKS, SELECTION);
  const second = newRecords(TASKS + SELECTION, SELECTION);
  const worker = await stalled(() => side.port.call('putManyCounted', { records: first }));
  const main = await stalled(() => runHistoryOp(side.store, 'putManyCounted', { records: second }));
  const rebuilt = newRecords(0, Math.min(REBUILD_TASKS, TASKS));
  const batches = (run: (records: typeof rebuilt) => Promise<unknown> | unknown) => async () => {
    for (let at = 0; at < rebuilt.length; at += 5_000) await run(rebuilt.slice(at, at + 5_000));
  };
  const rebuildWorker = await stalled(
    batches((records) => side.port.call('putManyCounted', { records })),
  );
  const rebuildMain = await stalled(
    batches((records) => runHistoryOp(side.store, 'putManyCounted', { records })),
  );
  return [
    { name: `an import of ${SELECTION.toLocaleString('en')} tasks`, worker, main },
    {
      name: `a rebuild's writes (${rebuilt.length.toLocaleString('en')} tasks)`,
      worker: rebuildWorker,
      main: rebuildMain,
    },
  ];
}

async function costsScreen(dir: string): Promise<Figure> {
  const file = join(dir, 'costs.sqlite');
  costsHistory(file, TASKS);
  const store = HistoryStore.open(file);
  const port = new HistoryPort(file);
  try {
    const sums: ConstructorParameters<typeof CostBook>[0]['sums'] = (read) =>
      port.call('costSums', read);
    const off = new CostBook({ history: store, now: () => COSTS_END, timeZone: ZONE, sums });
    const on = new CostBook({ history: store, now: () => COSTS_END, timeZone: ZONE });
    await off.screen({}, 100);
    await on.screen({}, 100);
    const worker = await stalled(() => off.screen({}, 100));
    const main = await stalled(() => on.screen({}, 100));
    return { name: 'the Costs screen (all time)', worker, main };
  } finally {
    await port.dispose();
    store.close();
  }
}

async function measure(dir: string): Promise<{ figures: Figure[]; commits: number[] }> {
  const file = join(dir, 'history.sqlite');
  bigHistory(file, TASKS);
  const side = { port: new HistoryPort(file), store: HistoryStore.open(file) };
  try {
    // The worker started and its statements prepared, as after the app's first use of it.
    await side.port.call('costSums', { pieces: [], from: 0, to: 1 });
    const rated = await ratings(side);
    const figures = [...rated.figures, ...(await removal(side)), ...(await imports(side))];
    return { figures: [...figures, await costsScreen(dir)], commits: rated.commits };
  } finally {
    await side.port.dispose();
    side.store.close();
  }
}

export const suite: BenchSuite = {
  name: 'main-stall',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(join(tmpdir(), 'pictor-bench-stall-'));
    try {
      const { figures, commits } = await measure(dir);
      const each = figures.map(
        (f) =>
          `${f.name}: longest stall ${ms(f.worker.stallMs)}, busy ${ms(f.worker.busyMs)} of ${ms(f.worker.ms)}, timer delay ${ms(f.worker.delayMs)} (on main: stall ${ms(f.main.stallMs)})`,
      );
      const commit = summarise(commits);
      return [
        {
          row: 'Main stall',
          scenario: `a ${TASKS.toLocaleString('en')}-task history and a ledger of as many, each heavy operation run in the history worker, main's longest stall (the most busy time of its loop between two ticks of a 1 ms timer, by event-loop utilization), its busy time in all and the timer's longest delay measured over each; beside it, the same operation run on main (the control). Rating: ${String(RATING_RUNS)} runs alternating two ratings over the newest ${SELECTION.toLocaleString('en')} images`,
          target: `main's longest stall ≤ ${ms(TARGET_MS)} for each`,
          measured: `${each.join('; ')}; rating commit median ${ms(commit.p50)}, p95 ${ms(commit.p95)} (runs ${commits.map((t) => t.toFixed(0)).join(', ')} ms)`,
          pass: figures.every((f) => f.worker.stallMs <= TARGET_MS),
          command: COMMAND,
          note: "Timed in the bench process (tsx) through the core's HistoryPort, the operations of core/history/history-worker-ops.ts; main's stalls are what main itself does: cloning the arguments to the worker (an import's records) and reading the reply (the rating's Undo step); the timer's delay also counts the time the machine gave main's thread to other work (2 cores shared with the worker and other processes), so it is reported, not judged. Rating: the run with the longest stall is listed. Not in these figures: main reading back, through the change feed, the tasks the worker wrote (the engine's onExternal).",
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
