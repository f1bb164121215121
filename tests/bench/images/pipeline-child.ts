/**
 * Child process of the "Image pipeline" row, run as
 * `node --expose-gc --import tsx <this> <native|engine> <dir> <count>`: checks and thumbnails
 * every PNG in `<dir>` (`count` files, two at a time, as the app does) through one path, and
 * prints one JSON line with the wall time, failures and RSS (baseline after a GC, the peak sampled
 * every 20 ms). Each path runs in its own process so its memory is its own.
 *
 * - native: sharp's native build in this thread, header, full decode, 384 px WebP, nothing else.
 * - engine: the gallery's one image check (image-finish.ts: the TypeScript header check, the
 *   engine's decode and thumbnail, its answer checked) on the sharp-native engine: what the check
 *   adds around the decoder. An engine of another process (Chromium's) adds a mode here.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkImage } from '../../../electron/core/download/image-finish';
import { createSharpNativeEngine } from '../../../electron/adapters/image-engines/sharp-native-engine';
import { THUMBNAIL_WEBP_QUALITY } from '../../../shared/domain/thumbnail-webp';

export interface PipelineReport {
  readonly mode: string;
  readonly count: number;
  readonly failed: number;
  readonly wallMs: number;
  readonly baselineRss: number;
  readonly peakRss: number;
  /** RSS when the first image was done: the image code's start-up and one image. */
  readonly firstRss: number;
  readonly library: string;
}

type CheckOne = (file: string) => Promise<boolean>;

async function nativePath(): Promise<{ check: CheckOne; library: string; close(): void }> {
  const sharp = (await import('sharp')).default;
  return {
    library: `sharp ${sharp.versions.sharp} native, libvips ${sharp.versions.vips}`,
    async check(file) {
      const metadata = await sharp(file, { limitInputPixels: false, failOn: 'error' }).metadata();
      if (metadata.format !== 'png') return false;
      await sharp(file, { limitInputPixels: 100_000_000, failOn: 'error' })
        .autoOrient()
        .resize({ width: 384, height: 384, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: THUMBNAIL_WEBP_QUALITY })
        .toBuffer();
      return true;
    },
    close() {},
  };
}

function enginePath(): { check: CheckOne; library: string; close(): Promise<void> } {
  const imageEngine = createSharpNativeEngine();
  return {
    library: 'the core’s image check on the sharp-native engine',
    async check(file) {
      const result = await checkImage(file, 'png', {
        root: dirname(file),
        maxPixels: 100_000_000,
        maxImageBytes: 64 * 1024 * 1024,
        thumbnailSize: 384,
        imageEngine,
      });
      return !('state' in result) && result.thumbnail !== null;
    },
    close: () => imageEngine.dispose(),
  };
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

async function main(): Promise<void> {
  const [mode = '', dir = '', countText = '0'] = process.argv.slice(2);
  const files = (await readdir(dir)).filter((name) => name.endsWith('.png')).sort();
  const count = Number(countText);
  const path = mode === 'native' ? await nativePath() : mode === 'engine' ? enginePath() : null;
  if (!path) throw new Error(`unknown mode ${mode}`);
  collect();
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  const queue = Array.from({ length: count }, (_, n) => join(dir, files[n % files.length] ?? ''));
  let failed = 0;
  let firstRss = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const ok = await path.check(file).catch(() => false);
        if (!ok) failed += 1;
        const rss = process.memoryUsage.rss();
        if (firstRss === 0) firstRss = rss;
        peakRss = Math.max(peakRss, rss);
      }
    }),
  );
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const library = path.library;
  await path.close();
  const report: PipelineReport = {
    mode,
    count,
    failed,
    wallMs,
    baselineRss,
    peakRss,
    firstRss,
    library,
  };
  console.log(JSON.stringify(report));
}

await main();
