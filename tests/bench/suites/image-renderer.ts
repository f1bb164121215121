/**
 * The image renderer: the page the app decodes and thumbnails in (Chromium's codecs, in a
 * sandboxed renderer), built as it ships, against native sharp in the same run on the same files.
 * Each side runs in fresh processes, alternated, three times; the row gives medians.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE_RENDERER_DIR } from '../../../electron/build/build-electron';
import { createTestBuild } from '../../support/test-build';
import type { BenchRow, BenchSuite } from '../bench-row';
import { runJsonChild } from '../json-child';
import type { NativeReport } from '../images/native-child';
import { photoLikePng } from '../images/photo-like';
import { runInChromium, type RendererReport } from '../images/renderer-run';

const SIDE = 2048;
const COUNT = 40;
const DISTINCT = 4;
const ROUNDS = 3;
const MB = 1024 * 1024;
const COMMAND = 'npm run bench -- --only image-renderer';
const NATIVE_CHILD = fileURLToPath(new URL('../images/native-child.ts', import.meta.url));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const runs = (values: readonly number[], digits = 0) =>
  `runs ${values.map((value) => value.toFixed(digits)).join(', ')}`;

interface Figures {
  readonly meanFileBytes: number;
  readonly chromium: RendererReport[];
  readonly native: NativeReport[];
}

async function measure(): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-renderer-'));
  const build = await createTestBuild({ renderer: false });
  try {
    const images = await Promise.all(
      Array.from({ length: DISTINCT }, (_, n) => photoLikePng(n, SIDE)),
    );
    const files = images.map((_, n) => join(dir, `image-${n}.png`));
    await Promise.all(images.map((image, n) => writeFile(files[n]!, image)));
    const pageRoot = join(build.electronDir, IMAGE_RENDERER_DIR);
    const figures: Figures = {
      meanFileBytes: images.reduce((sum, image) => sum + image.length, 0) / images.length,
      chromium: [],
      native: [],
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      figures.native.push(
        await runJsonChild<NativeReport>(NATIVE_CHILD, [dir, String(COUNT)], {
          timeoutMs: 300_000,
          name: 'native sharp child',
        }),
      );
      figures.chromium.push(await runInChromium(pageRoot, files, SIDE, COUNT));
    }
    return figures;
  } finally {
    await build.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

function row(figures: Figures): BenchRow {
  const { chromium, native } = figures;
  const rendererCpu = chromium.map((run) => run.cpuMs.renderer / run.count);
  const browserCpu = chromium.map((run) => run.cpuMs.browser / run.count);
  const otherCpu = chromium.map((run) => run.cpuMs.other / run.count);
  const rate = chromium.map((run) => (run.count / run.wallMs) * 1000);
  const growth = chromium.map((run) => run.growthBytes.renderer / MB);
  const browserGrowth = chromium.map((run) => run.growthBytes.browser / MB);
  const nativeCpu = native.map((run) => run.cpuMs / run.count);
  const nativeRate = native.map((run) => (run.count / run.wallMs) * 1000);
  const nativeGrowth = native.map((run) => (run.peakRss - run.baselineRss) / MB);
  const failed = [...chromium, ...native].reduce((sum, run) => sum + run.failed, 0);
  const ratio = median(rendererCpu) / median(nativeCpu);
  const met = ratio <= 1.3 && median(rate) >= 14 && median(growth) <= 150 && failed === 0;
  return {
    row: 'Image renderer',
    scenario:
      `${COUNT} photo-like ${SIDE}×${SIDE} PNGs (${(figures.meanFileBytes / MB).toFixed(1)} MiB each) per run, full decode + 384 px WebP, two in flight: ` +
      `the built image page in Debian's Chromium (createImageBitmap → resized createImageBitmap → OffscreenCanvas.convertToBlob, in dedicated workers, bytes streamed from a one-time address, the page's port carried over loopback HTTP instead of Electron's MessagePort) ` +
      `vs native sharp in a Node process; ${ROUNDS} fresh processes each, alternated; medians`,
    target:
      'renderer CPU ≤ 1.3 × native sharp’s per image; ≥ 14 images/s on 2 cores; renderer memory growth ≤ 150 MB',
    measured:
      `renderer ${median(rendererCpu).toFixed(0)} ms CPU/image (${runs(rendererCpu)}) + browser ${median(browserCpu).toFixed(0)} + other ${median(otherCpu).toFixed(0)}; ` +
      `${median(rate).toFixed(1)} images/s (${runs(rate, 1)}); renderer RSS +${median(growth).toFixed(0)} MB (${runs(growth)}), browser +${median(browserGrowth).toFixed(0)} MB; ` +
      `native sharp ${median(nativeCpu).toFixed(0)} ms CPU/image (${runs(nativeCpu)}), ${median(nativeRate).toFixed(1)} images/s, RSS +${median(nativeGrowth).toFixed(0)} MB (${native[0]?.library ?? ''}); ` +
      `ratio ${ratio.toFixed(2)}; ${failed} failed`,
    pass: availableParallelism() === 2 ? met : null,
    command: COMMAND,
    note:
      'CPU from /proc/<pid>/stat (all threads) of Chromium’s renderer process, which runs the page and its decode workers; the browser process keeps the page’s blobs ' +
      'and its network service fetches each job’s bytes, reported apart. Chromium is started directly (no Playwright, no DevTools connection in the measured renderer); the ' +
      'engine’s messages reach the page by a long poll and its answers come back by POST, on the page’s own origin (tests/bench/images/bridged-page.ts). Memory: peak RSS sampled every 20 ms minus the RSS once the page and its workers were warm (one 8×8 job).',
  };
}

export const suite: BenchSuite = {
  name: 'image-renderer',
  async run() {
    return [row(await measure())];
  },
};
