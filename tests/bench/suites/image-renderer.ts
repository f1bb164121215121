/**
 * The image renderer: the page the app decodes and thumbnails in (Chromium's codecs, in a
 * sandboxed renderer), built as it ships, against native sharp in the same run on the same files,
 * a row per source format (PNG, JPEG, WebP). Each side runs in fresh processes, alternated, three
 * times; the rows give medians and judge what the code controls: the work beyond what the machine
 * charges for fresh memory (tests/support/fault-cost.ts), and how much fresh memory it takes.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE_RENDERER_DIR } from '../../../electron/build/build-electron';
import { createTestBuild } from '../../support/test-build';
import type { BenchRow, BenchSuite, JudgedFigure } from '../bench-row';
import { runJsonChild } from '../json-child';
import type { NativeReport } from '../images/native-child';
import { photoLike, type PhotoFormat } from '../images/photo-like';
import { runInChromium, type RendererReport } from '../images/renderer-run';
import {
  BROWSER_FAULT_LIMIT,
  BROWSER_GROWTH_LIMIT_MB,
  WORK_RATIO_LIMIT,
  probeFaultCost,
  rendererFaultLimit,
  workRatio,
  type FaultCost,
} from '../../support/fault-cost';
import { median } from '../../support/median';

const SIDE = 2048;
const COUNT = 40;
const DISTINCT = 4;
const ROUNDS = 3;
const MB = 1024 * 1024;
const COMMAND = 'npm run bench -- --only image-renderer';
const NATIVE_CHILD = fileURLToPath(new URL('../images/native-child.ts', import.meta.url));
const FORMATS: readonly PhotoFormat[] = ['png', 'jpeg', 'webp'];
const EXTENSION: Record<PhotoFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

const runs = (values: readonly number[], digits = 0) =>
  `runs ${values.map((value) => value.toFixed(digits)).join(', ')}`;

interface Figures {
  readonly format: PhotoFormat;
  readonly meanFileBytes: number;
  readonly chromium: RendererReport[];
  readonly native: NativeReport[];
  /** The fault-cost probe, once per round beside the two sides. */
  readonly probes: FaultCost[];
}

/** Each format's files in a folder of their own (the native child reads a whole folder). */
async function writeSources(dir: string, format: PhotoFormat) {
  const folder = join(dir, format);
  await mkdir(folder);
  const images = await Promise.all(
    Array.from({ length: DISTINCT }, (_, n) => photoLike(n, SIDE, format)),
  );
  const files = images.map((_, n) => join(folder, `image-${n}.${EXTENSION[format]}`));
  await Promise.all(images.map((image, n) => writeFile(files[n]!, image)));
  const meanFileBytes = images.reduce((sum, image) => sum + image.length, 0) / images.length;
  return { folder, files, meanFileBytes };
}

