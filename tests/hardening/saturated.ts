/**
 * `npm run test:saturated [-- <vitest arguments>]`: the hardening project while every core is
 * busy, to show that its tests wait on conditions and manual clocks, not on how fast this machine
 * is. One worker thread per core spins for the whole run (plus PICTOR_SATURATE_EXTRA more, default
 * one per core: twice the cores in all); the load average is printed at the start and every
 * minute, and the vitest result is the exit status. Nothing here is timed or asserted on speed.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { REPO_ROOT } from '../support/source-files';

const cores = availableParallelism();
const extra = Number(process.env['PICTOR_SATURATE_EXTRA'] ?? cores);
const spinners = Array.from(
  { length: cores + (Number.isInteger(extra) && extra >= 0 ? extra : cores) },
  () => new Worker('for (;;) {}', { eval: true }),
);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const say = (line: string) => console.error(`saturated: ${line}`);
say(`${spinners.length} busy threads on ${cores} cores; load average ${load()}`);
const ticker = setInterval(() => say(`load average ${load()}`), 60_000);
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, loadavg()[0] ?? 0)), 5_000);

const vitest = spawn(
  'npx',
  ['vitest', 'run', '--project', 'hardening*', ...process.argv.slice(2)],
  {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  },
);
vitest.on('close', (code) => {
  clearInterval(ticker);
  clearInterval(sampler);
  say(
    `vitest ended with ${code}; load average ${load()}, highest 1-minute load seen ${peak.toFixed(2)}`,
  );
  void Promise.all(spinners.map((spinner) => spinner.terminate())).then(() =>
    process.exit(code ?? 1),
  );
});
