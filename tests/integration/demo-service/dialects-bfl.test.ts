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

const KEY = { 'x-key': 'bfl-secret' };
const ACCOUNTS = [{ account: 'alice', key: 'bfl-secret' }];

interface Result {
  id: string;
  status: string;
  result: null | {
    sample: string;
    prompt: string;
    seed: number;
    start_time: number;
    end_time: number;
    duration: number;
  };
  progress: number | null;
  details: unknown;
}

function submit(
  service: DemoService,
  body: unknown,
  model = 'flux-pro-1.1',
  headers: Record<string, string> = KEY,
): Promise<Answer> {
  return send(`${service.url}/v1/${model}`, body, headers);
}

async function submitted(
  service: DemoService,
  body: unknown,
): Promise<{ id: string; polling_url: string }> {
  const answer = await submit(service, body);
  expect(answer.status).toBe(200);
  return answer.json as { id: string; polling_url: string };
}

async function result(url: string): Promise<Result> {
  const answer = await call(url, { headers: KEY });
  expect(answer.status).toBe(200);
  return answer.json as Result;
}

describe('demo service, bfl dialect', () => {
  it('answers an id and polling URL; Pending with progress, then Ready with a sample', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const start = clock.current;
    const task = await submitted(service, { prompt: 'a red fox', width: 512, height: 256 });
    expect(task).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      polling_url: `${service.url}/v1/get_result?id=${task.id}`,
    });
    clock.advance(1500);
    expect(await result(task.polling_url)).toEqual({
      id: task.id,
      status: 'Pending',
      result: null,
      progress: 0.5,
      details: null,
      preview: null,
    });
    clock.advance(1500);
    const ready = await result(task.polling_url);
    expect(ready).toMatchObject({
      status: 'Ready',
      progress: null,
      result: {
        sample: expect.any(String),
        prompt: 'a red fox',
        seed: expect.any(Number),
        start_time: start / 1000,
        end_time: start / 1000 + 3,
        duration: 3,
      },
    });
    await expectPng(ready.result!.sample, 512, 256);
    expectKeyOnlyIn(service, 'x-key', 'bfl-secret', 'bfl-secret');
  });

  it('ends Error for a failure and Content Moderated for a moderated prompt', async () => {
    const { service, clock } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const failing = await submitted(service, { prompt: 'fail' });
    const flagged = await submitted(service, { prompt: 'moderate' });
    clock.advance(3000);
    expect(await result(failing.polling_url)).toMatchObject({
      status: 'Error',
      result: null,
      details: { error: expect.any(String) },
    });
    expect(await result(flagged.polling_url)).toMatchObject({
      status: 'Content Moderated',
      result: null,
    });
  });

  it('answers Task not found for an unknown id', async () => {
    const { service } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    expect(await result(`${service.url}/v1/get_result?id=nope`)).toMatchObject({
      id: 'nope',
      status: 'Task not found',
      result: null,
    });
  });

  it('refuses a wrong key with 403, a key in Authorization too', async () => {
    const { service } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const wrong = await submit(service, { prompt: 'p' }, 'flux-dev', { 'x-key': 'nope' });
    const bearer = await submit(service, { prompt: 'p' }, 'flux-dev', {
      Authorization: 'Bearer bfl-secret',
    });
    for (const answer of [wrong, bearer]) {
      expect([answer.status, answer.json]).toEqual([
        403,
        { detail: 'Not authenticated - Invalid Authentication' },
      ]);
    }
    expect(service.log.requests.map((entry) => entry.auth)).toEqual([
      { header: 'x-key', value: 'nope' },
      null,
    ]);
  });

  it('answers 429 with Retry-After past the active task limit or while rate limited', async () => {
    const { service, clock } = await startDialect({
      dialect: 'bfl',
      accounts: ACCOUNTS,
      maxActiveTasks: 2,
      rateLimit: 1,
    });
    const limited = await submit(service, { prompt: 'p' });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    await submitted(service, { prompt: 'one' });
    await submitted(service, { prompt: 'two' });
    const full = await submit(service, { prompt: 'three' });
    expect([full.status, full.headers.get('retry-after')]).toEqual([429, '1']);
    expect(full.json).toEqual({ detail: expect.stringContaining('active tasks') });
    clock.advance(3000);
    expect((await submit(service, { prompt: 'three' })).status).toBe(200);
  });

  it('refuses with 402 when out of credits and with a FastAPI 422 for a bad size', async () => {
    const { service } = await startDialect({
      dialect: 'bfl',
      accounts: [{ account: 'alice', key: 'bfl-secret', credits: 0 }],
    });
    const odd = await submit(service, { prompt: 'p', width: 1000 });
    expect(odd.status).toBe(422);
    expect(odd.json).toMatchObject({ detail: [{ loc: ['body', 'width'], type: 'multiple_of' }] });
    const broke = await submit(service, { prompt: 'p' });
    expect([broke.status, broke.json]).toEqual([
      402,
      { detail: expect.stringContaining('Insufficient credits') },
    ]);
  });

  it('has no cancel endpoint', async () => {
    const { service } = await startDialect({ dialect: 'bfl', accounts: ACCOUNTS });
    const task = await submitted(service, { prompt: 'p' });
    const answer = await call(`${service.url}/v1/get_result/cancel?id=${task.id}`, {
      method: 'POST',
      headers: KEY,
    });
    expect(answer.status).toBe(404);
  });

  it('expires the signed sample after the image TTL (the docs say 10 minutes)', async () => {
    const { service, clock } = await startDialect({
      dialect: 'bfl',
      accounts: ACCOUNTS,
      imageUrlTtlMs: 600_000,
    });
    const task = await submitted(service, { prompt: 'short lived', width: 256, height: 256 });
    clock.advance(3000);
    const sample = (await result(task.polling_url)).result!.sample;
    clock.advance(599_999);
    await expectPng(sample, 256, 256);
    clock.advance(1);
    await expectExpired(sample);
  });

  it('sends Queued for the first reads when asked, and a foreign polling URL when told to', async () => {
    const { service, clock } = await startDialect({
      dialect: 'bfl',
      accounts: ACCOUNTS,
      unknownStatusPolls: 1,
      foreignOrigin: FOREIGN,
    });
    const task = await submitted(service, { prompt: 'odd' });
    expect(task.polling_url).toBe(`${FOREIGN}/v1/get_result?id=${task.id}`);
    const own = `${service.url}/v1/get_result?id=${task.id}`;
    clock.advance(3000);
    expect((await result(own)).status).toBe('Queued');
    expect((await result(own)).status).toBe('Ready');
  });
});
