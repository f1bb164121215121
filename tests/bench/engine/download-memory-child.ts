/**
 * Child process of the "Download memory" row, bundled as the app's main process is
 * (bundled-child.ts) and run as `node --expose-gc child.js <gallery|engine> <image engine> <url> <n>`
 * so it can collect garbage before measuring and nothing else shares its heap. Its RSS is the
 * main process's; an image engine that works in a process of its own (the app's Chromium image
 * renderer) is reported apart (`imageProcess`), an in-process one (sharp-native) is in the main's. `gallery` calls the real
 * Gallery.downloadImage for `n` records at once (each `<url>/files/image-<k>.png`); `engine`
 * opens the real core against the fake service at `<url>`, submits `n` tasks that complete at
 * the first poll, and lets the engine's DownloadManager fetch them (at most
 * maxConcurrentDownloads at a time, as in the app). Prints one JSON line: RSS before (after a
 * GC), the peak sampled every 50 ms (with V8's heap and external shares at that moment), the
 * kernel's high-water mark for the same span, RSS after a final GC, and how many images were saved.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { highWater, resetHighWater } from './high-water';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import { DEFAULT_ENGINE_OPTIONS } from '../../../electron/core/engine/engine-types';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { createHeaderOnlyEngine } from '../../../electron/adapters/image-engines/header-only-engine';
import { createSharpNativeEngine } from '../../../electron/adapters/image-engines/sharp-native-engine';
import type { ImageEngine } from '../../../electron/ports/image-engine';
import type { FetchLike } from '../../../electron/ports/http';
import { PAGE_THUMBNAIL_WEBP } from '../../../shared/image-renderer/protocol';
import { gradientPng } from '../../../electron/demo-service/plain-png';
import { StaticCredentials } from '../../fakes/static-credentials';
import { startBridgedPage, type BridgedPage } from '../images/bridged-page';
import { byRole, resample, sampleTree } from '../images/process-stats';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { targetAt } from '../../support/submit-target';
import { faultsOf } from '../../support/fault-cost';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { gcTally, type GcKinds } from './gc-tally';
import { createMainFetch } from '../../support/node-http-net';

export interface DownloadMemoryReport {
  /** The image engine that checked the images. */
  readonly engine: string;
  /**
   * The image engine's own process, when it has one: its peak RSS growth (bytes). `null` when the
   * engine works inside the main process (its memory is in the figures below) or decodes nothing.
   */
  readonly imageProcess: {
    /** Chromium's renderer processes (the image page and its workers): peak RSS growth, bytes. */
    readonly peakGrowth: number;
    /** Their CPU time per image given, ms. */
    readonly cpuMsPerImage: number;
    /** Their page faults per image given. */
    readonly faultsPerImage: number;
    /**
     * Chromium's browser process: peak RSS growth and CPU per image. It serves the page its
     * bytes' blobs; in Electron it is the main process itself.
     */
    readonly browserPeakGrowth: number;
    readonly browserCpuMsPerImage: number;
    readonly browserFaultsPerImage: number;
  } | null;
  /** The main process (this one): RSS after a GC before the run. */
  readonly baselineRss: number;
  readonly peakRss: number;
  /** VmHWM after resetting it at the baseline; null where /proc cannot be reset. */
  readonly highWaterRss: number | null;
  readonly afterRss: number;
  /** V8's share at the sampled RSS peak, as growth over the baseline (bytes). */
  readonly peakHeapGrowth: number;
  /** Memory outside V8's heap held by JS objects (socket and file buffers) at the RSS peak. */
  readonly peakExternalGrowth: number;
  /**
   * The most ArrayBuffer memory (the bodies' socket chunks, file buffers) alive at any sample,
   * as growth; after the final GC it is back near the baseline, so most of it was garbage not
   * yet collected, not memory anything kept.
   */
  readonly maxArrayBufferGrowth: number;
  /** ArrayBuffer memory after the final GC, as growth (what is really kept). */
  readonly afterArrayBufferGrowth: number;
  /**
   * CPU time of this process (all its threads) per image given, ms: load-independent. The
   * bench's own sampling (this process's RSS, Chromium's /proc files, every 50 ms) is taken out:
   * it is timed on the thread that does it (`meterCpuMsPerImage`), and it grows with the run's
   * length and Chromium's process count, not with anything main does.
   */
  readonly cpuMsPerImage: number;
  /** The bench's sampling's own CPU per image given, ms (taken out of `cpuMsPerImage`). */
  readonly meterCpuMsPerImage: number;
  /** Page faults of this process per image given (tests/support/fault-cost.ts). */
  readonly faultsPerImage: number;
  /** V8's collections on this process's main thread during the run, by kind (gc-tally.ts). */
  readonly gc: GcKinds;
  /**
   * Read buffers the image jobs allocated during the run (the rest were lent again): `null` for
   * an engine that serves no jobs. The figure a buffer cliff moves, where CPU moves by noise.
   */
  readonly readBuffersMade: number | null;
  readonly saved: number;
  readonly failed: string[];
  readonly bytes: number;
  readonly wallMs: number;
}

