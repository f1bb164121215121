/**
 * The quirky service itself, driven with plain fetch: if it lies, every CLI test built on it
 * would prove nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  QUIRKY_KEYS,
  startQuirkyService,
  type QuirkyService,
  type QuirkyServiceOptions,
} from '../../fakes/quirky-service';
import { UNTIL } from '../../support/waits';

const running: QuirkyService[] = [];

async function start(options: QuirkyServiceOptions = {}): Promise<QuirkyService> {
  const service = await startQuirkyService(options);
  running.push(service);
  return service;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

function auth(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

async function submit(service: QuirkyService, key: string, body: object): Promise<Response> {
  return fetch(`${service.baseUrl}/v1/images/generations`, {
    method: 'POST',
    headers: { ...auth(key), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function poll(service: QuirkyService, key: string, id: string): Promise<Response> {
  return fetch(`${service.baseUrl}/v1/tasks/${id}`, { headers: auth(key) });
}

async function pollJson(service: QuirkyService, key: string, id: string) {
  const response = await poll(service, key, id);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('quirky service', () => {
  it('submits, processes, completes with extra fields and a real PNG on another origin', async () => {
    // The task's time moves by hand: at 150 ms of real time a loaded machine's first poll came
    // after the task had finished.
    let now = 0;
    const service = await start({ durationMs: 150, basePath: '/gateway', now: () => now });
    expect(service.baseUrl).toMatch(/\/gateway$/);
    const response = await submit(service, QUIRKY_KEYS.alice, { prompt: 'fox', size: '40x30' });
    expect(response.status).toBe(200);
    const created = (await response.json()) as Record<string, unknown>;
    expect(created).toMatchObject({ object: 'generation.task', usage: expect.any(Object) });
    const id = created.id as string;
    expect((await pollJson(service, QUIRKY_KEYS.alice, id)).status).toBe('processing');
    now = 150;
    let polls = 1;
    const status = async () => {
      polls += 1;
      return (await pollJson(service, QUIRKY_KEYS.alice2, id)).status;
    };
    await expect.poll(status, UNTIL).toBe('completed');
    polls += 1;
    const done = await pollJson(service, QUIRKY_KEYS.alice2, id);
    expect(done).toMatchObject({ status: 'completed', output: { meta: expect.any(Object) } });
    const [entry] = (done.output as { data: { url: string; b64_json: null }[] }).data;
    expect(entry!.b64_json).toBeNull();
    expect(new URL(entry!.url).origin).toBe(service.cdnUrl);
    const image = await fetch(entry!.url);
    expect(image.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 40, 30]);
    expect(service.submits()).toHaveLength(1);
    // Every poll reached the service's log, and nothing else polled the task.
    expect(service.polls(id)).toHaveLength(polls);
    expect(service.cdnRequests()[0]!.taskId).toBe(id);
  });

  it('answers 401 with a string error, 402 with a billing object, 404 to another account', async () => {
    const service = await start();
    const bad = await submit(service, 'sk-nobody', { prompt: 'x' });
    expect([bad.status, await bad.json()]).toEqual([401, { error: 'invalid api key' }]);
    const broke = await submit(service, QUIRKY_KEYS.carol, { prompt: 'x' });
    expect(broke.status).toBe(402);
    expect(await broke.json()).toEqual({
      error: { type: 'billing', message: 'Insufficient credits' },
    });
    const id = service.createTaskFor('alice', 'made elsewhere');
    expect((await poll(service, QUIRKY_KEYS.bob, id)).status).toBe(404);
    expect((await poll(service, QUIRKY_KEYS.alice2, id)).status).toBe(200);
    expect(service.tasks().map((task) => task.account)).toEqual(['alice']);
  });

  it('refuses bad bodies and a missing JSON content type without creating tasks', async () => {
    const service = await start();
    expect((await submit(service, QUIRKY_KEYS.alice, { size: '1x1' })).status).toBe(400);
    expect((await submit(service, QUIRKY_KEYS.alice, { prompt: 'x', size: 'big' })).status).toBe(
      400,
    );
    const noType = await fetch(`${service.baseUrl}/v1/images/generations`, {
      method: 'POST',
      headers: auth(QUIRKY_KEYS.alice),
      body: JSON.stringify({ prompt: 'x' }),
    });
    expect(noType.status).toBe(415);
    expect(service.tasks()).toHaveLength(0);
  });

  it('throttles the first submits with and without Retry-After and creates nothing then', async () => {
    const service = await start({ submitThrottle: ['retry-after', 'bare'] });
    const first = await submit(service, QUIRKY_KEYS.alice, { prompt: 'x' });
    const second = await submit(service, QUIRKY_KEYS.alice, { prompt: 'x' });
    expect([first.status, first.headers.get('retry-after')]).toEqual([429, '1']);
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, null]);
    expect(service.tasks()).toHaveLength(0);
    expect((await submit(service, QUIRKY_KEYS.alice, { prompt: 'x' })).status).toBe(200);
    expect(service.tasks()).toHaveLength(1);
    expect(service.submits()).toHaveLength(3);
  });

  it('puts gateway faults in front of polls: HTML 502, 503 with an HTTP-date, 429', async () => {
    const service = await start({ pollFaults: ['html502', 'pass', 'date503', 'throttle429'] });
    const id = service.createTaskFor('alice', 'x');
    const html = await poll(service, QUIRKY_KEYS.alice, id);
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toContain('<html>');
    expect((await poll(service, QUIRKY_KEYS.alice, id)).status).toBe(200);
    const before = Date.now();
    const unavailable = await poll(service, QUIRKY_KEYS.alice, id);
    const after = Date.now();
    expect(unavailable.status).toBe(503);
    // 2 s after the service's clock, in whole seconds: bracketed by the request's start and end,
    // so no delay on a loaded machine can put it outside.
    const retryAt = Date.parse(unavailable.headers.get('retry-after') ?? '');
    expect(retryAt).toBeGreaterThan(before + 1_000);
    expect(retryAt).toBeLessThanOrEqual(after + 2_000);
    expect((await poll(service, QUIRKY_KEYS.alice, id)).status).toBe(429);
    expect((await poll(service, QUIRKY_KEYS.alice, id)).status).toBe(200);
    expect(service.polls(id).map((entry) => entry.status)).toEqual([502, 200, 503, 429, 200]);
  });

  it('fails tasks with a string error or an object error, as the outcome says', async () => {
    const errors = ['content policy violation', { code: 'moderation', message: 'Blocked' }];
    const service = await start({
      durationMs: 0,
      outcome: (task) => ({ kind: 'failed', error: errors[task.seq - 1] }),
    });
    const first = service.createTaskFor('alice', 'a');
    const second = service.createTaskFor('alice', 'b');
    expect(await pollJson(service, QUIRKY_KEYS.alice, first)).toMatchObject({
      status: 'failed',
      error: 'content policy violation',
    });
    expect((await pollJson(service, QUIRKY_KEYS.alice, second)).error).toEqual(errors[1]);
  });

  it('redirects once on the cdn, serves octet-stream PNGs and expires URLs with 403', async () => {
    const service = await start({
      durationMs: 0,
      outcome: () => ({ kind: 'completed', images: 2 }),
      cdn: { redirect: true, octetStream: true, expireAfterMs: 400 },
    });
    const id = service.createTaskFor('alice', 'x');
    const body = await pollJson(service, QUIRKY_KEYS.alice, id);
    const urls = (body.output as { data: { url: string }[] }).data.map((entry) => entry.url);
    expect(urls).toHaveLength(2);
    const hop = await fetch(urls[0]!, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    const followed = await fetch(urls[0]!);
    expect(followed.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = Buffer.from(await followed.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The second URL expires a while after completion: wait for that, not for a fixed time.
    await expect.poll(async () => (await fetch(urls[1]!)).status, UNTIL).toBe(403);
    expect(service.cdnRequests().every((entry) => entry.headers.authorization === undefined)).toBe(
      true,
    );
  });
});
