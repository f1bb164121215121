/**
 * "CLI start": the CPU a one-record command costs, against the runtime's bare start measured in
 * the same run. The CLI is bundled the way the app's main process is (electron/build's options,
 * split into chunks) and started with plain `node` on a large library; each process reports its
 * own CPU (user + system, worker threads included) when it exits, through a preload that the bare
 * start gets too, so both carry the same overhead. Runs are interleaved and the median is judged.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
const RUNS = 5;

/** Writes the process's CPU (µs, user + system) to fd 3 when it exits. */
const CPU_PRELOAD =
  'data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.cpuUsage();writeSync(3,String(u.user+u.system))})';

/** CPU milliseconds of `node <args>` with the preload, to its exit. */
async function cpuOf(args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, ['--import', CPU_PRELOAD, ...args], {
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

async function measure(cli: string, dataDir: string): Promise<Map<string, number[]>> {
  const newest = benchRecord(TASKS - 1).localId;
  const cases: Record<string, string[]> = {
    'bare start': ['-e', '0'],
    '--version': [cli, '--version'],
    rate: [cli, 'rate', newest, '3', '--data-dir', dataDir],
    'list --json': [cli, 'list', '--json', '--data-dir', dataDir],
  };
  const figures = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, args] of Object.entries(cases)) figures.get(name)?.push(await cpuOf(args));
  }
  return figures;
}

async function cliStartRow(dir: string): Promise<BenchRow> {
  const dataDir = join(dir, 'library');
  mkdirSync(dataDir);
  const { built, buildMs } = largeHistory(join(dataDir, HISTORY_FILE), TASKS);
  const cli = await bundleChild(join(ROOT, 'electron', 'cli', 'main.ts'));
  try {
    const figures = await measure(cli.file, dataDir);
    const at = (name: string) => median(figures.get(name) ?? []);
    const bare = at('bare start');
    const limit = 2 * bare + 50;
    const judged = ['rate', 'list --json'];
    const text = ['--version', ...judged].map((name) => `${name} ${ms(at(name))}`).join(', ');
    return {
      row: 'CLI start',
      scenario: `CPU (user + system) of a one-record command on a ${TASKS.toLocaleString('en')}-task library (\`pictor rate <newest> 3\`, \`pictor list --json\`: the newest page), the CLI bundled as the app's main process is and run by Node, against a bare \`node -e 0\`; median of ${RUNS} interleaved runs`,
      target: '≤ 2 × bare start + 50 ms',
      measured: `${text}; bare start ${ms(bare)} (limit ${ms(limit)})`,
      pass: judged.every((name) => at(name) <= limit),
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