function record(n: number, url: string): TaskRecord {
  const now = Date.now();
  return {
    localId: `bench-${n.toString().padStart(4, '0')}`,
    taskId: `task-${n}`,
    origin: 'submitted',
    endpoint: url,
    account: 'bench',
    request: { prompt: `download memory ${n}` },
    status: 'completed',
    hold: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    submittedAt: now,
    finishedAt: now,
    watchStartedAt: now,
    polls: 1,
    lastPolledAt: now,
    images: [
      {
        index: 0,
        url: `${url}/files/image-${n}.png`,
        state: 'pending',
        attempts: 0,
        favourite: false,
      },
    ],
    favourite: false,
    folder: null,
  };
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

type Outcome = Pick<DownloadOutcome, 'state'> & { error?: string; bytes?: number };

/** The engine, and for the Chromium one the page it runs (its processes are measured apart). */
async function imageEngineNamed(
  name: string,
): Promise<{ engine: ImageEngine; page: BridgedPage | null }> {
  if (name === 'sharp-native') {
    // The sharp control encodes its thumbnails as the page's encoder must (protocol.ts).
    const { quality, method } = PAGE_THUMBNAIL_WEBP;
    return { engine: createSharpNativeEngine({ quality, effort: method }), page: null };
  }
  if (name === 'header-only') return { engine: createHeaderOnlyEngine(), page: null };
  if (name === 'chromium') {
    const pageRoot = process.env.PICTOR_BENCH_IMAGE_PAGE;
    const chromiumPath = process.env.PICTOR_BENCH_CHROMIUM;
    if (!pageRoot || !chromiumPath)
      throw new Error(
        'the chromium engine needs PICTOR_BENCH_IMAGE_PAGE and PICTOR_BENCH_CHROMIUM',
      );
    const page = await startBridgedPage({ pageRoot, chromiumPath });
    return { engine: page.engine, page };
  }
  throw new Error(`unknown image engine ${name}`);
}

/** Saved as the engine can: with a thumbnail, or (header-only) with its thumbnail pending. */
function savedAsExpected(engine: ImageEngine, thumbnail: boolean): boolean {
  return engine.name === 'header-only' ? !thumbnail : thumbnail;
}

/** 100 Gallery.downloadImage calls at once: the downloader alone, no concurrency cap. */
async function viaGallery(dir: string, url: string, count: number, run: Run) {
  const { gallery, intake } = galleryOnServer(dir, {
    fetch: createNodeFetch(),
    imageEngine: run.engine,
  });
  await gallery.init();
  const records = Array.from({ length: count }, (_, n) => record(n, url));
  return run.measure(async () => {
    const outcomes = await Promise.all(records.map((r) => intake.downloadImage(r, 0, url)));
    return outcomes.map((o): Outcome =>
      o.state === 'saved' && !savedAsExpected(run.engine, Boolean(o.thumbnail))
        ? { state: 'invalid', error: 'not checked as the engine does' }
        : o,
    );
  });
}

interface Run {
  readonly engine: ImageEngine;
  readonly measure: Meter;
}

/** As many at once as the engine downloads. */
const PLAIN_AT_ONCE = DEFAULT_ENGINE_OPTIONS.maxConcurrentDownloads;

/** One image streamed to `file` with its SHA-256, flushed to disk and closed. */
async function savePlain(url: string, file: string): Promise<Outcome> {
  const hash = createHash('sha256');
  const handle = await open(file, 'w');
  try {
    const body = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(url, resolve).on('error', reject),
    );
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      await handle.write(chunk);
      bytes += chunk.length;
    }
    hash.digest('hex');
    await handle.sync();
    return { state: 'saved', bytes };
  } catch (error) {
    return { state: 'invalid', error: String(error) };
  } finally {
    await handle.close();
  }
}

