/**
 * The image renderer's page in Debian's Chromium, driven by the app's RendererJobs: a page that
 * crashes with jobs in it, a job that overruns its time, SVG and PNG jobs, and the page's own
 * limits (its policy lets it reach nothing but its bytes' origin; it takes one port only).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ImageEngineError } from '../../../electron/ports/image-engine';
import {
  IMAGE_PORT_MESSAGE,
  PAGE_WORKER_BYTES_BUDGET,
} from '../../../shared/image-renderer/protocol';
import { startServer } from '../../support/http-servers';
import { startImagePageStand, type ImagePageStand } from '../../support/image-page-stand';
import { ManualClock } from '../../fakes/manual-clock';
import { encode, headerOf, photoPixels } from './image-fixtures';
import { setUpPage, type PageSetup } from './page-setup';

let setup: PageSetup;
let file: string;
const header = headerOf('png', 640, 480);
/** Job bytes wait while this is set (a held job stays in the page), until the test ends. */
let holding = false;
let releaseHeld: () => void = () => undefined;
let held = new Promise<void>((resolve) => (releaseHeld = resolve));
const stands: ImagePageStand[] = [];

beforeAll(async () => {
  setup = await setUpPage();
  file = join(setup.dir, 'image.png');
  await writeFile(file, await encode(await photoPixels(640, 480), 640, 480, 'png'));
});

afterEach(async () => {
  releaseHeld();
  holding = false;
  held = new Promise<void>((resolve) => (releaseHeld = resolve));
  await Promise.all(stands.splice(0).map((stand) => stand.close()));
});

afterAll(async () => {
  await setup?.close();
});

async function stand(options: { clock?: ManualClock } = {}): Promise<ImagePageStand> {
  const started = await startImagePageStand({
    browser: setup.browser,
    pageRoot: setup.pageRoot,
    jobTimeoutMs: 30_000,
    beforeServe: async () => {
      if (holding) await held;
    },
    ...options,
  });
  stands.push(started);
  return started;
}

const thumbnail = (running: ImagePageStand) =>
  running.engine.thumbnail({ file, header, thumbnailSize: 128 });

/** Crashes the running page's renderer process, as an out-of-memory or a codec fault would. */
async function crashPage(running: ImagePageStand): Promise<void> {
  const page = running.page();
  if (!page) throw new Error('no page');
  const session = await page.context().newCDPSession(page);
  await session.send('Page.crash').catch(() => undefined);
}

describe('a page that crashes', () => {
  it('sends the two jobs it held again, each alone on a new page, and both are answered', async () => {
    const running = await stand();
    holding = true;
    const jobs = [thumbnail(running), thumbnail(running)];
    await vi.waitFor(() => expect(running.bytesServer.requests).toHaveLength(2), 15_000);
    holding = false;
    await crashPage(running);
    const answers = await Promise.all(jobs);
    expect(answers.map((answer) => answer.kind)).toEqual(['thumbnail', 'thumbnail']);
    expect(running.starts()).toBe(2);
  });

  it('fails a job that was alone in the crashed page with crashed; the next job gets a new page', async () => {
    const running = await stand();
    holding = true;
    const job = thumbnail(running).catch((thrown: unknown) => thrown);
    await vi.waitFor(() => expect(running.bytesServer.requests).toHaveLength(1), 15_000);
    holding = false;
    await crashPage(running);
    const error = await job;
    expect(error).toBeInstanceOf(ImageEngineError);
    expect((error as ImageEngineError).why).toBe('crashed');
    expect((await thumbnail(running)).kind).toBe('thumbnail');
    expect(running.starts()).toBe(2);
  });
});

describe('a job that overruns its time', () => {
  it('fails with timeout, is cancelled in the page, and the page goes on with the next job', async () => {
    const clock = new ManualClock();
    const running = await stand({ clock });
    holding = true;
    const job = thumbnail(running).catch((thrown: unknown) => thrown);
    await vi.waitFor(() => expect(running.bytesServer.requests).toHaveLength(1), 15_000);
    await clock.advance(30_000);
    expect(((await job) as ImageEngineError).why).toBe('timeout');
    holding = false;
    expect((await thumbnail(running)).kind).toBe('thumbnail');
    expect(running.starts()).toBe(1);
  });
});

describe('what a worker makes Chromium hold', () => {
  it('not the bytes it hands its decoders: a worker reads past its budget of large images and stays', async () => {
    const running = await stand();
    const workerLoads = () =>
      running.pageServer.requests.filter((request) => request.url === '/decode-worker.js').length;
    // More image bytes than the budget of each kind, one job after another: a PNG decoded whole,
    // a JPEG decoded reduced (to 1/8: its thumbnail is 128 px). Each buffer is handed over to its
    // decoder and released when it closes, so the same warm worker takes every job.
    for (const format of ['png', 'jpeg'] as const) {
      const large = join(setup.dir, `large.${format}`);
      const bytes = await encode(await photoPixels(2048, 2048), 2048, 2048, format);
      await writeFile(large, bytes);
      const header = headerOf(format, 2048, 2048);
      const job = () => running.engine.thumbnail({ file: large, header, thumbnailSize: 128 });
      const jobs = Math.ceil(PAGE_WORKER_BYTES_BUDGET / bytes.length) + 1;
      for (let n = 0; n < jobs; n += 1) expect((await job()).kind, format).toBe('thumbnail');
    }
    expect(workerLoads()).toBe(2);
    // A canvas is held until the worker's heap is collected, with the Blob it was encoded to (the
    // browser process's, Electron's main process): a whole 2600² PNG passes the budget alone.
    const side = 2600;
    expect(4 * side * side).toBeGreaterThan(PAGE_WORKER_BYTES_BUDGET);
    const whole = await encode(await photoPixels(side, side), side, side, 'png');
    const png = await running.engine.toPng(whole);
    expect(await sharp(png).metadata()).toMatchObject({ width: side, height: side });
    await vi.waitFor(() => expect(workerLoads()).toBe(3), 15_000);
    expect(running.starts()).toBe(1);
  });
});

