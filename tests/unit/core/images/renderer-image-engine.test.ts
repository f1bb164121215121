import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RendererImageEngine } from '../../../../electron/core/images/renderer-image-engine';
import {
  ImageEngineError,
  type ImageHeaderInfo,
  type ThumbnailAnswer,
} from '../../../../electron/ports/image-engine';
import type { ImageJob, ThumbnailJob } from '../../../../shared/image-renderer/protocol';
import { FakeRendererHost, type FakeRenderer } from '../../../fakes/fake-image-renderer';
import { ManualClock, flushPromises } from '../../../fakes/manual-clock';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const HEADER: ImageHeaderInfo = {
  format: 'png',
  width: 400,
  height: 300,
  orientation: 1,
  orientedWidth: 400,
  orientedHeight: 300,
};
const PAGE_ORIGIN = 'pictor-app://images';
const TIMEOUT = 30_000;
const IDLE = 60_000;
/** A read buffer is a whole number of MiB: a small job file takes one MiB. */
const MIB = 1024 * 1024;

let dir: string;
let file: string;
let clock: ManualClock;
let host: FakeRendererHost;
let engine: RendererImageEngine;

beforeEach(async () => {
  dir = await tempFolder('renderer-engine');
  file = join(dir, 'image.png');
  await writeFile(file, 'not really a png, served as is');
  clock = new ManualClock();
  host = new FakeRendererHost();
  engine = new RendererImageEngine({
    host,
    pageOrigin: PAGE_ORIGIN,
    clock,
    jobTimeoutMs: TIMEOUT,
    idleMs: IDLE,
  });
});

afterEach(async () => {
  await engine.dispose();
  await removeFolder(dir);
});