/**
 * The plain control: the same images streamed to files with their SHA-256, each flushed, as many
 * at once as the engine: what any save needs, nothing of Pictor's (no header check, no XMP, no
 * history, no engine).
 */
async function viaPlain(dir: string, url: string, count: number, run: Run) {
  return run.measure(async () => {
    const queue = Array.from({ length: count }, (_, n) => n);
    const outcomes: Outcome[] = [];
    await Promise.all(
      Array.from({ length: PLAIN_AT_ONCE }, async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          outcomes.push(await savePlain(`${url}/files/plain-${n}.png`, join(dir, `${n}.png`)));
        }
      }),
    );
    return outcomes;
  });
}

/** The real core: tasks complete at their first poll and the engine downloads every image. */
async function viaEngine(dir: string, url: string, count: number, run: Run) {
  const core = await openPictorCore({
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: createNodeFetch(),
    credentials: new StaticCredentials(url, 'sk-bench'),
    clock: systemClock,
    // Short so every task completes within a tenth of a second: the downloads start together.
    engine: { pollIntervalMs: 100 },
    imageEngine: run.engine,
  });
  try {
    core.engine.start();
    return await run.measure(async () => {
      const records = await core.engine.submit({ prompt: 'download memory' }, targetAt(url), count);
      const done = await core.engine.whenSettled(records.map((r) => r.localId));
      return done.map((r): Outcome => {
        const image = r.images[0];
        return image?.state === 'saved' && savedAsExpected(run.engine, Boolean(image.thumbnail))
          ? { state: 'saved', bytes: image.bytes ?? 0 }
          : {
              state: image?.state === 'expired' ? 'expired' : 'invalid',
              error: image?.error ?? r.status,
            };
      });
    });
  } finally {
    await core.close();
  }
}

interface Measured {
  readonly outcomes: readonly Outcome[];
  readonly imageProcess: ImageProcess;
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly highWaterRss: number | null;
  readonly afterRss: number;
  readonly peakHeapGrowth: number;
  readonly peakExternalGrowth: number;
  readonly maxArrayBufferGrowth: number;
  readonly afterArrayBufferGrowth: number;
  readonly cpuMsPerImage: number;
  readonly meterCpuMsPerImage: number;
  readonly faultsPerImage: number;
  readonly gc: GcKinds;
  readonly readBuffersMade: number | null;
  readonly wallMs: number;
}
type Meter = (work: () => Promise<readonly Outcome[]>) => Promise<Measured>;

type ImageProcess = DownloadMemoryReport['imageProcess'];

/**
 * Peak RSS growth and CPU of Chromium's processes over a run, per image. The processes are found
 * once, after the warm-up job started the page (its workers are threads of its renderer), and
 * then read from their own /proc files only: walking /proc every 50 ms cost this process, the
 * one measured, about 40 ms of CPU per image.
 */
function chromiumMeter(page: BridgedPage | null) {
  const pid = page?.chromiumPid() ?? null;
  const processes = pid === null ? [] : sampleTree(pid);
  const chromiumNow = () => (processes.length === 0 ? null : byRole(resample(processes)));
  const before = chromiumNow();
  const peak = { renderer: 0, browser: 0 };
  return {
    sample(): void {
      const now = chromiumNow();
      if (!now) return;
      peak.renderer = Math.max(peak.renderer, now.renderer.rssBytes);
      peak.browser = Math.max(peak.browser, now.browser.rssBytes);
    },
    end(images: number): ImageProcess {
      const after = chromiumNow();
      if (!before || !after) return null;
      const per = (ms: number) => ms / Math.max(1, images);
      return {
        peakGrowth: peak.renderer - before.renderer.rssBytes,
        cpuMsPerImage: per(after.renderer.cpuMs - before.renderer.cpuMs),
        faultsPerImage: per(after.renderer.faults - before.renderer.faults),
        browserPeakGrowth: peak.browser - before.browser.rssBytes,
        browserCpuMsPerImage: per(after.browser.cpuMs - before.browser.cpuMs),
        browserFaultsPerImage: per(after.browser.faults - before.browser.faults),
      };
    },
  };
}

