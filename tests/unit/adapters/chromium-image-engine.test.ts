import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeImageWindow,
  FakeMessageChannelMain,
  partitionSession,
  resetImageElectronFakes,
  type FakePartitionSession,
} from '../../fakes/electron-image-window';
import { ManualClock, flushPromises } from '../../fakes/manual-clock';
import { createChromiumImageEngine } from '../../../electron/adapters/chromium-image-engine';
import { IMAGE_PARTITION } from '../../../electron/adapters/image-renderer-session';
import { ImageEngineError, type ImageEngine } from '../../../electron/ports/image-engine';
import { IMAGE_PORT_CHANNEL, type ThumbnailJob } from '../../../shared/image-renderer/protocol';
import { removeFolder, tempFolder } from '../../support/temp-folders';

vi.mock(
  'electron',
  async () => (await import('../../fakes/electron-image-window')).fakeImageElectron,
);

const HEADER = {
  format: 'png',
  width: 40,
  height: 30,
  orientation: 1,
  orientedWidth: 40,
  orientedHeight: 30,
} as const;

let dir: string;
let clock: ManualClock;
let engine: ImageEngine;

beforeEach(async () => {
  resetImageElectronFakes();
  dir = await tempFolder('image-window');
  await mkdir(join(dir, 'page'));
  await writeFile(join(dir, 'page', 'index.html'), '<!doctype html>');
  await writeFile(join(dir, 'image.png'), 'image bytes');
  clock = new ManualClock();
  engine = createChromiumImageEngine({
    pageRoot: join(dir, 'page'),
    preloadPath: '/app/dist-electron/image-preload.cjs',
    clock,
    jobTimeoutMs: 30_000,
    idleMs: 60_000,
  });
});

afterEach(async () => {
  await engine.dispose();
  await removeFolder(dir);
});

function thumbnail() {
  const state: { value?: unknown; error?: unknown } = {};
  engine.thumbnail({ file: join(dir, 'image.png'), header: HEADER, thumbnailSize: 16 }).then(
    (value) => (state.value = value),
    (error: unknown) => (state.error = error),
  );
  return state;
}

function latest() {
  const win = FakeImageWindow.instances.at(-1)!;
  const channel = FakeMessageChannelMain.instances.at(-1)!;
  return { win, port: channel.port1, pagePort: channel.port2 };
}

/** The page loads, gets its port and says ready; returns the jobs it was then sent. */
async function loadPage(): Promise<ThumbnailJob[]> {
  const { win, port } = latest();
  win.webContents.emit('did-finish-load');
  port.receive({ type: 'ready' });
  await flushPromises();
  return port.sent as ThumbnailJob[];
}

function session(): FakePartitionSession {
  return partitionSession(IMAGE_PARTITION)!;
}

