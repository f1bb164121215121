/**
 * The "Download memory" row: 100 downloads at once through the real core, in a child bundled as
 * the app's main process is (bundled-child.ts), the main process's RSS reported apart from the
 * image engine's own process when it has one. `npm run bench -- --only download-memory`.
 */
import { join } from 'node:path';
import { IMAGE_RENDERER_DIR } from '../../../electron/build/build-electron';
import { CHROMIUM_PATH } from '../../e2e/harness/host';
import { createTestBuild } from '../../support/test-build';
import type { BenchRow, BenchSuite } from '../bench-row';
import { measureDownloadMemory } from '../engine/download-memory';
import type { DownloadMemoryReport } from '../engine/download-memory-child';
import { seconds } from '../engine/stats';
import { median } from '../../support/median';

const COMMAND = 'npm run bench -- --only download-memory';
const MB = 1024 * 1024;
/** Fresh processes for the row; its verdict is their median. */
const MEMORY_RUNS = 3;

function growth(report: DownloadMemoryReport): number {
  return (report.peakRss - report.baselineRss) / MB;
}

/** The run whose growth is the median (runs sorted by growth; an odd count). */
function medianRun(runs: readonly DownloadMemoryReport[]): DownloadMemoryReport {
  const sorted = [...runs].sort((a, b) => growth(a) - growth(b));
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no download memory run');
  return middle;
}

const mb = (bytes: number): string => (bytes / MB).toFixed(0);

const rate = (report: DownloadMemoryReport): number => (report.saved / report.wallMs) * 1000;

/** The most the core may spend per saved image, as a multiple of the plain save's CPU. */
const SAVE_CPU_LIMIT = 2;
/** The least the decoding run's throughput may be, as a share of the header-only control's. */
const DECODE_THROUGHPUT_FLOOR = 0.6;
/** The most main may grow, counted as Electron would (main + Chromium's browser process), MB. */
const ELECTRON_GROWTH_LIMIT_MB = 150;

