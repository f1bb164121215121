/**
 * The image renderer's side of the "Image renderer" row: the built page (from a test build) in a
 * fresh Debian Chromium, driven by the app's RendererJobs two jobs at a time, with each process's
 * CPU time and memory read from /proc: the renderer (the page and its workers), the browser
 * process (it serves the bytes and holds the blobs), and the rest.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromium } from '@playwright/test';
import type { ImageHeaderInfo } from '../../../electron/ports/image-engine';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/host';
import { startImagePageStand } from '../../support/image-page-stand';
import { byRole, sampleTree, type ChromiumRole } from './process-stats';

export interface RendererReport {
  readonly count: number;
  readonly failed: number;
  readonly wallMs: number;
  /** CPU ms during the run, by process role. */
  readonly cpuMs: Record<ChromiumRole, number>;
  /** RSS growth (peak during the run minus the start, the page loaded and warm), by role. */
  readonly growthBytes: Record<ChromiumRole, number>;
}

const header = (side: number): ImageHeaderInfo => ({
  format: 'png',
  width: side,
  height: side,
  orientation: 1,
  orientedWidth: side,
  orientedHeight: side,
});

/** Thumbnails `count` jobs over `files` (each `side`²) in a fresh browser. */
export async function runInChromium(
  pageRoot: string,
  files: readonly string[],
  side: number,
  count: number,
): Promise<RendererReport> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const browser = await chromium.connect(server.wsEndpoint());
  const root = server.process().pid ?? 0;
  const stand = await startImagePageStand({ browser, pageRoot, jobTimeoutMs: 120_000 });
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
    const before = byRole(sampleTree(root));
    const peak = { browser: 0, renderer: 0, other: 0 };
    const sample = () => {
      const now = byRole(sampleTree(root));
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
            header: header(side),
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
      growthBytes: Object.fromEntries(
        roles.map((role) => [role, peak[role] - before[role].rssBytes]),
      ) as Record<ChromiumRole, number>,
    };
  } finally {
    await stand.close();
    await browser.close();
    await server.close();
  }
}