async function measure(): Promise<Figures[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-renderer-'));
  const build = await createTestBuild({ renderer: false });
  try {
    const pageRoot = join(build.electronDir, IMAGE_RENDERER_DIR);
    const sources = await Promise.all(FORMATS.map((format) => writeSources(dir, format)));
    const figures: Figures[] = FORMATS.map((format, n) => ({
      format,
      meanFileBytes: sources[n]!.meanFileBytes,
      chromium: [],
      native: [],
      probes: [],
    }));
    // Rounds interleave the formats and the sides, so a change in the machine's load falls on all.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [n, format] of FORMATS.entries()) {
        const { folder, files } = sources[n]!;
        const figure = figures[n]!;
        figure.probes.push(probeFaultCost());
        figure.native.push(
          await runJsonChild<NativeReport>(NATIVE_CHILD, [folder, String(COUNT)], {
            timeoutMs: 300_000,
            name: 'native sharp child',
          }),
        );
        figure.chromium.push(await runInChromium(pageRoot, files, SIDE, COUNT, format));
      }
    }
    return figures;
  } finally {
    await build.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `pick` of each run, per image. */
function perImage<T extends { readonly count: number }>(
  values: readonly T[],
  pick: (run: T) => number,
): number[] {
  return values.map((run) => pick(run) / run.count);
}

function row(figures: Figures): BenchRow {
  const { chromium, native, format } = figures;
  const msPerFault = median(figures.probes.map((probe) => probe.msPerFault));
  const pageCpu = perImage(chromium, (run) => run.cpuMs.renderer);
  const pageFaults = perImage(chromium, (run) => run.faults.renderer);
  const browserCpu = perImage(chromium, (run) => run.cpuMs.browser);
  const browserFaults = perImage(chromium, (run) => run.faults.browser);
  const otherCpu = perImage(chromium, (run) => run.cpuMs.other);
  const rate = chromium.map((run) => (run.count / run.wallMs) * 1000);
  const growth = chromium.map((run) => run.growthBytes.renderer / MB);
  const browserGrowth = chromium.map((run) => run.growthBytes.browser / MB);
  const nativeCpu = perImage(native, (run) => run.cpuMs);
  const nativeFaults = perImage(native, (run) => run.faults);
  const nativeRate = native.map((run) => (run.count / run.wallMs) * 1000);
  const failed = [...chromium, ...native].reduce((sum, run) => sum + run.failed, 0);
  const pageRenderers = chromium.map((run) => run.pageRenderers);
  const work = workRatio(
    { cpuMs: median(pageCpu), faults: median(pageFaults) },
    { cpuMs: median(nativeCpu), faults: median(nativeFaults) },
    msPerFault,
  );
  const rawRatio = median(pageCpu) / median(nativeCpu);
  const faultLimit = rendererFaultLimit(figures.meanFileBytes, SIDE, SIDE);
  const judged: JudgedFigure[] = [
    { name: 'work ratio', value: work, unit: '', digits: 2, bound: { atMost: WORK_RATIO_LIMIT } },
    {
      name: 'page renderer faults/image',
      value: median(pageFaults),
      unit: '',
      digits: 0,
      bound: { atMost: faultLimit },
    },
    {
      name: 'browser faults/image',
      value: median(browserFaults),
      unit: '',
      digits: 0,
      bound: { atMost: BROWSER_FAULT_LIMIT },
    },
    {
      name: 'browser growth',
      value: median(browserGrowth),
      unit: ' MB',
      digits: 0,
      bound: { atMost: BROWSER_GROWTH_LIMIT_MB },
    },
    { name: 'failed', value: failed, unit: '', digits: 0, bound: { atMost: 0 } },
    {
      name: 'runs without one page renderer',
      value: pageRenderers.filter((count) => count !== 1).length,
      unit: '',
      digits: 0,
      bound: { atMost: 0 },
    },
  ];
  // Every figure here is held to an upper bound.
  const met = judged.every(
    ({ value, bound }) => bound !== undefined && 'atMost' in bound && value <= bound.atMost,
  );
  const name = format === 'png' ? 'PNG' : format === 'jpeg' ? 'JPEG' : 'WebP';
  return {
    row: `Image renderer (${name})`,
    scenario:
      `${COUNT} photo-like ${SIDE}×${SIDE} ${name}s (${(figures.meanFileBytes / MB).toFixed(1)} MiB each) per run, full decode + 384 px WebP, two in flight: ` +
      `the built image page in Debian's Chromium (in dedicated workers, bytes streamed from a one-time address, the page's port carried over loopback HTTP instead of Electron's MessagePort) ` +
      `vs native sharp in a Node process; ${ROUNDS} fresh processes each, alternated with the other formats, and a page-fault probe each round; medians`,
    target:
      `work ratio (CPU less faults × this machine's fault cost, page ÷ sharp) ≤ ${WORK_RATIO_LIMIT}; page renderer faults/image ≤ ${faultLimit.toFixed(0)} ` +
      `(1.05 × ((file + 4·W·H) / 4096 + 300)); browser faults/image ≤ ${BROWSER_FAULT_LIMIT} and browser growth ≤ ${BROWSER_GROWTH_LIMIT_MB} MB (in Electron, main's); no failure`,
    measured:
      `work ratio ${work.toFixed(2)}; page renderer ${median(pageCpu).toFixed(0)} ms CPU and ${median(pageFaults).toFixed(0)} faults/image (${runs(pageCpu)}; ${runs(pageFaults)}); ` +
      `browser ${median(browserCpu).toFixed(0)} ms CPU, ${median(browserFaults).toFixed(0)} faults/image, +${median(browserGrowth).toFixed(0)} MB (${runs(browserGrowth)}); other ${median(otherCpu).toFixed(0)} ms; ` +
      `native sharp ${median(nativeCpu).toFixed(0)} ms CPU and ${median(nativeFaults).toFixed(0)} faults/image (${runs(nativeCpu)}), ${native[0]?.library ?? ''}; ` +
      `reported: fault cost ${(msPerFault * 1000).toFixed(2)} µs; raw CPU ratio ${rawRatio.toFixed(2)}; ${median(rate).toFixed(1)} images/s (${runs(rate, 1)}) vs sharp ${median(nativeRate).toFixed(1)}; page renderer RSS +${median(growth).toFixed(0)} MB; ` +
      `${failed} failed; page renderers found per run: ${pageRenderers.join(', ')}`,
    pass: met,
    judged,
    command: COMMAND,
    note:
      'CPU and page faults from /proc/<pid>/stat (all threads) of the page’s renderer process only: the renderer whose threads run its decoding workers (a WebUI renderer that Electron does not have counts with the rest); ' +
      'the browser process (main’s in Electron) is judged apart: it fetches nothing and holds nothing of an image where the page can avoid it. Fault cost: the same run touches 64 MiB of fresh pages and again (tests/support/fault-cost.ts), ' +
      'the difference per fault is what this machine charges for fresh memory, taken out of both sides; absolute times and rates are reported, not judged, because they follow the machine (a fault costs 1.4 µs here and 18 µs elsewhere). ' +
      'Chromium is started directly (no Playwright, no DevTools connection in the measured renderer); the engine’s messages reach the page by a long poll and its answers come back by POST, on the page’s own origin (tests/bench/images/bridged-page.ts). Memory: peak RSS sampled every 20 ms minus the RSS once the page and its workers were warm (one 8×8 job).',
  };
}

export const suite: BenchSuite = {
  name: 'image-renderer',
  async run() {
    return (await measure()).map(row);
  },
};
