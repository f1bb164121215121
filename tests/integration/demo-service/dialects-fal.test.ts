import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import type { Answer } from './dialect-helpers';
import {
  FOREIGN,
  call,
  expectExpired,
  expectKeyOnlyIn,
  expectPng,
  send,
  startDialect,
} from './dialect-helpers';

const KEY = { Authorization: 'Key fal-secret' };
const ACCOUNTS = [{ account: 'alice', key: 'fal-secret' }];

interface Submitted {
  request_id: string;
  response_url: string;
  status_url: string;
  cancel_url: string;
  queue_position: number;
}

async function submit(
  service: DemoService,
  body: unknown,
  model = 'fal-ai/flux/schnell',
): Promise<Answer> {
  return send(`${service.url}/${model}`, body, KEY);
}

async function submitted(service: DemoService, body: unknown, model?: string): Promise<Submitted> {
  const answer = await submit(service, body, model);
  expect(answer.status).toBe(200);
  return answer.json as Submitted;
}

function get(url: string): Promise<Answer> {
  return call(url, { headers: KEY });
}

describe('demo service, fal dialect', () => {
  it('queues, runs and completes a request whose URLs name the first two segments of the model id', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(service, {
      prompt: 'a red fox',
      image_size: { width: 96, height: 64 },
      num_images: 2,
    });
    const base = `${service.url}/fal-ai/flux/requests/${task.request_id}`;
    expect(task).toEqual({
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
      queue_position: 0,
    });
    const queued = await get(task.status_url);
    expect([queued.status, queued.json]).toEqual([
      202,
      { status: 'IN_QUEUE', queue_position: 0, response_url: base },
    ]);
    expect((await get(task.response_url)).json).toEqual({ detail: 'Request is still in progress' });
    clock.advance(1000);
    const running = await get(task.status_url);
    expect(running.status).toBe(202);
    expect(running.json).toMatchObject({ status: 'IN_PROGRESS', response_url: base });
    expect((running.json as { logs: unknown[] }).logs.length).toBeGreaterThan(0);
    clock.advance(2000);
    const done = await get(task.status_url);
    expect([done.status, done.json]).toEqual([
      200,
      { status: 'COMPLETED', response_url: base, logs: null, metrics: { inference_time: 3 } },
    ]);
    const result = await get(task.response_url);
    expect(result.status).toBe(200);
    const images = (result.json as { images: { url: string }[] }).images;
    expect(result.json).toEqual({
      images: [0, 1].map(() => ({
        url: expect.stringMatching(new RegExp(`^${service.url}/files/[0-9a-f]{40}\\.png$`)),
        width: 96,
        height: 64,
        content_type: 'image/png',
      })),
      timings: { inference: 3 },
      seed: expect.any(Number),
      has_nsfw_concepts: [false, false],
      prompt: 'a red fox',
    });
    for (const image of images) await expectPng(image.url, 96, 64);
    expectKeyOnlyIn(service, 'authorization', 'Key fal-secret', 'fal-secret');
    expect(service.log.submits).toHaveLength(1);
    expect(service.log.submits[0]).toMatchObject({
      method: 'POST',
      path: '/fal-ai/flux/schnell',
      account: 'alice',
    });
  });

  it('accepts two-segment model ids and named sizes', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(
      service,
      { prompt: 'a hill', image_size: 'landscape_4_3' },
      'fal-ai/flux-pro',
    );
    expect(task.status_url).toBe(
      `${service.url}/fal-ai/flux-pro/requests/${task.request_id}/status`,
    );
    clock.advance(3000);
    const result = await get(task.response_url);
    expect(result.json).toMatchObject({ images: [{ width: 1024, height: 768 }] });
  });

  it('reads COMPLETED for a failed request, whose response is a 500 with a detail', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(service, { prompt: 'this will fail' });
    clock.advance(3000);
    expect((await get(task.status_url)).json).toMatchObject({ status: 'COMPLETED' });
    const result = await get(task.response_url);
    expect([result.status, result.json]).toEqual([500, { detail: expect.any(String) }]);
  });

  it('fails by the failure rate too', async () => {
    const { service, clock } = await startDialect({
      dialect: 'fal',
      accounts: ACCOUNTS,
      failureRate: 1,
    });
    const task = await submitted(service, { prompt: 'unlucky' });
    clock.advance(3000);
    expect((await get(task.response_url)).status).toBe(500);
  });

  it('answers a moderated request with a 422 content_policy_violation', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(service, { prompt: 'please moderate this' });
    clock.advance(3000);
    expect((await get(task.status_url)).json).toMatchObject({ status: 'COMPLETED' });
    const result = await get(task.response_url);
    expect(result.status).toBe(422);
    expect(result.json).toEqual({
      detail: [
        {
          loc: ['body', 'prompt'],
          msg: expect.stringContaining('content policy'),
          type: 'content_policy_violation',
        },
      ],
    });
  });

  it('refuses a wrong or missing key with 401 { detail } and logs the header as sent', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const wrong = await send(
      `${service.url}/fal-ai/flux/schnell`,
      { prompt: 'p' },
      { Authorization: 'Key nope' },
    );
    const bearer = await send(
      `${service.url}/fal-ai/flux/schnell`,
      { prompt: 'p' },
      { Authorization: 'Bearer fal-secret' },
    );
    const none = await send(`${service.url}/fal-ai/flux/schnell`, { prompt: 'p' }, {});
    for (const answer of [wrong, bearer, none]) {
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ detail: expect.any(String) });
    }
    expect(service.log.requests.map((entry) => [entry.auth, entry.account])).toEqual([
      [{ header: 'authorization', value: 'Key nope' }, null],
      [{ header: 'authorization', value: 'Bearer fal-secret' }, null],
      [null, null],
    ]);
    expect(service.tasks()).toEqual([]);
  });

  it('answers 429 with Retry-After while rate limited, then accepts', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS, rateLimit: 2 });
    for (let i = 0; i < 2; i += 1) {
      const answer = await submit(service, { prompt: 'busy' });
      expect([answer.status, answer.headers.get('retry-after')]).toEqual([429, '1']);
      expect(answer.json).toEqual({ detail: expect.any(String) });
    }
    expect((await submit(service, { prompt: 'busy' })).status).toBe(200);
    service.setRateLimit(1);
    expect((await submit(service, { prompt: 'busy' })).status).toBe(429);
  });

  it('refuses a submit with no credits left with 402 { detail }', async () => {
    const { service } = await startDialect({
      dialect: 'fal',
      accounts: [{ account: 'alice', key: 'fal-secret', credits: 1 }],
    });
    expect((await submit(service, { prompt: 'one' })).status).toBe(200);
    const refused = await submit(service, { prompt: 'two' });
    expect([refused.status, refused.json]).toEqual([402, { detail: expect.any(String) }]);
    expect(service.tasks()).toHaveLength(1);
  });

  it('cancels a queued request; a finished one is ALREADY_COMPLETED', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(service, { prompt: 'never mind' });
    const canceled = await call(task.cancel_url, { method: 'PUT', headers: KEY });
    expect([canceled.status, canceled.json]).toEqual([202, { status: 'CANCELLATION_REQUESTED' }]);
    expect((await get(task.status_url)).json).toMatchObject({ status: 'COMPLETED' });
    const result = await get(task.response_url);
    expect([result.status, result.json]).toEqual([400, { detail: 'Request was cancelled' }]);
    const again = await call(task.cancel_url, { method: 'PUT', headers: KEY });
    expect([again.status, again.json]).toEqual([400, { status: 'ALREADY_COMPLETED' }]);
    const other = await submitted(service, { prompt: 'done' });
    clock.advance(3000);
    const late = await call(other.cancel_url, { method: 'PUT', headers: KEY });
    expect([late.status, late.json]).toEqual([400, { status: 'ALREADY_COMPLETED' }]);
    expect(service.log.requests.filter((entry) => entry.route === 'cancel')).toHaveLength(3);
  });

  it('cancels a running request too; a fault on the cancel route answers instead, and cancels nothing', async () => {
    const { service, clock } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const task = await submitted(service, { prompt: 'running along' });
    clock.advance(1500);
    expect((await get(task.status_url)).json).toMatchObject({ status: 'IN_PROGRESS' });
    service.addFault({ route: 'cancel', times: 1, effect: { type: 'status', status: 503 } });
    const faulted = await call(task.cancel_url, { method: 'PUT', headers: KEY });
    expect(faulted.status).toBe(503);
    expect((await get(task.status_url)).json).toMatchObject({ status: 'IN_PROGRESS' });
    const canceled = await call(task.cancel_url, { method: 'PUT', headers: KEY });
    expect([canceled.status, canceled.json]).toEqual([202, { status: 'CANCELLATION_REQUESTED' }]);
    const result = await get(task.response_url);
    expect([result.status, result.json]).toEqual([400, { detail: 'Request was cancelled' }]);
    const cancels = service.log.requests.filter((entry) => entry.route === 'cancel');
    expect(cancels.map((entry) => [entry.status, entry.fault])).toEqual([
      [503, 'status'],
      [202, undefined],
    ]);
  });

  it('stops serving image URLs the image TTL after completion', async () => {
    const { service, clock } = await startDialect({
      dialect: 'fal',
      accounts: ACCOUNTS,
      imageUrlTtlMs: 5000,
    });
    const task = await submitted(service, {
      prompt: 'fleeting',
      image_size: { width: 32, height: 32 },
    });
    clock.advance(3000);
    const url = ((await get(task.response_url)).json as { images: { url: string }[] }).images[0]!
      .url;
    clock.advance(4999);
    await expectPng(url, 32, 32);
    clock.advance(1);
    await expectExpired(url);
  });

  it('sends IN_PROGRESS_V2 for the first status reads when asked, then the documented words', async () => {
    const { service, clock } = await startDialect({
      dialect: 'fal',
      accounts: ACCOUNTS,
      unknownStatusPolls: 2,
    });
    const task = await submitted(service, { prompt: 'odd words' });
    clock.advance(3000);
    const words = [];
    for (let i = 0; i < 3; i += 1) words.push((await get(task.status_url)).json);
    expect(words.map((body) => (body as { status: string }).status)).toEqual([
      'IN_PROGRESS_V2',
      'IN_PROGRESS_V2',
      'COMPLETED',
    ]);
  });

  it('points every request URL to the foreign origin, same paths, when told to', async () => {
    const { service } = await startDialect({
      dialect: 'fal',
      accounts: ACCOUNTS,
      foreignOrigin: FOREIGN,
    });
    const task = await submitted(service, { prompt: 'elsewhere' });
    const path = `/fal-ai/flux/requests/${task.request_id}`;
    expect([task.response_url, task.status_url, task.cancel_url]).toEqual([
      `${FOREIGN}${path}`,
      `${FOREIGN}${path}/status`,
      `${FOREIGN}${path}/cancel`,
    ]);
    expect((await get(`${service.url}${path}/status`)).json).toMatchObject({
      response_url: `${FOREIGN}${path}`,
    });
  });

  it('answers validation errors as FastAPI 422s and other apps as 404', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const missing = await submit(service, { image_size: 'square' });
    expect([missing.status, missing.json]).toEqual([
      422,
      { detail: [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }] },
    ]);
    expect((await submit(service, { prompt: 'p', image_size: 'huge' })).status).toBe(422);
    const task = await submitted(service, { prompt: 'p' });
    expect(
      (await get(`${service.url}/fal-ai/other/requests/${task.request_id}/status`)).status,
    ).toBe(404);
  });
});
