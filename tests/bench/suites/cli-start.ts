/**
 * "CLI start": the CPU a one-record command costs, against the runtime's bare start measured in
 * the same run. The CLI is bundled the way the app's main process is (electron/build's options,
 * split into chunks) and started with plain `node` on a large library; each process reports its
 * own CPU (user + system, worker threads included) when it exits, through a preload that the bare
 * start gets too, so both carry the same overhead. Runs are interleaved and the median is judged.
 *
 * Steadied (its five runs after a fresh copy of the 3 GB library spread wider than the margin):
 * the copy is flushed to disk before any run, so its write-back does not land in the timed ones;
 * every case runs {@link WARM_UP_ROUNDS} rounds untimed first, which write the bundle's compiled
 * code to a cache of the bench's own (a start from the shell keeps it, compile-cache.ts; a new
 * bundle's first start compiles every chunk) and read the pages of the library the commands
 * touch; then {@link RUNS} interleaved rounds, each in another order, and the median of each.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { BenchRow, BenchSuite } from '../bench-row';
import { bundleChild } from '../bundled-child';
import { benchRecord } from '../history-fixture';
import { largeHistory } from '../shared-history-bench';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const COMMAND = 'npm run bench -- --only cli-start';
/** The library's size: the target's 1M tasks unless `PICTOR_BENCH_CLI_TASKS` says fewer. */
const TASKS = Number(process.env.PICTOR_BENCH_CLI_TASKS ?? 1_000_000);
const RUNS = 11;
/** Untimed rounds first: the compile cache written, the library's pages read. */
const WARM_UP_ROUNDS = 2;

/** Writes the process's CPU (µs, user + system) to fd 3 when it exits. */
const CPU_PRELOAD =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.cpuUsage();writeSync(3,String(u.user+u.system))})';

/** CPU milliseconds of `node <args>` with the preload, to its exit; `env` over the bench's. */
async function cpuOf(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, ['--import', CPU_PRELOAD, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let report = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const fd3 = child.stdio[3];
  fd3?.on('data', (chunk: Buffer) => (report += chunk.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}`);
  return Number(report) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** `file`'s written pages flushed to disk: a fresh copy's write-back not left to the timed runs. */
function flushed(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function measure(
  cli: string,
  dataDir: string,
  cacheHome: string,
): Promise<Map<string, number[]>> {
  const newest = benchRecord(TASKS - 1).localId;
  const cases = Object.entries({
    'bare start': ['-e', '0'],
    '--version': [cli, '--version'],
    rate: [cli, 'rate', newest, '3', '--data-dir', dataDir],
    'list --json': [cli, 'list', '--json', '--data-dir', dataDir],
  });
  // The CLI's compiled-code cache in the bench's folder (compile-cache.ts), not the user's.
  const env = { XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: undefined };
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
    for (const [, args] of cases) await cpuOf(args, env);
  }
  const figures = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) {
    // Each round starts at another case, so none always runs right after the same one.
    const order = [...cases.slice(run % cases.length), ...cases.slice(0, run % cases.length)];
    for (const [name, args] of order) figures.get(name)?.push(await cpuOf(args, env));
  }
  return figures;
}

async function cliStartRow(dir: string): Promise<BenchRow> {
  const dataDir = join(dir, 'library');
  mkdirSync(dataDir);
  const { built, buildMs } = largeHistory(join(dataDir, HISTORY_FILE), TASKS);
  flushed(join(dataDir, HISTORY_FILE));
  const cli = await bundleChild(join(ROOT, 'electron', 'cli', 'main.ts'));
  try {
    const figures = await measure(cli.file, dataDir, join(dir, 'cache'));
    const at = (name: string) => median(figures.get(name) ?? []);
    const bare = at('bare start');
    const limit = 2 * bare + 50;
    const judged = ['rate', 'list --json'];
    const text = ['--version', ...judged].map((name) => `${name} ${ms(at(name))}`).join(', ');
    return {
      row: 'CLI start',
      scenario: `CPU (user + system) of a one-record command on a ${TASKS.toLocaleString('en')}-task library (\`pictor rate <newest> 3\`, \`pictor list --json\`: the newest page), the CLI bundled as the app's main process is and run by Node, against a bare \`node -e 0\`; after ${WARM_UP_ROUNDS} untimed rounds, the median of ${RUNS} interleaved runs`,
      target: '≤ 2 × bare start + 50 ms',
      measured: `${text}; bare start ${ms(bare)} (limit ${ms(limit)})`,
      pass: judged.every((name) => at(name) - 2 * bare <= 50),
      // Each command against this run's bare start: the bound is the same in every run.
      judged: [
        ...judged.map((name) => ({
          name: `${name} − 2 × bare start`,
          value: at(name) - 2 * bare,
          unit: ' ms',
          digits: 0,
          bound: { atMost: 50 },
        })),
        { name: 'bare start', value: bare, unit: ' ms', digits: 0 },
      ],
      command: COMMAND,
      note: `The library is ${built ? `built this run in ${(buildMs / 1000).toFixed(0)} s and cached` : 'copied from the cache'} under the system's temp folder. The packaged \`pictor\` runs the same code inside Electron's main process, whose own start is not in these figures.`,
    };
  } finally {
    await cli.dispose();
  }
}

export const suite: BenchSuite = {
  name: 'cli-start',
  run: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pictor-bench-cli-start-'));
    try {
      return [await cliStartRow(dir)];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
