import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import { PNG_SIGNATURE, TestClock, pollJson, startService, submitOk } from './helpers';

async function imageUrl(service: DemoService, prompt: string, key = 'demo'): Promise<string> {
  const task = await pollJson(
    service,
    await submitOk(service, { prompt, size: '48x48' }, key),
    key,
  );
  expect(task.status).toBe('completed');
  return task.output!.data[0]!.url;
}

async function expectExpired(url: string): Promise<void> {
  const response = await fetch(url);
  expect(response.status).toBe(403);
  expect(response.headers.get('content-type')).toBe('application/xml');
  expect(await response.text()).toContain('<Code>AccessDenied</Code>');
}

describe('demo service: expiring image URLs', () => {
  it('stops serving an image imageUrlTtlMs after the task completed', async () => {
    const clock = new TestClock();
    const service = await startService({ now: clock.now, durationMs: 1000, imageUrlTtlMs: 5000 });
    const id = await submitOk(service, { prompt: 'fleeting', size: '48x48' });
    clock.advance(3000);
    const url = (await pollJson(service, id)).output!.data[0]!.url;
    // The lifetime runs from completion (t=1000), not from the poll (t=3000).
    clock.advance(2999);
    expect((await fetch(url)).status).toBe(200);
    clock.advance(1);
    await expectExpired(url);
  });

  it('expires every URL handed out so far on expireImages, but not later ones', async () => {
    const service = await startService({ durationMs: 0 });
    const before = await imageUrl(service, 'before');
    expect((await fetch(before)).status).toBe(200);
    service.expireImages();
    await expectExpired(before);
    const after = await imageUrl(service, 'after');
    expect((await fetch(after)).status).toBe(200);
  });

  it('answers 404 for an unknown token', async () => {
    const service = await startService();
    const response = await fetch(`${service.url}/files/${'0'.repeat(40)}.png`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('NoSuchKey');
  });
});

describe('demo service: redirected image URLs', () => {
  it('hands out /r/ URLs that 302 to the file on the same server', async () => {
    const service = await startService({ durationMs: 0, redirectImages: true });
    const url = await imageUrl(service, 'redirected');
    expect(url).toMatch(new RegExp(`^${service.url}/r/[0-9a-f]{40}$`));
    const hop = await fetch(url, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    const location = hop.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${service.url}/files/[0-9a-f]{40}\\.png$`));
    const followed = await fetch(url);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(location);
    const bytes = Buffer.from(await followed.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect((await sharp(bytes).metadata()).width).toBe(48);
    expect(service.tasks()[0]!.imageUrls).toEqual([url]);
  });

  it('refuses an expired redirect URL at the first hop', async () => {
    const service = await startService({ durationMs: 0, redirectImages: true });
    const url = await imageUrl(service, 'gone');
    service.expireImages();
    await expectExpired(url);
  });
});

describe('demo service: request log', () => {
  it('logs submits, polls and downloads with their headers; downloads carry no Authorization', async () => {
    const clock = new TestClock();
    const service = await startService({
      now: clock.now,
      durationMs: 0,
      accounts: [{ account: 'alice', key: 'ka' }],
    });
    const url = await imageUrl(service, 'logged', 'ka');
    await fetch(url, { headers: { 'X-Trace': 'abc' } });
    const { requests, submits, polls, downloads } = service.log;
    expect(requests.map((entry) => entry.route)).toEqual(['submit', 'poll', 'image']);
    expect(submits[0]).toMatchObject({
      at: clock.current,
      method: 'POST',
      path: '/v1/images/generations',
      status: 200,
      account: 'alice',
      headers: { authorization: 'Bearer ka', 'content-type': 'application/json' },
    });
    expect(submits[0]!.fault).toBeUndefined();
    expect(polls[0]).toMatchObject({ method: 'GET', route: 'poll', status: 200, account: 'alice' });
    expect(polls[0]!.path).toMatch(/^\/v1\/tasks\/task_/);
    expect(downloads[0]).toMatchObject({
      method: 'GET',
      status: 200,
      account: null,
      headers: { 'x-trace': 'abc' },
    });
    expect(downloads[0]!.headers.authorization).toBeUndefined();
    expect(requests[2]).toBe(downloads[0]);
  });

  it('logs refused and unknown requests too, with the account matched (or null)', async () => {
    const service = await startService();
    await fetch(`${service.url}/nowhere?x=1`);
    await fetch(`${service.url}/v1/tasks/task_x`, { headers: { Authorization: 'Bearer wrong' } });
    expect(service.log.requests).toEqual([
      expect.objectContaining({ route: 'other', path: '/nowhere?x=1', status: 404, account: null }),
      expect.objectContaining({ route: 'poll', status: 401, account: null }),
    ]);
  });

  it('records that a download carried an Authorization header when a client sends one', async () => {
    const service = await startService({ durationMs: 0 });
    const url = await imageUrl(service, 'leaky');
    await fetch(url, { headers: { Authorization: 'Bearer demo' } });
    expect(service.log.downloads[0]!.headers.authorization).toBe('Bearer demo');
  });
});