function meterFor(page: BridgedPage | null): Meter {
  return async (work) => {
    collect();
    const canReset = resetHighWater();
    const baseline = process.memoryUsage();
    const chromium = chromiumMeter(page);
    let peak = baseline;
    let arrayBuffers = baseline.arrayBuffers;
    const sample = (): void => {
      const now = process.memoryUsage();
      if (now.rss > peak.rss) peak = now;
      arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers);
      chromium.sample();
    };
    // The sampling is the bench's own work, done on this thread: its CPU is timed and taken out.
    let meterUs = 0;
    const sampler = setInterval(() => {
      const before = process.threadCpuUsage();
      sample();
      const spent = process.threadCpuUsage(before);
      meterUs += spent.user + spent.system;
    }, 50);
    const started = Date.now();
    const cpu = process.cpuUsage();
    const faults = faultsOf('self') ?? 0;
    const gc = gcTally();
    const buffersMade = (): number | null => page?.engine.sources.readBufferCounters.made ?? null;
    const buffersBefore = buffersMade();
    const outcomes = await work();
    const buffersAfter = buffersMade();
    const wallMs = Date.now() - started;
    const collections = gc.take();
    gc.stop();
    const used = process.cpuUsage(cpu);
    const faulted = (faultsOf('self') ?? 0) - faults;
    clearInterval(sampler);
    sample();
    const highWaterRss = canReset ? highWater() : null;
    collect();
    const after = process.memoryUsage();
    return {
      outcomes,
      imageProcess: chromium.end(outcomes.length),
      baselineRss: baseline.rss,
      peakRss: peak.rss,
      highWaterRss,
      afterRss: after.rss,
      peakHeapGrowth: peak.heapTotal - baseline.heapTotal,
      peakExternalGrowth: peak.external - baseline.external,
      maxArrayBufferGrowth: arrayBuffers - baseline.arrayBuffers,
      afterArrayBufferGrowth: after.arrayBuffers - baseline.arrayBuffers,
      cpuMsPerImage: (used.user + used.system - meterUs) / 1000 / Math.max(1, outcomes.length),
      meterCpuMsPerImage: meterUs / 1000 / Math.max(1, outcomes.length),
      faultsPerImage: faulted / Math.max(1, outcomes.length),
      gc: collections,
      readBuffersMade:
        buffersBefore === null || buffersAfter === null ? null : buffersAfter - buffersBefore,
      wallMs,
    };
  };
}

/** Starts the Chromium engine's renderer on a small image: the row measures work, not start-up. */
async function warm(engine: ImageEngine, dir: string): Promise<void> {
  const file = join(dir, 'warm.png');
  writeFileSync(file, gradientPng(8, 8, [40, 40, 40], [200, 200, 200]));
  const header = {
    format: 'png' as const,
    width: 8,
    height: 8,
    orientation: 1,
    orientedWidth: 8,
    orientedHeight: 8,
  };
  await engine.thumbnail({ file, header, thumbnailSize: 384 });
}

/**
 * The fetch a day's service calls (submits and polls) go through: `main`, the app's own adapter
 * over node:http standing in for Chromium's network service (tests/support/node-http-net.ts), as Electron's main
 * fetches; `cli`, the CLI's undici (adapters/node-fetch.ts), which main never loads.
 */
export type DayFetch = 'main' | 'cli';

const dayFetches: Readonly<Record<DayFetch, () => FetchLike>> = {
  main: createMainFetch,
  cli: () => createNodeFetch(),
};

const isDayFetch = (name: string | undefined): name is DayFetch =>
  name === 'main' || name === 'cli';

