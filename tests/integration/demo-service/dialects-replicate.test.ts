import { describe, expect, it, vi } from 'vitest';
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
import { UNTIL } from '../../support/waits';

const KEY = { Authorization: 'Bearer r8-secret' };
const ACCOUNTS = [{ account: 'alice', key: 'r8-secret' }];

interface Prediction {
  id: string;
  status: string;
  output: unknown;
  error: unknown;
  urls: { get: string; cancel: string; stream: string };
}

function create(
  service: DemoService,
  input: unknown,
  model = 'black-forest-labs/flux-schnell',
): Promise<Answer> {
  return send(`${service.url}/v1/models/${model}/predictions`, { input }, KEY);
}

async function created(service: DemoService, input: unknown, model?: string): Promise<Prediction> {
  const answer = await create(service, input, model);
  expect(answer.status).toBe(201);
  return answer.json as Prediction;
}

async function read(url: string): Promise<Prediction> {
  const answer = await call(url, { headers: KEY });
  expect(answer.status).toBe(200);
  return answer.json as Prediction;
}

describe('demo service, replicate dialect', () => {
  it('creates a prediction that goes starting, processing, succeeded with an array of image URLs', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const start = clock.current;
    const prediction = await created(service, {
      prompt: 'a red fox',
      aspect_ratio: '16:9',
      num_outputs: 2,
    });
    const get = `${service.url}/v1/predictions/${prediction.id}`;
    expect(prediction).toEqual({
      id: expect.stringMatching(/^[a-z2-7]{26}$/),
      model: 'black-forest-labs/flux-schnell',
      version: expect.stringMatching(/^[0-9a-f]{64}$/),
      input: { prompt: 'a red fox', aspect_ratio: '16:9', num_outputs: 2 },
      logs: '',
      output: null,
      data_removed: false,
      error: null,
      status: 'starting',
      created_at: new Date(start).toISOString(),
      urls: { get, cancel: `${get}/cancel`, stream: expect.any(String) },
    });
    clock.advance(1000);
    expect(await read(get)).toMatchObject({ status: 'processing', output: null });
    clock.advance(2000);
    const done = await read(get);
    expect(done).toMatchObject({
      status: 'succeeded',
      error: null,
      completed_at: new Date(start + 3000).toISOString(),
      metrics: { predict_time: 3 },
    });
    const output = done.output as string[];
    expect(output).toHaveLength(2);
    for (const url of output) await expectPng(url, 1344, 768);
    expectKeyOnlyIn(service, 'authorization', 'Bearer r8-secret', 'r8-secret');
  });

  it('gives models named *-single a single URL string as output', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const prediction = await created(service, { prompt: 'one' }, 'acme/sketch-single');
    clock.advance(3000);
    const done = await read(prediction.urls.get);
    expect(done.output).toEqual(expect.stringMatching(new RegExp(`^${service.url}/files/`)));
  });

  it('fails with an error string, and moderates with E005', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const failing = await created(service, { prompt: 'fail please' });
    const flagged = await created(service, { prompt: 'moderate me' });
    clock.advance(3000);
    expect(await read(failing.urls.get)).toMatchObject({
      status: 'failed',
      output: null,
      error: expect.any(String),
    });
    expect(await read(flagged.urls.get)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('(E005)'),
    });
  });

  it('cancels a starting or processing prediction; a succeeded one is answered unchanged', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const starting = await created(service, { prompt: 'not yet started' });
    const processing = await created(service, { prompt: 'already running' });
    const done = await created(service, { prompt: 'done already' });
    service.completeTask(done.id);
    clock.advance(1000);
    const cancel = (prediction: Prediction) =>
      call(prediction.urls.cancel, { method: 'POST', headers: KEY });
    expect((await read(processing.urls.get)).status).toBe('processing');
    for (const prediction of [starting, processing]) {
      const answer = await cancel(prediction);
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: prediction.id, status: 'canceled', output: null });
    }
    const late = await cancel(done);
    expect(late.status).toBe(200);
    expect(late.json).toMatchObject({ id: done.id, status: 'succeeded' });
    expect((await read(done.urls.get)).output).toHaveLength(1);
    // A GET is not a cancel; another account's prediction is not found.
    expect((await call(done.urls.cancel, { headers: KEY })).status).toBe(405);
    const stranger = await call(starting.urls.cancel, {
      method: 'POST',
      headers: { Authorization: 'Bearer nobody' },
    });
    expect(stranger.status).toBe(401);
    expect(service.log.requests.filter((entry) => entry.route === 'cancel')).toHaveLength(5);
  });

  it('refuses a wrong key with the 401 problem body', async () => {
    const { service } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const answer = await send(
      `${service.url}/v1/models/a/b/predictions`,
      { input: { prompt: 'p' } },
      { Authorization: 'Token r8-secret' },
    );
    expect([answer.status, answer.json]).toEqual([
      401,
      {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      },
    ]);
    expect(service.log.requests[0]!.auth).toEqual({
      header: 'authorization',
      value: 'Token r8-secret',
    });
  });

  it('throttles with 429 and Retry-After, and refuses without credit with 402', async () => {
    const { service } = await startDialect({
      dialect: 'replicate',
      accounts: [{ account: 'alice', key: 'r8-secret', credits: 0 }],
      rateLimit: 1,
    });
    const throttled = await create(service, { prompt: 'p' });
    expect([throttled.status, throttled.headers.get('retry-after'), throttled.json]).toEqual([
      429,
      '1',
      { detail: 'Request was throttled. Expected available in 1 second.', status: 429 },
    ]);
    const broke = await create(service, { prompt: 'p' });
    expect([broke.status, broke.json]).toEqual([
      402,
      { title: 'Insufficient credit', detail: expect.any(String), status: 402 },
    ]);
  });

  it('answers invalid input with 422 and invalid_fields', async () => {
    const { service } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const answer = await create(service, { aspect_ratio: '1:1' });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({
      title: 'Input validation failed',
      status: 422,
      invalid_fields: [{ field: 'input.prompt' }],
    });
  });

  it('cancels a prediction: 200 with status canceled', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const prediction = await created(service, { prompt: 'stop' });
    clock.advance(1500);
    const answer = await call(prediction.urls.cancel, { method: 'POST', headers: KEY });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: prediction.id, status: 'canceled', output: null });
    clock.advance(3000);
    expect(await read(prediction.urls.get)).toMatchObject({ status: 'canceled' });
  });

  it('expires output files after the image TTL (the docs say an hour)', async () => {
    const { service, clock } = await startDialect({
      dialect: 'replicate',
      accounts: ACCOUNTS,
      imageUrlTtlMs: 3_600_000,
    });
    const prediction = await created(service, { prompt: 'an hour', aspect_ratio: '1:1' });
    clock.advance(3000);
    const url = ((await read(prediction.urls.get)).output as string[])[0]!;
    clock.advance(3_599_999);
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
    clock.advance(1);
    await expectExpired(url);
  });

  it('sends booting for the first reads when asked, then the documented statuses', async () => {
    const { service, clock } = await startDialect({
      dialect: 'replicate',
      accounts: ACCOUNTS,
      unknownStatusPolls: 2,
    });
    const prediction = await created(service, { prompt: 'odd' });
    clock.advance(3000);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await read(prediction.urls.get)).status);
    expect(statuses).toEqual(['booting', 'booting', 'succeeded']);
  });

  it('points get, cancel and stream URLs to the foreign origin when told to', async () => {
    const { service } = await startDialect({
      dialect: 'replicate',
      accounts: ACCOUNTS,
      foreignOrigin: FOREIGN,
    });
    const prediction = await created(service, { prompt: 'elsewhere' });
    expect(prediction.urls).toEqual({
      get: `${FOREIGN}/v1/predictions/${prediction.id}`,
      cancel: `${FOREIGN}/v1/predictions/${prediction.id}/cancel`,
      stream: expect.stringMatching(new RegExp(`^${FOREIGN}/`)),
    });
    expect((await read(`${service.url}/v1/predictions/${prediction.id}`)).id).toBe(prediction.id);
  });

  it("holds a `Prefer: wait` read to its seconds on the service's clock, the prediction still running", async () => {
    // Durations of a minute: nothing ends while the read is held; only the clock ends the hold.
    const { service, clock } = await startDialect({
      dialect: 'replicate',
      accounts: ACCOUNTS,
      durationMs: 60_000,
    });
    const prediction = await created(service, { prompt: 'a held read' });
    const url = `${service.url}/v1/predictions/${prediction.id}`;
    let answered: Prediction | undefined;
    const held = call(url, { headers: { ...KEY, Prefer: 'wait=30' } }).then((answer) => {
      answered = answer.json as Prediction;
    });
    await vi.waitFor(() => expect(service.log.requests).toHaveLength(2), UNTIL);
    expect(answered).toBeUndefined();
    clock.advance(30_000);
    // Its 30 s have passed on the service's clock: answered, not after 30 s of real time.
    await vi.waitFor(() => expect(answered?.status).toBe('processing'), {
      timeout: 10_000,
      interval: 5,
    });
    await held;
  });
});
