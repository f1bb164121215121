/**
 * The "Expiring results" row: 50 tasks whose result links live 6 minutes complete together with
 * 50 whose links never expire, on a link slow enough that all the downloads take 9 minutes
 * (engine/expiring-run.ts). `npm run bench -- --only expiring`.
 */
import type { BenchRow, BenchSuite } from '../bench-row';
import { runExpiringScenario } from '../engine/expiring-run';
import { seconds } from '../engine/stats';

const COMMAND = 'npm run bench -- --only expiring';
const TASKS = 50;
const LIFETIME_MS = 6 * 60_000;

export const suite: BenchSuite = {
  name: 'expiring',
  async run(): Promise<BenchRow[]> {
    const run = await runExpiringScenario({
      tasks: TASKS,
      lifetimeMs: LIFETIME_MS,
      side: 512,
      linkLoad: 1.5,
    });
    const kib = (run.bytesPerSecond / 1024).toFixed(0);
    return [
      {
        row: 'Expiring results',
        scenario:
          `${TASKS} fal-dialect tasks whose links live 6 min and ${TASKS} whose links never expire (submitted first) complete together; ` +
          `every image (${(run.imageBytes / 1024).toFixed(0)} KiB) over one link of ${kib} KiB/s, on which all downloads take 1.5 × 6 min; real core, real clock`,
        target: `all ${TASKS} expiring images saved before their links expire`,
        measured:
          `${run.expiringSaved} of ${TASKS} saved, ${run.expiringLost} lost; least time left on a link ` +
          `${run.leastHeadroomMs === null ? 'n/a' : seconds(run.leastHeadroomMs)}; ` +
          `${run.steadySaved} of ${TASKS} never-expiring images saved by then; ${seconds(run.wallMs)} in all`,
        pass: run.expiringSaved === TASKS,
        judged: [
          {
            name: 'expiring images saved',
            value: run.expiringSaved,
            unit: ` of ${TASKS}`,
            digits: 0,
            bound: { atLeast: TASKS },
          },
        ],
        command: COMMAND,
        note: 'Downloads are queued by when their links expire, soonest first (core/engine/download-queue.ts); in arrival order the never-expiring images, submitted first, would take the link for the first 4.5 minutes.',
      },
    ];
  },
};