/** A day of the app's main process, as the "Main memory over a day" row reads it. */
export interface MemoryDayReport {
  readonly engine: string;
  /** The fetch the service calls went through. */
  readonly fetch: DayFetch;
  /** RSS after a GC before the first burst, bytes. */
  readonly startRss: number;
  /** Each burst's peak RSS (sampled every 50 ms), bytes. */
  readonly burstPeaks: readonly number[];
  /** Each burst's RSS after a GC when it had settled, bytes. */
  readonly burstAfterGc: readonly number[];
  /** RSS after the idle time and a GC, bytes. */
  readonly endRss: number;
  /** V8's heap used and the ArrayBuffers alive at the end, as growth over the start, bytes. */
  readonly endHeapGrowth: number;
  readonly endArrayBufferGrowth: number;
  /** V8's heap reserved (heapTotal) at the end, as growth over the start, bytes. */
  readonly endHeapTotalGrowth: number;
  /** Where the process's resident memory is at the end, by kind of mapping (smaps), bytes. */
  readonly endMappings: Record<string, number> | null;
  readonly startMappings: Record<string, number> | null;
  readonly idleMs: number;
  readonly saved: number;
  readonly failed: string[];
  /**
   * Where main's memory is at the start and after each burst and its GC: RSS, V8's heap used and
   * reserved, external and ArrayBuffer bytes, resident bytes by kind of mapping, and each V8
   * space's reserved and used bytes (`new_space`, `new_space:used`, …).
   */
  readonly burstDetail: readonly Record<string, number>[];
  /** The same after the idle time and its GC. */
  readonly endDetail: Record<string, number>;
  /** V8's collections on main's thread over the bursts (not the idle time), by kind. */
  readonly gc: GcKinds;
  /** Main's CPU time (all its threads) over the bursts per image saved or not, ms. */
  readonly cpuMsPerImage: number;
}

/**
 * Bursts of `count` downloads through one real core (the app's main process over a day), each
 * burst's task folders removed from disk when it has settled (the disk, not the app, is what
 * cannot hold a thousand 8 MB images here), then `idleMs` with nothing to do and a GC: what main
 * still holds then is what it keeps, not garbage a GC had not reached at a peak.
 */
async function viaDay(
  dir: string,
  url: string,
  count: number,
  engine: ImageEngine,
  shape: { bursts: number; idleMs: number; fetch: DayFetch },
): Promise<MemoryDayReport> {
  const galleryDir = join(dir, 'gallery');
  const core = await openPictorCore({
    dataDir: join(dir, 'data'),
    galleryDir,
    fetch: dayFetches[shape.fetch](),
    credentials: new StaticCredentials(url, 'sk-bench'),
    clock: systemClock,
    engine: { pollIntervalMs: 100 },
    imageEngine: engine,
  });
  const burstPeaks: number[] = [];
  const burstAfterGc: number[] = [];
  const failed: string[] = [];
  const burstDetail: Record<string, number>[] = [];
  let saved = 0;
  try {
    core.engine.start();
    collect();
    const start = process.memoryUsage();
    const startMappings = residentByMapping();
    burstDetail.push(memoryDetail());
    const gc = gcTally();
    const cpu = process.cpuUsage();
    for (let burst = 0; burst < shape.bursts; burst += 1) {
      let peak = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 50);
      const records = await core.engine.submit({ prompt: 'memory day' }, targetAt(url), count);
      const done = await core.engine.whenSettled(records.map((r) => r.localId));
      clearInterval(sampler);
      burstPeaks.push(Math.max(peak, process.memoryUsage().rss));
      for (const r of done) {
        const image = r.images[0];
        if (image?.state === 'saved' && savedAsExpected(engine, Boolean(image.thumbnail)))
          saved += 1;
        else failed.push(image?.error ?? r.status);
      }
      await removeTaskFolders(galleryDir);
      collect();
      burstAfterGc.push(process.memoryUsage().rss);
      burstDetail.push(memoryDetail());
    }
    const collections = gc.take();
    gc.stop();
    const used = process.cpuUsage(cpu);
    const images = Math.max(1, shape.bursts * count);
    await new Promise((resolve) => setTimeout(resolve, shape.idleMs));
    collect();
    const end = process.memoryUsage();
    return {
      engine: engine.name,
      fetch: shape.fetch,
      startRss: start.rss,
      burstPeaks,
      burstAfterGc,
      endRss: end.rss,
      endHeapGrowth: end.heapUsed - start.heapUsed,
      endArrayBufferGrowth: end.arrayBuffers - start.arrayBuffers,
      endHeapTotalGrowth: end.heapTotal - start.heapTotal,
      endMappings: residentByMapping(),
      startMappings,
      idleMs: shape.idleMs,
      saved,
      failed,
      burstDetail,
      endDetail: memoryDetail(),
      gc: collections,
      cpuMsPerImage: (used.user + used.system) / 1000 / images,
    };
  } finally {
    await core.close();
  }
}

