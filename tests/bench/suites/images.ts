/**
 * The image pipeline: sharp's native build alone against the core's one image check around it
 * (TypeScript header check, decode and thumbnail, answer check), side by side in one run: what
 * the check costs beyond the decoder. The app's own decoder (Chromium's) has its row beside it.
 */
import type { BenchRow, BenchSuite } from '../bench-row';
import type { PipelineReport } from '../images/pipeline-child';
import { measurePipeline, SIDE, type PipelineFigures } from '../images/pipeline';
import { median } from '../../support/median';

const COUNT = 40;
const DISTINCT = 4;
const ROUNDS = 3;
const MB = 1024 * 1024;
const COMMAND = 'npm run bench -- --only images';

const perSecond = (run: PipelineReport) => (run.count / run.wallMs) * 1000;
const growthMb = (run: PipelineReport) => (run.peakRss - run.baselineRss) / MB;
const firstMb = (run: PipelineReport) => (run.firstRss - run.baselineRss) / MB;

function describe(runs: PipelineReport[]): string {
  const rates = runs.map(perSecond);
  const growths = runs.map(growthMb);
  const failed = runs.reduce((sum, run) => sum + run.failed, 0);
  return (
    `${median(rates).toFixed(1)} images/s (runs ${rates.map((r) => r.toFixed(1)).join(', ')}), ` +
    `RSS +${median(growths).toFixed(0)} MB (runs ${growths.map((g) => `+${g.toFixed(0)}`).join(', ')}; ` +
    `+${median(runs.map(firstMb)).toFixed(0)} MB already when the first image was done), ${failed} failed`
  );
}

function pipelineRow(figures: PipelineFigures): BenchRow {
  const { native, engine } = figures.runs;
  const rate = median(engine.map(perSecond));
  const nativeRate = median(native.map(perSecond));
  const failed = engine.reduce((sum, run) => sum + run.failed, 0);
  return {
    row: 'Image pipeline',
    scenario:
      `${COUNT} photo-like ${SIDE}×${SIDE} PNGs (${(figures.meanFileBytes / MB).toFixed(1)} MiB each) per run, full decode + 384 px WebP, two at a time, ` +
      `native sharp alone vs the core’s image check on the sharp-native engine (header check, decode, answer check); ${ROUNDS} fresh processes each, alternated; medians`,
    target: 'the check costs ≤ 10 % of native sharp’s throughput',
    measured: `check ${describe(engine)}; native ${describe(native)} (${native[0]?.library ?? ''})`,
    pass: failed === 0 && rate / nativeRate >= 0.9,
    judged: [
      {
        name: 'check ÷ native throughput',
        value: rate / nativeRate,
        unit: '',
        digits: 2,
        bound: { atLeast: 0.9 },
      },
      { name: 'failed', value: failed, unit: '', digits: 0, bound: { atMost: 0 } },
    ],
    command: COMMAND,
    note:
      'The header check reads a few ranges of each file (no pixel), the answer check parses the thumbnail’s own header: ' +
      'the difference is what Pictor adds around any decoder. RSS is the whole process; peak sampled every 20 ms, baseline after a GC.',
  };
}

export const suite: BenchSuite = {
  name: 'images',
  async run() {
    return [pipelineRow(await measurePipeline(COUNT, DISTINCT, ROUNDS))];
  },
};