function memoryRow(
  imageBytes: number,
  runs: readonly DownloadMemoryReport[],
  control: readonly DownloadMemoryReport[],
  plainRuns: readonly DownloadMemoryReport[],
  gallery: DownloadMemoryReport,
): BenchRow {
  const engine = medianRun(runs);
  const grew = growth(engine);
  const medianRate = median(runs.map(rate));
  // In Electron the browser process is the main process: its growth is main's too.
  const electronGrowth = median(
    runs.map((run) => growth(run) + (run.imageProcess?.browserPeakGrowth ?? 0) / MB),
  );
  const coreCpu = median(control.map((run) => run.cpuMsPerImage));
  const plainCpu = median(plainRuns.map((run) => run.cpuMsPerImage));
  const saveRatio = coreCpu / plainCpu;
  const throughput = medianRate / median(control.map(rate));
  const pass =
    [...runs, ...control, ...plainRuns].every((run) => run.saved === 100) &&
    electronGrowth <= ELECTRON_GROWTH_LIMIT_MB &&
    saveRatio <= SAVE_CPU_LIMIT &&
    throughput >= DECODE_THROUGHPUT_FLOOR;
  const hwm =
    engine.highWaterRss === null
      ? ''
      : `, kernel high-water +${mb(engine.highWaterRss - engine.baselineRss)} MB`;
  const all = runs.map((run) => `+${growth(run).toFixed(0)}`).join(', ');
  const plain = medianRun(control);
  const image = engine.imageProcess;
  const imageProcess = image
    ? `image page's renderer +${mb(image.peakGrowth)} MB, ${image.cpuMsPerImage.toFixed(0)} ms CPU and ${image.faultsPerImage.toFixed(0)} faults/image; ` +
      `Chromium's browser process (main's in Electron) +${mb(image.browserPeakGrowth)} MB, ${image.browserCpuMsPerImage.toFixed(0)} ms CPU and ${image.browserFaultsPerImage.toFixed(0)} faults/image`
    : `no image process: the ${engine.engine} engine decodes inside the main process, so its memory is in the main’s figure`;
  return {
    row: 'Download memory',
    scenario:
      `100 tasks completing together, one ${(imageBytes / 1e6).toFixed(1)} MB noise PNG each, downloaded by the real core (DownloadManager → Gallery) from loopback, ` +
      `each image checked and thumbnailed by the ${engine.engine} engine; the core bundled as the app’s main process is (esbuild, main bundle options) and run with plain node; ` +
      `median of ${runs.length} fresh processes; control: the same run with the header-only engine (no decoding), alternated with it`,
    target: `main-process growth counted as Electron would (main + the browser process) ≤ ${ELECTRON_GROWTH_LIMIT_MB} MB; the core's CPU per saved image (download, header check, hashing, XMP, fsyncs, history; header-only engine) ≤ ${SAVE_CPU_LIMIT} × a plain stream-to-file with SHA-256 of the same bytes; with decoding, throughput ≥ ${DECODE_THROUGHPUT_FLOOR} × the header-only control's; rates reported, not judged`,
    measured:
      `main +${grew.toFixed(0)} MB peak RSS (runs ${all} MB; median run ${mb(engine.baselineRss)} → ${mb(engine.peakRss)} MB, sampled every 50 ms${hwm}); ${imageProcess}; ` +
      `${medianRate.toFixed(1)} images/s (runs ${runs.map((run) => rate(run).toFixed(1)).join(', ')}; ${engine.saved}/100 saved, ${mb(engine.bytes)} MiB in ${seconds(engine.wallMs)}); ` +
      `control without decoding +${growth(plain).toFixed(0)} MB, ${rate(plain).toFixed(1)} images/s (runs ${control.map((run) => `+${growth(run).toFixed(0)}`).join(', ')} MB); ` +
      `counted as Electron would +${electronGrowth.toFixed(0)} MB; save CPU ${coreCpu.toFixed(0)} ms/image vs plain ${plainCpu.toFixed(0)} ms (${saveRatio.toFixed(2)}×, runs ${plainRuns.map((run) => run.cpuMsPerImage.toFixed(0)).join(', ')} ms); ` +
      `decoding throughput ${throughput.toFixed(2)} × the control's`,
    pass,
    command: COMMAND,
    note:
      `Child processes started with --expose-gc, baseline taken after a GC. In the median run, at the RSS peak V8's heap had grown ` +
      `+${mb(engine.peakHeapGrowth)} MB and the memory its objects hold outside it +${mb(engine.peakExternalGrowth)} MB; ` +
      `after a final GC the process still held +${mb(engine.afterRss - engine.baselineRss)} MB. ` +
      `ArrayBuffers (socket chunks of the bodies, file buffers) reached +${mb(engine.maxArrayBufferGrowth)} MB at most and were ` +
      `+${mb(engine.afterArrayBufferGrowth)} MB after that GC (control: +${mb(plain.maxArrayBufferGrowth)} → +${mb(plain.afterArrayBufferGrowth)} MB): ` +
      'garbage V8 had not collected yet, not buffers anything kept. ' +
      `CPU per image (all threads of the process, independent of the machine's load): ${engine.cpuMsPerImage.toFixed(0)} ms, control ${plain.cpuMsPerImage.toFixed(0)} ms; ` +
      `page faults per image (fresh memory, whose cost varies by machine: tests/support/fault-cost.ts): ${engine.faultsPerImage.toFixed(0)}, control ${plain.faultsPerImage.toFixed(0)}. ` +
      'The control run shows what the downloader alone takes. ' +
      `The same 100 images through 100 simultaneous Gallery.downloadImage calls (no download cap) grew +${growth(gallery).toFixed(0)} MB ` +
      `(${gallery.saved}/100 saved).`,
  };
}

export const suite: BenchSuite = {
  name: 'download-memory',
  async run() {
    const build = await createTestBuild({ renderer: false });
    const chromium = {
      pageRoot: join(build.electronDir, IMAGE_RENDERER_DIR),
      chromiumPath: CHROMIUM_PATH,
    };
    const memory = await measureDownloadMemory(
      100,
      1590,
      { engine: MEMORY_RUNS, control: MEMORY_RUNS, plain: MEMORY_RUNS, gallery: 1 },
      'chromium',
      chromium,
    ).finally(() => build.dispose());
    const { engine, control, plain, gallery } = memory.reports;
    if (
      engine.length !== MEMORY_RUNS ||
      control.length !== MEMORY_RUNS ||
      plain.length !== MEMORY_RUNS ||
      !gallery[0]
    ) {
      throw new Error('the download memory child gave no report');
    }
    return [memoryRow(memory.imageBytes, engine, control, plain, gallery[0])];
  },
};