/**
 * Resident memory by kind of mapping (smaps): the main thread's malloc heap (\`[heap]\`), files,
 * and anonymous memory (V8's pages, other threads' malloc arenas, large mmapped allocations,
 * stacks). Null off Linux.
 */
function residentByMapping(): Record<string, number> | null {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  const totals: Record<string, number> = {};
  let kind = 'anonymous';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind =
        name === '[heap]'
          ? 'mallocMain'
          : name.startsWith('/')
            ? 'files'
            : name === ''
              ? 'anonymous'
              : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals[kind] = (totals[kind] ?? 0) + Number(rss[1]) * 1024;
  }
  return totals;
}

function memoryDetail(): Record<string, number> {
  const m = process.memoryUsage();
  const { heapUsed, heapTotal, external, arrayBuffers } = m;
  return {
    rss: m.rss,
    heapUsed,
    heapTotal,
    external,
    arrayBuffers,
    ...residentByMapping(),
    ...heapSpaces(),
  };
}

/** Each V8 space's reserved (`<space>`) and used (`<space>:used`) bytes. */
function heapSpaces(): Record<string, number> {
  const spaces: Record<string, number> = {};
  for (const space of getHeapSpaceStatistics()) {
    spaces[space.space_name] = space.space_size;
    spaces[`${space.space_name}:used`] = space.space_used_size;
  }
  return spaces;
}

/** The gallery's task folders (its own dot-folders, the temp one among them, stay). */
async function removeTaskFolders(galleryDir: string): Promise<void> {
  const names = await readdir(galleryDir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => !name.startsWith('.'))
      .map((name) => rm(join(galleryDir, name), { recursive: true, force: true })),
  );
}

const MODES = ['gallery', 'engine', 'plain', 'day'] as const;
type ChildMode = (typeof MODES)[number];
const isMode = (mode: string | undefined): mode is ChildMode => MODES.some((each) => each === mode);

async function main(): Promise<void> {
  const [mode, engineName = '', url, countText, burstsText, idleText, fetchName = 'main'] =
    process.argv.slice(2);
  if (!isMode(mode) || !url || !isDayFetch(fetchName))
    throw new Error(
      'usage: child <gallery|engine|plain|day> <image engine> <server url> <count> [bursts idle-ms main|cli]',
    );
  const count = Number(countText ?? 100);
  const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-download-'));
  const { engine, page } = await imageEngineNamed(engineName);
  try {
    if (page) await warm(engine, dir);
    if (mode === 'day') {
      const shape = {
        bursts: Number(burstsText ?? 10),
        idleMs: Number(idleText ?? 60_000),
        fetch: fetchName,
      };
      const report = await viaDay(dir, url, count, engine, shape);
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const via = mode === 'gallery' ? viaGallery : mode === 'plain' ? viaPlain : viaEngine;
    const { outcomes, ...figures } = await via(dir, url, count, {
      engine,
      measure: meterFor(page),
    });
    const saved = outcomes.filter((o) => o.state === 'saved');
    const report: DownloadMemoryReport = {
      engine: engine.name,
      ...figures,
      saved: saved.length,
      failed: outcomes.filter((o) => o.state !== 'saved').map((o) => o.error ?? o.state),
      bytes: saved.reduce((sum, o) => sum + (o.bytes ?? 0), 0),
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await (page ? page.close() : engine.dispose());
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
