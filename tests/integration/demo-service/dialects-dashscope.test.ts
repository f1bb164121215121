import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import type { Answer } from './dialect-helpers';
import {
  call,
  expectExpired,
  expectKeyOnlyIn,
  expectPng,
  send,
  startDialect,
} from './dialect-helpers';

const KEY = { Authorization: 'Bearer sk-dash' };
const ASYNC = { ...KEY, 'X-DashScope-Async': 'enable' };
const ACCOUNTS = [{ account: 'alice', key: 'sk-dash' }];
const SUBMIT = '/api/v1/services/aigc/text2image/image-synthesis';

interface TaskBody {
  request_id: string;
  output: Record<string, unknown> & { task_id: string; task_status: string };
  usage?: { image_count: number };
}

function submit(
  service: DemoService,
  prompt: string,
  parameters: unknown = { size: '512*512', n: 1 },
  headers: Record<string, string> = ASYNC,
): Promise<Answer> {
  return send(
    `${service.url}${SUBMIT}`,
    { model: 'wanx2.1-t2i-turbo', input: { prompt }, parameters },
    headers,
  );
}

async function submitted(
  service: DemoService,
  prompt: string,
  parameters?: unknown,
): Promise<string> {
  const answer = await submit(service, prompt, parameters);
  expect(answer.status).toBe(200);
  return (answer.json as TaskBody).output.task_id;
}

async function query(service: DemoService, id: string): Promise<TaskBody> {
  const answer = await call(`${service.url}/api/v1/tasks/${id}`, { headers: KEY });
  expect(answer.status).toBe(200);
  return answer.json as TaskBody;
}

describe('demo service, dashscope dialect', () => {
  it('takes an async task through PENDING, RUNNING, SUCCEEDED with results and usage', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const answer = await submit(service, 'a red fox', { size: '768*512', n: 2 });
    expect(answer.json).toEqual({
      request_id: expect.any(String),
      output: { task_id: expect.stringMatching(/^[0-9a-f-]{36}$/), task_status: 'PENDING' },
    });
    const id = (answer.json as TaskBody).output.task_id;
    expect((await query(service, id)).output).toEqual({
      task_id: id,
      task_status: 'PENDING',
      submit_time: '2026-01-15 20:00:00.000',
    });
    clock.advance(1000);
    expect((await query(service, id)).output).toMatchObject({ task_status: 'RUNNING' });
    clock.advance(2000);
    const done = await query(service, id);
    expect(done).toEqual({
      request_id: expect.any(String),
      output: {
        task_id: id,
        task_status: 'SUCCEEDED',
        submit_time: '2026-01-15 20:00:00.000',
        scheduled_time: '2026-01-15 20:00:00.000',
        end_time: '2026-01-15 20:00:03.000',
        results: [0, 1].map(() => ({
          orig_prompt: 'a red fox',
          actual_prompt: 'a red fox',
          url: expect.any(String),
        })),
        task_metrics: { TOTAL: 2, SUCCEEDED: 2, FAILED: 0 },
      },
      usage: { image_count: 2 },
    });
    for (const result of done.output.results as { url: string }[])
      await expectPng(result.url, 768, 512);
    expectKeyOnlyIn(service, 'authorization', 'Bearer sk-dash', 'sk-dash');
  });

  it('refuses a submit without X-DashScope-Async: enable with 403 AccessDenied', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const answer = await submit(service, 'sync', undefined, KEY);
    expect([answer.status, answer.json]).toEqual([
      403,
      {
        request_id: expect.any(String),
        code: 'AccessDenied',
        message: 'current user api does not support synchronous calls',
      },
    ]);
  });

  it('ends FAILED with code and message, DataInspectionFailed when moderated', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const failing = await submitted(service, 'fail now');
    const flagged = await submitted(service, 'moderate now');
    clock.advance(3000);
    expect((await query(service, failing)).output).toMatchObject({
      task_status: 'FAILED',
      code: 'InternalError',
      message: expect.any(String),
    });
    expect((await query(service, flagged)).output).toMatchObject({
      task_status: 'FAILED',
      code: 'DataInspectionFailed',
    });
  });

  it('answers UNKNOWN for an id it does not know', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    expect((await query(service, 'no-such-task')).output).toEqual({
      task_id: 'no-such-task',
      task_status: 'UNKNOWN',
    });
  });

  it('refuses a wrong key (401 InvalidApiKey), throttles (429 + Retry-After), and no balance is 400 Arrearage', async () => {
    const { service } = await startDialect({
      dialect: 'dashscope',
      accounts: [{ account: 'alice', key: 'sk-dash', credits: 0 }],
      rateLimit: 1,
    });
    const wrong = await submit(service, 'p', undefined, {
      Authorization: 'Bearer nope',
      'X-DashScope-Async': 'enable',
    });
    expect([wrong.status, wrong.json]).toMatchObject([
      401,
      { code: 'InvalidApiKey', message: 'Invalid API-key provided.' },
    ]);
    const throttled = await submit(service, 'p');
    expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '1']);
    expect(throttled.json).toMatchObject({ code: 'Throttling.RateQuota' });
    const broke = await submit(service, 'p');
    expect([broke.status, broke.json]).toMatchObject([
      400,
      {
        code: 'Arrearage',
        message: 'Access denied, please make sure your account is in good standing.',
      },
    ]);
  });

  it('cancels only a PENDING task', async () => {
    const { service, clock } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const running = await submitted(service, 'go on');
    clock.advance(1000);
    const late = await call(`${service.url}/api/v1/tasks/${running}/cancel`, {
      method: 'POST',
      headers: KEY,
    });
    expect([late.status, late.json]).toMatchObject([400, { code: 'UnsupportedOperation' }]);
    const pending = await submitted(service, 'stop');
    const canceled = await call(`${service.url}/api/v1/tasks/${pending}/cancel`, {
      method: 'POST',
      headers: KEY,
    });
    expect(canceled.status).toBe(200);
    expect((await query(service, pending)).output).toMatchObject({ task_status: 'CANCELED' });
    expect(service.log.requests.filter((entry) => entry.route === 'cancel')).toHaveLength(2);
  });

  it('expires result URLs after the image TTL (the docs say 24 hours)', async () => {
    const { service, clock } = await startDialect({
      dialect: 'dashscope',
      accounts: ACCOUNTS,
      imageUrlTtlMs: 86_400_000,
    });
    const id = await submitted(service, 'a day');
    clock.advance(3000);
    const url = ((await query(service, id)).output.results as { url: string }[])[0]!.url;
    clock.advance(86_399_999);
    await expectPng(url, 512, 512);
    clock.advance(1);
    await expectExpired(url);
  });

  it('sends PREPARING for the first reads when asked', async () => {
    const { service, clock } = await startDialect({
      dialect: 'dashscope',
      accounts: ACCOUNTS,
      unknownStatusPolls: 1,
    });
    const id = await submitted(service, 'odd');
    clock.advance(3000);
    expect((await query(service, id)).output.task_status).toBe('PREPARING');
    expect((await query(service, id)).output.task_status).toBe('SUCCEEDED');
  });

  it('refuses a size written with x or outside 512..1440 as InvalidParameter', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    for (const size of ['1024x1024', '256*256']) {
      const answer = await submit(service, 'p', { size });
      expect([answer.status, answer.json]).toMatchObject([400, { code: 'InvalidParameter' }]);
    }
  });
});
