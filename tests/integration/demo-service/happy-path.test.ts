import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DemoOptionsError } from '../../../electron/demo-service/options';
import { startDemoService } from '../../../electron/demo-service/server';
import {
  PNG_SIGNATURE,
  TestClock,
  poll,
  pollJson,
  pollUntilDone,
  startService,
  submit,
  submitOk,
} from './helpers';

async function download(url: string): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(url);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('demo service: submit, poll, download', () => {
  it('answers a submit with a processing task and extra fields', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now });
    const response = await submit(service, {
      prompt: 'a lighthouse at dawn',
      model: 'm-1',
      size: '64x32',
      quality: 'low',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.stringMatching(/^task_[0-9a-f]{24}$/),
      object: 'image.task',
      status: 'processing',
      created_at: Math.floor(clock.current / 1000),
      model: 'm-1',
    });
  });

  it('keeps a task processing until its duration passes, then completes it with image URLs', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 1000 });
    const id = await submitOk(service, { prompt: 'a red fox', size: '96x64' });
    clock.advance(500);
    const halfway = await pollJson(service, id);
    expect(halfway).toMatchObject({ id, status: 'processing', prompt: 'a red fox', progress: 50 });
    expect(halfway.output).toBeUndefined();
    clock.advance(500);
    const done = await pollJson(service, id);
    expect(done.status).toBe('completed');
    expect(done.output?.data).toEqual([
      {
        url: expect.stringMatching(new RegExp(`^${service.url}/files/[0-9a-f]{40}\\.png$`)),
        width: 96,
        height: 64,
      },
    ]);
    expect(done.error).toBeUndefined();
  });

  it('serves the image as a PNG of exactly the requested size, without authentication', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 0 });
    const id = await submitOk(service, {
      prompt: 'a teapot <b>&amp; "quotes"</b>',
      size: '200x120',
    });
    const task = await pollJson(service, id);
    const { response, bytes } = await download(task.output!.data[0]!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 200, 120]);
  });

  it('renders prompts with markup, control characters, lone surrogates and great length', async () => {
    const service = await startService({ durationMs: 0 });
    const prompts = [
      '</text><image href="file:///etc/passwd"/><text>',
      'bell \u0007 nul \u0000 lone \ud800 surrogate and an emoji 🦊',
      'word '.repeat(2000),
      'x'.repeat(3000),
    ];
    for (const prompt of prompts) {
      const task = await pollJson(service, await submitOk(service, { prompt, size: '80x40' }));
      const { response, bytes } = await download(task.output!.data[0]!.url);
      expect(response.status).toBe(200);
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height]).toEqual([80, 40]);
    }
  });

  it('renders 1024x1024 when the request has no size', async () => {
    const service = await startService({ durationMs: 0 });
    const task = await pollJson(service, await submitOk(service, { prompt: 'default size' }));
    expect(task.output!.data[0]).toMatchObject({ width: 1024, height: 1024 });
    const { bytes } = await download(task.output!.data[0]!.url);
    const meta = await sharp(bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
  });

  it('draws different pictures for different prompts and for each task of a prompt, the same in every run', async () => {
    const first = await startService({ durationMs: 0 });
    const second = await startService({ durationMs: 0 });
    const pixels = async (service: typeof first, prompt: string): Promise<Buffer> => {
      const task = await pollJson(service, await submitOk(service, { prompt, size: '64x64' }));
      const { bytes } = await download(task.output!.data[0]!.url);
      return sharp(bytes).raw().toBuffer();
    };
    const fox = await pixels(first, 'a fox');
    const owl = await pixels(first, 'an owl');
    const nextFox = await pixels(first, 'a fox');
    const foxAgain = await pixels(second, 'a fox');
    expect(fox.equals(owl)).toBe(false);
    // The next task of the same prompt (the next of a batch) is a picture of its own.
    expect(fox.equals(nextFox)).toBe(false);
    // Seeded: the same prompt's first task looks the same in another run.
    expect(fox.equals(foxAgain)).toBe(true);
  });

  it('answers HEAD on an image with its headers only', async () => {
    const service = await startService({ durationMs: 0 });
    const task = await pollJson(
      service,
      await submitOk(service, { prompt: 'head', size: '32x32' }),
    );
    const response = await fetch(task.output!.data[0]!.url, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(8);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('gives imagesPerTask distinct images per task', async () => {
    const service = await startService({ durationMs: 0, imagesPerTask: 3 });
    const task = await pollJson(
      service,
      await submitOk(service, { prompt: 'three', size: '32x32' }),
    );
    const urls = task.output!.data.map((entry) => entry.url);
    expect(new Set(urls).size).toBe(3);
    const images = await Promise.all(urls.map(async (url) => (await download(url)).bytes));
    expect(images[0]!.equals(images[1]!)).toBe(false);
  });

  it('completes with the real clock after a short duration', async () => {
    const service = await startService({ durationMs: 200 });
    const id = await submitOk(service, { prompt: 'real time', size: '16x16' });
    expect((await pollJson(service, id)).status).toBe('processing');
    expect((await pollUntilDone(service, id)).status).toBe('completed');
  });

  it('picks each task duration inside the configured range', async () => {
    const service = await startService({ durationMs: { min: 1000, max: 2000 } });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((prompt) => submitOk(service, { prompt })));
    for (const task of service.tasks()) {
      expect(task.completesAt - task.createdAt).toBeGreaterThanOrEqual(1000);
      expect(task.completesAt - task.createdAt).toBeLessThanOrEqual(2000);
    }
  });

  it('ends every task failed with an error object when the failure rate is 1', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 100, failureRate: 1 });
    const id = await submitOk(service, { prompt: 'doomed' });
    clock.advance(100);
    const task = await pollJson(service, id);
    expect(task.status).toBe('failed');
    expect(task.output).toBeUndefined();
    expect(task.error).toEqual({
      code: 'generation_failed',
      message: expect.stringMatching(/^[A-Z].+\.$/),
    });
  });

  it('applies a changed failure rate to tasks still running', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 100 });
    const id = await submitOk(service, { prompt: 'changes its mind' });
    service.setFailureRate(1);
    clock.advance(100);
    expect((await pollJson(service, id)).status).toBe('failed');
    service.setFailureRate(0);
    const next = await submitOk(service, { prompt: 'fine' });
    clock.advance(100);
    expect((await pollJson(service, next)).status).toBe('completed');
  });

  it('uses a new duration for tasks created after setDuration', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 100 });
    service.setDuration(5000);
    const id = await submitOk(service, { prompt: 'slow now' });
    clock.advance(4999);
    expect((await pollJson(service, id)).status).toBe('processing');
    clock.advance(1);
    expect((await pollJson(service, id)).status).toBe('completed');
  });

  it('completes and fails tasks on request, with a custom error of any shape', async () => {
    const service = await startService({ durationMs: 60_000 });
    const first = await submitOk(service, { prompt: 'one' });
    const second = await submitOk(service, { prompt: 'two' });
    service.completeTask(first);
    service.failTask(second, 'content policy violation');
    expect((await pollJson(service, first)).status).toBe('completed');
    expect(await pollJson(service, second)).toMatchObject({
      status: 'failed',
      error: 'content policy violation',
    });
    expect(() => service.completeTask(first)).toThrow(/already completed/);
    expect(() => service.failTask('task_nope')).toThrow(/no task/);
  });

  it('answers polls with JSON and keeps answering the same completed task', async () => {
    const service = await startService({ durationMs: 0 });
    const id = await submitOk(service, { prompt: 'stable' });
    const first = await (await poll(service, id)).json();
    const second = await (await poll(service, id)).json();
    expect(second).toEqual(first);
  });

  it('refuses options it cannot use', async () => {
    await expect(startDemoService({ failureRate: 2 })).rejects.toThrow(DemoOptionsError);
    await expect(startDemoService({ accounts: [] })).rejects.toThrow(/at least one account/);
    await expect(startDemoService({ durationMs: { min: 5, max: 1 } })).rejects.toThrow(/duration/);
    await expect(startDemoService({ maxImageSide: 100_000 })).rejects.toThrow(/cap/);
    const service = await startService();
    expect(() => service.setFailureRate(-1)).toThrow(DemoOptionsError);
    expect(() => service.createTask('nobody', { prompt: 'p' })).toThrow(/no account/);
    expect(() => service.createTask('demo', { prompt: '' })).toThrow(/prompt is empty/);
  });
});
