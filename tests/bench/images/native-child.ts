/**
 * Native sharp's side of the "Image renderer" row, run as
 * `node --expose-gc --import tsx <this> <dir> <count>`: decodes every pixel of each image (PNG, JPEG, WebP) in `<dir>`
 * and makes its 384 px WebP thumbnail, two at a time, and prints one JSON line with the wall time,
 * the process's CPU time, its page faults and its RSS (baseline after a GC, the peak sampled every 20 ms).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { faultsOf } from '../../support/fault-cost';
import { THUMBNAIL_WEBP_QUALITY } from '../../../shared/domain/thumbnail-webp';

export interface NativeReport {
  readonly count: number;
  readonly failed: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Page faults of the process during the work. */
  readonly faults: number;
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly library: string;
}

async function thumbnail(file: string): Promise<void> {
  await sharp(file, { limitInputPixels: 100_000_000, failOn: 'error' })
    .autoOrient()
    .resize({ width: 384, height: 384, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: THUMBNAIL_WEBP_QUALITY })
    .toBuffer();
}

async function main(): Promise<void> {
  const [dir = '', countText = '0'] = process.argv.slice(2);
  const files = (await readdir(dir)).filter((name) => /\.(png|jpe?g|webp)$/.test(name)).sort();
  const count = Number(countText);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const queue = Array.from({ length: count }, (_, n) => join(dir, files[n % files.length] ?? ''));
  let failed = 0;
  const faultsBefore = faultsOf('self') ?? 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        await thumbnail(file).catch(() => (failed += 1));
      }
    }),
  );
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const faults = (faultsOf('self') ?? 0) - faultsBefore;
  clearInterval(sampler);
  const report: NativeReport = {
    count,
    failed,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    faults,
    baselineRss,
    peakRss: Math.max(peakRss, process.memoryUsage.rss()),
    library: `sharp ${sharp.versions.sharp} native, libvips ${sharp.versions.vips}`,
  };
  console.log(JSON.stringify(report));
}

await main();
