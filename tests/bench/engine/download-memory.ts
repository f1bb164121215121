/**
 * The "Download memory" row: serves one incompressible ~8 MiB PNG from a loopback server in this
 * process and lets a child process (see download-memory-child.ts) download it as N different
 * images at once through the real Gallery, so only the downloader's memory is in the child. The
 * child is bundled as the app's main process is (bundled-child.ts) and runs without tsx.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { runJsonChild } from '../json-child';
import { bundleChild } from '../bundled-child';
import type { DayFetch, DownloadMemoryReport, MemoryDayReport } from './download-memory-child';

const CHILD = fileURLToPath(new URL('./download-memory-child.ts', import.meta.url));

/** Random RGB pixels: PNG cannot compress them, so the file is about side² × 3 bytes. */
export async function noisePng(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * Just enough of the service interface for the engine: every submit gets a new id, every task
 * is already completed with one image at `/files/<id>.png`, and every file is the same PNG.
 */
function serve(png: Buffer): Promise<{ server: Server; url: string }> {
  let next = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const json = (body: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/v1/images/generations') {
      req.resume();
      next += 1;
      return json({ id: `task_${next}`, status: 'processing' });
    }
    const taskId = /^\/v1\/tasks\/([^/?]+)/.exec(path)?.[1];
    if (taskId) {
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      return json({
        id: taskId,
        status: 'completed',
        output: { data: [{ url: `${origin}/files/${taskId}.png` }] },
      });
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

export type DownloadMode = 'gallery' | 'engine' | 'plain';
/**
 * `control`: the engine run with the header-only image engine, which decodes nothing; `sharp`:
 * the engine run with native sharp decoding in the process (the work a page is compared with);
 * `plain`: the same images streamed to files, each hashed (SHA-256) and written once, nothing of
 * Pictor's.
 */
export type DownloadRun = 'gallery' | 'engine' | 'control' | 'sharp' | 'plain';
/**
 * The image engine the child checks images with: the app's (Chromium's codecs in the built image
 * page, in a Chromium of its own whose processes are measured apart), or native sharp in the
 * child itself (what the CLI from a checkout uses).
 */
export type BenchImageEngine = 'chromium' | 'sharp-native' | 'header-only';

/** Where the child finds the built image page and a Chromium, for the `chromium` engine. */
export interface ChromiumEngineSetup {
  readonly pageRoot: string;
  readonly chromiumPath: string;
}

function chromiumEnv(chromium: ChromiumEngineSetup | undefined): Record<string, string> {
  return chromium
    ? { PICTOR_BENCH_IMAGE_PAGE: chromium.pageRoot, PICTOR_BENCH_CHROMIUM: chromium.chromiumPath }
    : {};
}

function runChild(
  child: string,
  mode: DownloadMode,
  engine: BenchImageEngine,
  args: { url: string; count: number; chromium?: ChromiumEngineSetup },
): Promise<DownloadMemoryReport> {
  return runJsonChild<DownloadMemoryReport>(child, [mode, engine, args.url, String(args.count)], {
    env: chromiumEnv(args.chromium),
    timeoutMs: 120_000,
    name: 'download child',
    bundled: true,
  });
}

/** The shape of a day: bursts of `count` downloads, then `idleMs` with nothing to do. */
interface MemoryDayShape {
  readonly count: number;
  readonly bursts: number;
  readonly idleMs: number;
}

/**
 * One core (a fresh child bundled as the app's main process is) through `shape.bursts` bursts of
 * `shape.count` downloads of a `side`×`side` noise PNG, then idle: its RSS at each step. Its
 * service calls go through `fetch` (main's adapter over node:http, or the CLI's undici).
 */
export async function measureMemoryDay(
  side: number,
  shape: MemoryDayShape,
  engine: BenchImageEngine,
  fetch: DayFetch,
  chromium?: ChromiumEngineSetup,
): Promise<{ imageBytes: number; report: MemoryDayReport }> {
  const bundle = await bundleChild(CHILD);
  const png = await noisePng(side);
  const { server, url } = await serve(png);
  try {
    const args = [String(shape.count), String(shape.bursts), String(shape.idleMs), fetch];
    const report = await runJsonChild<MemoryDayReport>(bundle.file, ['day', engine, url, ...args], {
      env: chromiumEnv(chromium),
      timeoutMs: shape.idleMs + shape.bursts * 180_000,
      name: 'memory day child',
      bundled: true,
    });
    return { imageBytes: png.length, report };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await bundle.dispose();
  }
}

/**
 * Serves a `side`×`side` noise PNG and downloads it `count` times at once, in a fresh child per
 * run: `runs[kind]` children for each kind, alternated. Images are checked by `engine`, or by the
 * header-only engine for `control`.
 */
export async function measureDownloadMemory(
  count: number,
  side: number,
  runs: Readonly<Partial<Record<DownloadRun, number>>>,
  engine: BenchImageEngine = 'sharp-native',
  chromium?: ChromiumEngineSetup,
): Promise<{
  imageBytes: number;
  reports: Record<DownloadRun, DownloadMemoryReport[]>;
}> {
  const bundle = await bundleChild(CHILD);
  try {
    return await measureWith(bundle.file, { engine, chromium }, count, side, runs);
  } finally {
    await bundle.dispose();
  }
}

async function measureWith(
  child: string,
  { engine, chromium }: { engine: BenchImageEngine; chromium: ChromiumEngineSetup | undefined },
  count: number,
  side: number,
  runs: Readonly<Partial<Record<DownloadRun, number>>>,
): Promise<{ imageBytes: number; reports: Record<DownloadRun, DownloadMemoryReport[]> }> {
  const png = await noisePng(side);
  const { server, url } = await serve(png);
  try {
    const reports: Record<DownloadRun, DownloadMemoryReport[]> = {
      gallery: [],
      engine: [],
      control: [],
      sharp: [],
      plain: [],
    };
    // Alternated, so a drift of the machine touches every kind alike.
    const most = Math.max(...Object.values(runs).map((n) => n ?? 0));
    for (let round = 0; round < most; round += 1) {
      for (const kind of ['engine', 'control', 'sharp', 'plain', 'gallery'] as const) {
        if (round >= (runs[kind] ?? 0)) continue;
        const mode = kind === 'control' || kind === 'sharp' ? 'engine' : kind;
        // The plain save checks nothing: no engine (nor Chromium) is started for it.
        const used =
          kind === 'control' || kind === 'plain'
            ? 'header-only'
            : kind === 'sharp'
              ? 'sharp-native'
              : engine;
        reports[kind].push(
          await runChild(child, mode, used, { url, count, ...(chromium ? { chromium } : {}) }),
        );
      }
    }
    return { imageBytes: png.length, reports };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