describe('thumbnails of one size', () => {
  it('are drawn on the canvas the worker keeps: each its own picture, and the worker stays', async () => {
    const side = 400;
    const square = (alpha: number) =>
      sharp({
        create: {
          width: side,
          height: side,
          channels: 4,
          background: { r: 255, g: 0, b: 0, alpha },
        },
      })
        .png()
        .toBuffer();
    const opaque = join(setup.dir, 'opaque.png');
    const clear = join(setup.dir, 'clear.png');
    await writeFile(opaque, await square(1));
    await writeFile(clear, await square(0));
    const running = await stand();
    const workerLoads = () =>
      running.pageServer.requests.filter((request) => request.url === '/decode-worker.js').length;
    const header = headerOf('png', side, side);
    // More 384² thumbnails than new canvases of their size would fit in the budget.
    const jobs = Math.ceil(PAGE_WORKER_BYTES_BUDGET / (4 * 384 * 384)) + 1;
    for (let n = 0; n < jobs; n += 1) {
      const file = n % 2 === 0 ? opaque : clear;
      const answer = await running.engine.thumbnail({ file, header, thumbnailSize: 384 });
      if (answer.kind !== 'thumbnail') throw new Error(`job ${n}: ${answer.kind}`);
      // A transparent image after an opaque one is transparent: the kept canvas was cleared.
      const pixels = await sharp(answer.webp).ensureAlpha().raw().toBuffer();
      const alphas = new Set(pixels.filter((_, at) => at % 4 === 3));
      expect([...alphas], `job ${n}`).toEqual([n % 2 === 0 ? 255 : 0]);
    }
    expect(workerLoads()).toBe(2);
  });
});

describe('SVG and PNG jobs', () => {
  it('draws an SVG at exactly the size asked, and fits an image into a PNG', async () => {
    const running = await stand();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#f00"/></svg>';
    const drawn = await running.engine.renderSvgPng(svg, { width: 50, height: 40 });
    const drawnInfo = await sharp(drawn).raw().toBuffer({ resolveWithObject: true });
    expect(drawnInfo.info).toMatchObject({ width: 50, height: 40 });
    expect((await sharp(drawn).stats()).channels[0]!.mean).toBeGreaterThan(250);
    const jpeg = await encode(await photoPixels(300, 200), 300, 200, 'jpeg');
    const png = await running.engine.toPng(jpeg, 64);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 64, height: 43 });
    await expect(running.engine.toPng(jpeg.subarray(0, 2_000))).rejects.toThrow(/decoded/);
  });

  it('draws an SVG with an external image and a script as a picture of itself only', async () => {
    const outside = await startServer((_req, res) => res.end('x'));
    try {
      const running = await stand();
      const svg =
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="8" height="8">` +
        `<script>fetch('${outside.origin}/script')</script>` +
        `<image href="${outside.origin}/image.png" width="8" height="8"/>` +
        `<rect width="8" height="8" fill="#00f" opacity="0.5"/></svg>`;
      const drawn = await running.engine.renderSvgPng(svg, { width: 8, height: 8 });
      expect((await sharp(drawn).metadata()).width).toBe(8);
      expect(outside.requests).toEqual([]);
    } finally {
      await outside.close();
    }
  });
});

/** The page with a stand-in preload that hands over two ports and records what each hears. */
const TWO_PORTS = `(() => {
  window.__heard = [[], []];
  window.__ports = [new MessageChannel(), new MessageChannel()].map((channel, index) => {
    channel.port1.onmessage = (event) => window.__heard[index].push(event.data);
    return channel;
  });
  window.addEventListener('load', () => {
    for (const channel of window.__ports)
      window.postMessage(${JSON.stringify(IMAGE_PORT_MESSAGE)}, location.origin, [channel.port2]);
  });
})();`;

describe('the page itself', () => {
  it('reaches only its bytes’ origin, and listens on the first port it was given only', async () => {
    const running = await stand();
    const outside = await startServer((_req, res) => res.end('x'));
    const context = await setup.browser.newContext();
    try {
      const page = await context.newPage();
      await page.addInitScript(TWO_PORTS);
      await page.goto(`${running.pageServer.origin}/index.html`);
      const job = (id: number, url: string) => ({
        type: 'thumbnail',
        id,
        url,
        ...header,
        thumbnailSize: 64,
      });
      await page.evaluate(
        ([first, second]) => {
          const ports = (window as never as { __ports: MessageChannel[] }).__ports;
          ports[1]!.port1.postMessage(second);
          ports[0]!.port1.postMessage(first);
        },
        [job(1, `${outside.origin}/elsewhere.png`), job(2, `${outside.origin}/second.png`)],
      );
      await page.waitForFunction(
        () => (window as never as { __heard: unknown[][] }).__heard[0]!.length >= 2,
      );
      const heard = await page.evaluate(
        () => (window as never as { __heard: unknown[][] }).__heard,
      );
      expect(heard[0]).toEqual([
        { type: 'ready' },
        { type: 'failed', id: 1, detail: 'The image bytes could not be fetched.' },
      ]);
      expect(heard[1]).toEqual([]);
      expect(outside.requests).toEqual([]);
    } finally {
      await context.close();
      await outside.close();
    }
  });
});
