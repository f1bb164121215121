import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { DemoService, DemoTaskSnapshot } from '../../../electron/demo-service/types';
import { TestClock, errorOf, poll, pollJson, startService, submit, submitOk } from './helpers';

function control(
  service: DemoService,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${service.url}/_demo/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function controlJson<T>(
  service: DemoService,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await control(service, method, path, body);
  if (response.status !== 200)
    throw new Error(
      `${method} /_demo/${path} answered ${response.status}: ${await response.text()}`,
    );
  return (await response.json()) as T;
}

const accounts = [
  { account: 'alice', key: 'ka' },
  { account: 'bob', key: 'kb' },
];

describe('demo service: control API', () => {
  it('serves the log and the tasks, and keeps its own requests out of the log', async () => {
    const service = await startService({ control: true, accounts });
    const id = await submitOk(service, { prompt: 'watched' }, 'ka');
    const log = await controlJson<{
      requests: unknown[];
      submits: { account: string }[];
      polls: unknown[];
      downloads: unknown[];
    }>(service, 'GET', 'log');
    expect(log.requests).toHaveLength(1);
    expect(log.submits[0]).toMatchObject({ account: 'alice', status: 200 });
    expect(log.polls).toEqual([]);
    const tasks = await controlJson<DemoTaskSnapshot[]>(service, 'GET', 'tasks');
    expect(tasks).toEqual([
      expect.objectContaining({ id, account: 'alice', prompt: 'watched', status: 'processing' }),
    ]);
    expect(service.log.requests).toHaveLength(1);
  });

  it('adds fault rules (one or several) and clears them', async () => {
    const service = await startService({ control: true });
    expect(
      await controlJson(service, 'POST', 'faults', {
        route: 'submit',
        times: 1,
        effect: { type: 'status', status: 503 },
      }),
    ).toEqual({ added: 1 });
    const rules = [
      { route: 'poll', effect: { type: 'status', status: 502, body: 'html' } },
      { route: 'image', effect: { type: 'reset' } },
    ];
    expect(await controlJson(service, 'POST', 'faults', rules)).toEqual({ added: 2 });
    expect((await submit(service, { prompt: 'p' })).status).toBe(503);
    const id = await submitOk(service, { prompt: 'p' });
    expect((await poll(service, id)).status).toBe(502);
    await controlJson(service, 'DELETE', 'faults');
    expect((await poll(service, id)).status).toBe(200);
  });

  it('refuses an invalid fault rule with 400 and adds none of a batch', async () => {
    const service = await startService({ control: true });
    const bad = await control(service, 'POST', 'faults', [
      { route: 'poll', effect: { type: 'hang' } },
      { route: 'poll', effect: { type: 'explode' } },
    ]);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/fault rule is not valid/);
    const id = await submitOk(service, { prompt: 'p' });
    expect((await poll(service, id)).status).toBe(200);
    expect((await control(service, 'POST', 'faults', 'not json')).status).toBe(400);
  });

  it('creates a task outside the app and completes or fails it', async () => {
    const service = await startService({ control: true, accounts, durationMs: 60_000 });
    const created = await controlJson<DemoTaskSnapshot>(service, 'POST', 'tasks', {
      account: 'bob',
      prompt: 'from elsewhere',
      size: '32x32',
    });
    expect(created).toMatchObject({
      account: 'bob',
      prompt: 'from elsewhere',
      size: '32x32',
      status: 'processing',
      imageUrls: [],
    });
    expect((await poll(service, created.id, 'ka')).status).toBe(404);
    const completed = await controlJson<DemoTaskSnapshot>(
      service,
      'POST',
      `tasks/${created.id}/complete`,
    );
    expect(completed.status).toBe('completed');
    expect(completed.imageUrls).toHaveLength(1);
    expect((await fetch(completed.imageUrls[0]!)).status).toBe(200);
    const other = await controlJson<DemoTaskSnapshot>(service, 'POST', 'tasks', {
      account: 'alice',
      prompt: 'to fail',
    });
    await controlJson(service, 'POST', `tasks/${other.id}/fail`, {
      error: { code: 'content_policy', message: 'Refused.' },
    });
    expect(await pollJson(service, other.id, 'ka')).toMatchObject({
      status: 'failed',
      error: { code: 'content_policy' },
    });
  });

  it('refuses bad task requests: unknown account, invalid fields, unknown or finished task', async () => {
    const service = await startService({ control: true, durationMs: 0 });
    expect(
      (await control(service, 'POST', 'tasks', { account: 'nobody', prompt: 'p' })).status,
    ).toBe(400);
    expect(
      (await control(service, 'POST', 'tasks', { account: 'demo', prompt: 'p', size: '9999x9999' }))
        .status,
    ).toBe(400);
    expect((await control(service, 'POST', 'tasks', { prompt: 'p' })).status).toBe(400);
    expect((await control(service, 'POST', 'tasks/task_nope/complete')).status).toBe(404);
    const id = await submitOk(service, { prompt: 'already done' });
    const again = await control(service, 'POST', `tasks/${id}/fail`);
    expect(again.status).toBe(400);
    expect((await errorOf(again)).message).toMatch(/already completed/);
  });

  it('expires images and sets credits', async () => {
    const service = await startService({ control: true, durationMs: 0 });
    const url = (await pollJson(service, await submitOk(service, { prompt: 'p', size: '16x16' })))
      .output!.data[0]!.url;
    await controlJson(service, 'POST', 'expire-images');
    expect((await fetch(url)).status).toBe(403);
    await controlJson(service, 'POST', 'credits', { account: 'demo', credits: 0 });
    expect((await submit(service, { prompt: 'p' })).status).toBe(402);
    await controlJson(service, 'POST', 'credits', { account: 'demo', credits: null });
    expect((await submit(service, { prompt: 'p' })).status).toBe(200);
    expect(
      (await control(service, 'POST', 'credits', { account: 'nobody', credits: 1 })).status,
    ).toBe(400);
    expect(
      (await control(service, 'POST', 'credits', { account: 'demo', credits: -1 })).status,
    ).toBe(400);
  });

  it('revokes a key: the same key that was accepted is then refused, the account keeps its tasks', async () => {
    const service = await startService({ control: true, accounts, durationMs: 0 });
    const id = await submitOk(service, { prompt: 'before' }, 'kb');
    await controlJson(service, 'POST', 'revoke-key', { key: 'kb' });
    const refused = await submit(service, { prompt: 'after' }, 'kb');
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).code).toBe('invalid_api_key');
    expect((await poll(service, id, 'kb')).status).toBe(401);
    // The other account's key still works, and the revoked account's task is still there.
    expect((await submit(service, { prompt: 'other' }, 'ka')).status).toBe(200);
    expect(service.tasks().map((task) => task.id)).toContain(id);
    expect((await control(service, 'POST', 'revoke-key', { key: 'kb' })).status).toBe(400);
    expect((await control(service, 'POST', 'revoke-key', { key: '' })).status).toBe(400);
    expect((await control(service, 'POST', 'revoke-key')).status).toBe(400);
  });

  it('changes the failure rate and the duration through settings', async () => {
    const clock = new TestClock();
    const service = await startService({ control: true, now: clock.now, durationMs: 10 });
    await controlJson(service, 'POST', 'settings', {
      failureRate: 1,
      durationMs: { min: 500, max: 500 },
    });
    const id = await submitOk(service, { prompt: 'p' });
    clock.advance(499);
    expect((await pollJson(service, id)).status).toBe('processing');
    clock.advance(1);
    expect((await pollJson(service, id)).status).toBe('failed');
    expect((await control(service, 'POST', 'settings', { failureRate: 3 })).status).toBe(400);
  });

  it('answers 404 for an unknown control path and 405 for a wrong method', async () => {
    const service = await startService({ control: true });
    expect((await control(service, 'GET', 'nothing')).status).toBe(404);
    expect((await control(service, 'GET', 'faults')).status).toBe(405);
  });
});

function externalIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
}

describe('demo service: control API from another host', () => {
  const address = externalIPv4();
  it.skipIf(!address)('refuses control requests that do not come from loopback', async () => {
    const service = await startService({ control: true, host: '0.0.0.0' });
    const remote = await fetch(`http://${address}:${service.port}/_demo/log`);
    expect(remote.status).toBe(403);
    const local = await fetch(`http://127.0.0.1:${service.port}/_demo/log`);
    expect(local.status).toBe(200);
  });
});