describe('the image renderer window', () => {
  it('opens nothing before the first job, then one hidden, sandboxed window on its own partition', async () => {
    await flushPromises();
    expect(FakeImageWindow.instances).toHaveLength(0);
    thumbnail();
    await flushPromises();
    const { win } = latest();
    expect(win.options).toMatchObject({
      show: false,
      webPreferences: {
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        backgroundThrottling: false,
        preload: '/app/dist-electron/image-preload.cjs',
        session: session(),
      },
    });
    expect(session().options).toEqual({ cache: false });
    expect(session().partition).not.toMatch(/^persist:/);
    expect(win.loaded).toEqual(['pictor-app://images/index.html']);
    expect(win.visible).toBe(false);
  });

  it('hands the page its one port after it loaded, then sends jobs on it with one-time addresses', async () => {
    const job = thumbnail();
    await flushPromises();
    const { win, port, pagePort } = latest();
    expect(win.webContents.postedMessages).toEqual([]);
    expect(port.started).toBe(true);
    const [sent] = await loadPage();
    expect(win.webContents.postedMessages).toEqual([
      { channel: IMAGE_PORT_CHANNEL, message: null, transfer: [pagePort] },
    ]);
    expect(sent?.url).toMatch(/^pictor-image:\/\/job\/[A-Za-z0-9_-]{43}$/);
    const served = await session().handlers.get('pictor-image')!(new Request(sent!.url));
    expect(await served.text()).toBe('image bytes');
    expect(served.headers.get('access-control-allow-origin')).toBe('pictor-app://images');
    const webp = new Uint8Array([82, 73, 70, 70]);
    port.receive({ type: 'thumbnail', id: sent!.id, width: 40, height: 30, webp });
    await flushPromises();
    expect(job.value).toMatchObject({ kind: 'thumbnail', width: 40, height: 30 });
  });

  it('serves the image page with its policy on the partition, and nothing else', async () => {
    thumbnail();
    await flushPromises();
    const serveApp = session().handlers.get('pictor-app')!;
    const page = await serveApp(new Request('pictor-app://images/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self' pictor-image:; img-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect((await serveApp(new Request('pictor-app://app/index.html'))).status).toBe(400);
    // The URL parser folds the dots: what is left names no file of the page.
    expect((await serveApp(new Request('pictor-app://images/../image.png'))).status).toBe(404);
  });

  it('lets the partition reach its page, job bytes and its own blobs only; denies permissions and downloads', async () => {
    thumbnail();
    await flushPromises();
    const allowed = [
      'pictor-app://images/page.js',
      'pictor-app://images/c2pa_bg.wasm',
      'pictor-image://job/abc',
      'blob:pictor-app://images/5f0c',
    ];
    const refused = [
      'https://example.com/',
      'http://127.0.0.1:8080/',
      'file:///etc/passwd',
      'pictor-app://app/index.html',
      'pictor-gallery://gallery/a.png',
      'data:text/html,hi',
      'ws://127.0.0.1/',
    ];
    for (const url of allowed) expect(session().allows(url), url).toBe(true);
    for (const url of refused) expect(session().allows(url), url).toBe(false);
    const granted = vi.fn();
    session().permissionRequestHandler?.(...([null, 'media', granted] as never[]));
    expect(granted).toHaveBeenCalledWith(false);
    expect(session().permissionCheckHandler?.()).toBe(false);
    const download = { preventDefault: vi.fn() };
    session().events.emit('will-download', download);
    expect(download.preventDefault).toHaveBeenCalled();
  });

  it('refuses every navigation, redirect and new window', async () => {
    thumbnail();
    await flushPromises();
    const { win } = latest();
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(
        win.webContents.attempt(event, 'pictor-app://images/index.html').defaultPrevented,
      ).toBe(true);
    }
    expect(win.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({
      action: 'deny',
    });
  });
});

describe('the image renderer window ending', () => {
  it('fails the job a dead renderer held alone, and opens a new window for the next job', async () => {
    const job = thumbnail();
    await flushPromises();
    await loadPage();
    const { win, port } = latest();
    win.webContents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 9 });
    await flushPromises();
    expect(job.error).toBeInstanceOf(ImageEngineError);
    expect((job.error as ImageEngineError).why).toBe('crashed');
    expect(win.isDestroyed()).toBe(true);
    expect(port.closed).toBe(true);
    thumbnail();
    await flushPromises();
    expect(FakeImageWindow.instances).toHaveLength(2);
    // One partition, set up once.
    expect(latest().win.options['webPreferences']).toMatchObject({ session: session() });
  });

  it('ends an unresponsive renderer and sends its two jobs again, one at a time', async () => {
    const jobs = [thumbnail(), thumbnail()];
    await flushPromises();
    expect(await loadPage()).toHaveLength(2);
    const first = latest().win;
    first.emit('unresponsive');
    await flushPromises();
    expect(first.isDestroyed()).toBe(true);
    expect(FakeImageWindow.instances).toHaveLength(2);
    const again = await loadPage();
    expect(again).toHaveLength(1);
    expect(jobs.every((job) => job.error === undefined && job.value === undefined)).toBe(true);
  });

  it('cancels a job that overran its time in the page', async () => {
    const job = thumbnail();
    await flushPromises();
    const [sent] = await loadPage();
    await clock.advance(30_000);
    expect((job.error as ImageEngineError).why).toBe('timeout');
    expect(latest().port.sent.at(-1)).toEqual({ type: 'cancel', id: sent!.id });
  });

  it('closes the window once idle', async () => {
    thumbnail();
    await flushPromises();
    const [sent] = await loadPage();
    const { win, port } = latest();
    port.receive({
      type: 'thumbnail',
      id: sent!.id,
      width: 40,
      height: 30,
      webp: new Uint8Array([1]),
    });
    await flushPromises();
    await clock.advance(59_999);
    expect(win.isDestroyed()).toBe(false);
    await clock.advance(1);
    expect(win.isDestroyed()).toBe(true);
  });
});

describe('the image renderer window while the app quits', () => {
  it('does not open again once a quit goes ahead: the job finds the renderer unavailable', async () => {
    let quitting = false;
    const quittingEngine = createChromiumImageEngine({
      pageRoot: join(dir, 'page'),
      preloadPath: '/app/dist-electron/image-preload.cjs',
      clock,
      mayOpenWindows: () => !quitting,
    });
    const before = FakeImageWindow.instances.length;
    quitting = true;
    const result = quittingEngine
      .thumbnail({ file: join(dir, 'image.png'), header: HEADER, thumbnailSize: 16 })
      .catch((error: unknown) => error);
    await flushPromises();
    expect(FakeImageWindow.instances).toHaveLength(before);
    expect(await result).toMatchObject({ why: 'unavailable' });
    await quittingEngine.dispose();
  });
});