/** Records how a promise settles, without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true }),
  );
  return state;
}

function thumbnail(signal?: AbortSignal) {
  return track(
    engine.thumbnail({ file, header: HEADER, thumbnailSize: 384, ...(signal ? { signal } : {}) }),
  );
}

function thumbnailJobs(renderer: FakeRenderer): ThumbnailJob[] {
  return renderer.jobs().filter((job): job is ThumbnailJob => job.type === 'thumbnail');
}

function tokenOf(job: ImageJob): string {
  return job.url.slice('test-image://job/'.length);
}

function why(error: unknown): string | undefined {
  return error instanceof ImageEngineError ? error.why : undefined;
}

describe('RendererImageEngine: one renderer, started by the first job', () => {
  it('starts nothing until a job comes, then sends it once the page is ready', async () => {
    await flushPromises();
    expect(host.renderers).toHaveLength(0);
    host.autoReady = false;
    const job = thumbnail();
    await flushPromises();
    expect(host.renderers).toHaveLength(1);
    expect(host.current.jobs()).toHaveLength(0);
    host.current.ready();
    await flushPromises();
    const [sent] = thumbnailJobs(host.current);
    expect(sent).toMatchObject({ width: 400, height: 300, orientedWidth: 400, thumbnailSize: 384 });
    host.current.thumbnail(sent!);
    await flushPromises();
    expect(job.value).toEqual({
      kind: 'thumbnail',
      width: 400,
      height: 300,
      webp: new Uint8Array([82, 73, 70, 70]),
    } satisfies ThumbnailAnswer);
  });

  it('holds at most two jobs in flight; the third is sent when one is answered', async () => {
    const jobs = [thumbnail(), thumbnail(), thumbnail()];
    await flushPromises();
    const sent = thumbnailJobs(host.current);
    expect(sent).toHaveLength(2);
    host.current.thumbnail(sent[1]!);
    await flushPromises();
    expect(thumbnailJobs(host.current)).toHaveLength(3);
    expect(jobs[1]!.settled).toBe(true);
    expect(jobs[0]!.settled).toBe(false);
  });

  it('gives each job a one-time address: its bytes are served once, then the token is gone', async () => {
    thumbnail();
    thumbnail();
    await flushPromises();
    const [first, second] = thumbnailJobs(host.current);
    const [a, b] = [tokenOf(first!), tokenOf(second!)];
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    const url = `${host.sourceUrl(a)}`;
    const response = await engine.sources.serve(new Request(url.replace('test-image', 'http')));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(await response.text()).toBe('not really a png, served as is');
    const again = await engine.sources.serve(new Request(url.replace('test-image', 'http')));
    expect(again.status).toBe(404);
    // The unfetched token goes when its job ends.
    expect(engine.sources.size).toBe(1);
    host.current.thumbnail(second!);
    await flushPromises();
    expect(engine.sources.size).toBe(0);
  });

  it('lends a job’s read buffer again when the page answers after reading its bytes, never after a crash or a timeout', async () => {
    const served = async (job: ImageJob) => {
      const response = await engine.sources.serve(new Request(`http://job/${tokenOf(job)}`));
      expect(await response.text()).toBe('not really a png, served as is');
    };
    thumbnail();
    const crashed = thumbnail();
    await flushPromises();
    const [answered, alone] = thumbnailJobs(host.current);
    await served(answered!);
    await served(alone!);
    host.current.thumbnail(answered!);
    await flushPromises();
    expect(engine.sources.readBufferCounters).toEqual({ kept: 1, keptBytes: MIB, made: 2 });
    // A renderer that died may have left its loader holding the bytes: not lent again.
    host.current.crash();
    await flushPromises();
    expect(why(crashed.error)).toBe('crashed');
    expect(engine.sources.readBufferCounters).toEqual({ kept: 1, keptBytes: MIB, made: 2 });
    // The page may still be reading a job that timed out, whatever it answers late.
    const timedOut = track(
      engine.runJob({
        source: { kind: 'file', file },
        request: (id, url) => ({ ...answered!, id, url }),
        settle: (answer) => answer,
        timeoutMs: 5_000,
      }),
    );
    await flushPromises();
    const [late] = thumbnailJobs(host.current);
    await served(late!);
    expect(engine.sources.readBufferCounters).toEqual({ kept: 0, keptBytes: 0, made: 2 });
    await clock.advance(5_000);
    expect(why(timedOut.error)).toBe('timeout');
    host.current.thumbnail(late!);
    await flushPromises();
    expect(engine.sources.readBufferCounters).toEqual({ kept: 0, keptBytes: 0, made: 2 });
  });

  it('reads undecodable and failed answers as the port says', async () => {
    const refused = thumbnail();
    const failed = thumbnail();
    await flushPromises();
    const [first, second] = thumbnailJobs(host.current);
    host.current.answer({ type: 'undecodable', id: first!.id, detail: 'cut short' });
    host.current.answer({ type: 'failed', id: second!.id, detail: 'no bytes' });
    await flushPromises();
    expect(refused.value).toEqual({ kind: 'undecodable', detail: 'cut short' });
    expect(why(failed.error)).toBe('unavailable');
  });

  it('sends toPng and renderSvgPng bytes through the same one-time addresses', async () => {
    const png = track(engine.toPng(new Uint8Array([1, 2, 3]), 64));
    const svg = track(engine.renderSvgPng('<svg/>', { width: 8, height: 6 }));
    await flushPromises();
    const [pngJob, svgJob] = host.current.jobs();
    expect(pngJob).toMatchObject({ type: 'png', maxSide: 64 });
    expect(svgJob).toMatchObject({ type: 'svg', width: 8, height: 6 });
    const served = await engine.sources.serve(new Request(`http://job/${tokenOf(svgJob!)}`));
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(await served.text()).toBe('<svg/>');
    // A bare ArrayBuffer is read as well as a view of one.
    host.current.answer({ type: 'png', id: pngJob!.id, png: new Uint8Array([9]).buffer });
    host.current.answer({ type: 'undecodable', id: svgJob!.id, detail: 'bad svg' });
    await flushPromises();
    expect(png.value).toEqual(new Uint8Array([9]));
    expect(svg.error).toBeInstanceOf(Error);
  });
});

describe('RendererImageEngine: a renderer that dies or hangs', () => {
  it('sends the jobs it held again, each alone on a new renderer', async () => {
    const jobs = [thumbnail(), thumbnail()];
    await flushPromises();
    const first = host.current;
    expect(first.jobs()).toHaveLength(2);
    first.crash('its process ended (oom)');
    await flushPromises();
    expect(host.renderers).toHaveLength(2);
    const second = host.current;
    expect(thumbnailJobs(second)).toHaveLength(1);
    host.current.thumbnail(thumbnailJobs(second)[0]!);
    await flushPromises();
    // Only now the other one, still alone.
    expect(thumbnailJobs(second)).toHaveLength(2);
    expect(jobs.map((job) => job.settled)).toEqual([true, false]);
    second.thumbnail(thumbnailJobs(second)[1]!);
    await flushPromises();
    expect(jobs.map((job) => job.value?.kind)).toEqual(['thumbnail', 'thumbnail']);
  });

  it('fails a job that crashes the renderer alone with crashed, and restarts for the next job', async () => {
    const jobs = [thumbnail(), thumbnail()];
    await flushPromises();
    host.current.crash();
    await flushPromises();
    host.current.crash();
    await flushPromises();
    expect(why(jobs[0]!.error)).toBe('crashed');
    // The other is still to run alone, on a third renderer.
    expect(host.renderers).toHaveLength(3);
    host.current.thumbnail(thumbnailJobs(host.current)[0]!);
    await flushPromises();
    expect(jobs[1]!.value?.kind).toBe('thumbnail');
  });

  it('fails a job that was alone in flight at once', async () => {
    const job = thumbnail();
    await flushPromises();
    host.current.crash('it stopped responding');
    await flushPromises();
    expect(why(job.error)).toBe('crashed');
    expect(host.renderers).toHaveLength(1);
    const next = thumbnail();
    await flushPromises();
    expect(host.renderers).toHaveLength(2);
    host.current.thumbnail(thumbnailJobs(host.current)[0]!);
    await flushPromises();
    expect(next.value?.kind).toBe('thumbnail');
  });

  it('treats an answer that does not parse as a crash: closes the renderer, sends the jobs again', async () => {
    const jobs = [thumbnail(), thumbnail()];
    await flushPromises();
    const first = host.current;
    const [sent] = thumbnailJobs(first);
    first.answer({ type: 'thumbnail', id: sent!.id, width: -1, height: 3, webp: 'RIFF' });
    await flushPromises();
    expect(first.closed).toBe(true);
    expect(host.renderers).toHaveLength(2);
    expect(jobs.every((job) => !job.settled)).toBe(true);
  });

  it('ignores what a replaced renderer says after it was given up', async () => {
    const job = thumbnail();
    await flushPromises();
    const first = host.current;
    const [sent] = thumbnailJobs(first);
    first.crash();
    await flushPromises();
    first.thumbnail(sent!);
    first.crash();
    await flushPromises();
    expect(why(job.error)).toBe('crashed');
    expect(host.renderers).toHaveLength(1);
  });
});

describe('RendererImageEngine: time limits, aborts and idling', () => {
  it('fails a job with timeout after its time, cancels it in the page and frees its slot', async () => {
    const jobs = [thumbnail(), thumbnail(), thumbnail()];
    await flushPromises();
    const [first] = thumbnailJobs(host.current);
    await clock.advance(TIMEOUT - 1);
    expect(jobs[0]!.settled).toBe(false);
    await clock.advance(1);
    expect(why(jobs[0]!.error)).toBe('timeout');
    expect(why(jobs[1]!.error)).toBe('timeout');
    expect(host.current.cancels()).toEqual([first!.id, first!.id + 1]);
    expect(thumbnailJobs(host.current)).toHaveLength(3);
    // A late answer to a cancelled job changes nothing.
    host.current.thumbnail(first!);
    await flushPromises();
    expect(engine.sources.size).toBe(1);
    expect(host.renderers).toHaveLength(1);
  });

  it('stops a queued job without sending it, and a sent one with a cancel', async () => {
    const abortSent = new AbortController();
    const abortQueued = new AbortController();
    const sent = thumbnail(abortSent.signal);
    thumbnail();
    const queued = thumbnail(abortQueued.signal);
    await flushPromises();
    abortQueued.abort();
    abortSent.abort();
    await flushPromises();
    expect(why(queued.error)).toBe('stopped');
    expect(why(sent.error)).toBe('stopped');
    const sentIds = thumbnailJobs(host.current).map((job) => job.id);
    expect(host.current.cancels()).toEqual([sentIds[0]]);
    expect(sentIds).toHaveLength(2);
  });

  it('refuses a job whose signal is already aborted', async () => {
    const aborted = AbortSignal.abort();
    const job = thumbnail(aborted);
    await flushPromises();
    expect(why(job.error)).toBe('stopped');
    expect(host.renderers).toHaveLength(0);
  });

  it('closes the renderer after being idle, and starts a new one for the next job', async () => {
    thumbnail();
    await flushPromises();
    host.current.thumbnail(thumbnailJobs(host.current)[0]!);
    await flushPromises();
    await clock.advance(IDLE - 1);
    expect(host.current.closed).toBe(false);
    const job = thumbnail();
    await flushPromises();
    host.current.thumbnail(thumbnailJobs(host.current)[1]!);
    await flushPromises();
    expect(job.value?.kind).toBe('thumbnail');
    await clock.advance(IDLE - 1);
    expect(host.current.closed).toBe(false);
    await clock.advance(1);
    expect(host.current.closed).toBe(true);
    expect(engine.rendererRunning).toBe(false);
    thumbnail();
    await flushPromises();
    expect(host.renderers).toHaveLength(2);
  });

  it('gives up a renderer whose page never says ready, and one that cannot start', async () => {
    host.autoReady = false;
    const first = thumbnail();
    await flushPromises();
    await clock.advance(20_000);
    expect(why(first.error)).toBe('unavailable');
    expect(host.renderers[0]!.closed).toBe(true);
    host.failStart = 'no display';
    const second = thumbnail();
    await flushPromises();
    expect(why(second.error)).toBe('unavailable');
    expect((second.error as Error).message).toContain('no display');
  });

  it('fails what it holds with stopped when disposed', async () => {
    const jobs = [thumbnail(), thumbnail(), thumbnail()];
    await flushPromises();
    await engine.dispose();
    expect(jobs.map((job) => why(job.error))).toEqual(['stopped', 'stopped', 'stopped']);
    expect(host.current.closed).toBe(true);
    const after = thumbnail();
    await flushPromises();
    expect(why(after.error)).toBe('stopped');
  });
});
