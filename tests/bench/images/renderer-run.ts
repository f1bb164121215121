/**
 * The image renderer's side of the "Image renderer" row: the built page (from a test build) in a
 * fresh Debian Chromium, driven by the app's RendererJobs two jobs at a time, with each process's
 * CPU time, page faults and memory read from /proc: the page's renderer (the one whose threads
 * run its decoding workers; another renderer, such as Chromium's WebUI, counts as the rest), the browser
 * process (it holds the blobs), and the rest (its network service fetches the bytes). The page
 * talks to the engine over the bridged page's plain HTTP (bridged-page.ts), not over Playwright's
 * DevTools connection, whose evaluate and binding calls ran in the very renderer measured.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ImageFormat, ImageHeaderInfo } from '../../../electron/ports/image-engine';
import { CHROMIUM_PATH } from '../../e2e/harness/host';
import { startBridgedPage } from './bridged-page';
import { byRole, resample, sampleTree, type ChromiumRole } from './process-stats';

export interface RendererReport {
  readonly count: number;
  readonly failed: number;
  readonly wallMs: number;
  /** CPU ms during the run, by process role. */
  readonly cpuMs: Record<ChromiumRole, number>;
  /** Page faults during the run, by process role. */
  readonly faults: Record<ChromiumRole, number>;
  /** Processes counted as the page's renderer (the one running its decoding workers). */
  readonly pageRenderers: number;
  /** RSS growth (peak during the run minus the start, the page loaded and warm), by role. */
  readonly growthBytes: Record<ChromiumRole, number>;
}

const header = (side: number, format: ImageFormat = 'png'): ImageHeaderInfo => ({
  format,
  width: side,
  height: side,
  orientation: 1,
  orientedWidth: side,
  orientedHeight: side,
});

/** Thumbnails `count` jobs over `files` (each a `side`² image in `format`) in a fresh browser. */
export async function runInChromium(
  pageRoot: string,
  files: readonly string[],
  side: number,
  count: number,
  format: ImageFormat = 'png',
): Promise<RendererReport> {
  const stand = await startBridgedPage({
    pageRoot,
    chromiumPath: CHROMIUM_PATH,
    jobTimeoutMs: 120_000,
  });
  try {
    // Starts the renderer and its workers on a small image: the row measures work, not start-up.
    const warm = join(pageRoot, '..', 'warm.png');
    await writeFile(
      warm,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    );
    await stand.engine.thumbnail({ file: warm, header: header(8), thumbnailSize: 384 });
    // Chromium's processes, found once now that the page runs (its workers are its threads).
    const processes = sampleTree(stand.chromiumPid() ?? 0);
    const before = byRole(resample(processes));
    const peak = { browser: 0, renderer: 0, other: 0 };
    const sample = () => {
      const now = byRole(resample(processes));
      for (const role of ['browser', 'renderer', 'other'] as const)
        peak[role] = Math.max(peak[role], now[role].rssBytes);
      return now;
    };
    const sampler = setInterval(sample, 20);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: count }, (_, n) =>
        stand.engine
          .thumbnail({
            file: files[n % files.length] ?? '',
            header: header(side, format),
            thumbnailSize: 384,
          })
          .catch(() => null),
      ),
    );
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    const after = sample();
    const roles = ['browser', 'renderer', 'other'] as const;
    return {
      count,
      failed: answers.filter((answer) => answer?.kind !== 'thumbnail').length,
      wallMs,
      cpuMs: Object.fromEntries(
        roles.map((role) => [role, after[role].cpuMs - before[role].cpuMs]),
      ) as Record<ChromiumRole, number>,
      faults: Object.fromEntries(
        roles.map((role) => [role, after[role].faults - before[role].faults]),
      ) as Record<ChromiumRole, number>,
      pageRenderers: processes.filter((process) => process.role === 'renderer').length,
      growthBytes: Object.fromEntries(
        roles.map((role) => [role, peak[role] - before[role].rssBytes]),
      ) as Record<ChromiumRole, number>,
    };
  } finally {
    await stand.close();
  }
}
