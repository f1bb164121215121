import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../fakes/manual-clock';
import { UNTIL } from '../../support/waits';
import { errorOf, poll, pollJson, startService, submit, submitOk } from './helpers';

/** Raw HTTP, to see exactly what arrives before the socket drops. */
function rawGet(
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; received: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, received }));
      res.on('error', (error) =>
        resolve({ status: res.statusCode!, headers: res.headers, received, error: error.message }),
      );
      res.on('aborted', () =>
        resolve({ status: res.statusCode!, headers: res.headers, received, error: 'aborted' }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('demo service: status faults', () => {
  it('answers a JSON 503 with Retry-After in seconds, and does not create the task', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', effect: { type: 'status', status: 503, retryAfter: 7 } });
    const response = await submit(service, { prompt: 'p' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    expect((await errorOf(response)).code).toBe('service_unavailable');
    expect(service.tasks()).toHaveLength(0);
    expect(service.log.submits[0]).toMatchObject({ status: 503, fault: 'status' });
  });

  it('sends Retry-After as an HTTP-date about 2 s ahead', async () => {
    const service = await startService();
    service.addFault({
      route: 'poll',
      effect: { type: 'status', status: 429, retryAfter: 'http-date' },
    });
    const before = Date.now();
    const response = await poll(service, 'task_any');
    const after = Date.now();
    expect(response.status).toBe(429);
    const header = response.headers.get('retry-after')!;
    expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    // The service's clock + 2 s, rounded up to a whole second: bracketed by the request's start
    // and end, so no delay on a loaded machine can put it outside.
    const retryAt = Date.parse(header);
    expect(retryAt).toBeGreaterThanOrEqual(before + 2_000);
    expect(retryAt).toBeLessThan(after + 3_000);
  });

  it('sends a proxy-style HTML 502 page', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', effect: { type: 'status', status: 502, body: 'html' } });
    const response = await submit(service, { prompt: 'p' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toMatch(/^<!DOCTYPE html>/);
    expect(page).toContain('<title>502 Bad Gateway</title>');
  });

  it('sends an empty or a plain-text body when asked', async () => {
    const service = await startService();
    service.addFault({
      route: 'poll',
      times: 1,
      effect: { type: 'status', status: 500, body: 'empty' },
    });
    service.addFault({
      route: 'poll',
      times: 1,
      effect: { type: 'status', status: 504, body: 'text' },
    });
    const empty = await poll(service, 'task_x');
    expect([empty.status, empty.headers.get('content-length'), await empty.text()]).toEqual([
      500,
      '0',
      '',
    ]);
    const text = await poll(service, 'task_x');
    expect(text.status).toBe(504);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await text.text()).toBe('Gateway Timeout\n');
  });
});

describe('demo service: connection faults', () => {
  it('resets the connection without answering', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', times: 1, effect: { type: 'reset' } });
    await expect(submit(service, { prompt: 'p' })).rejects.toThrow();
    expect(service.tasks()).toHaveLength(0);
    expect(service.log.submits).toHaveLength(1);
    expect(service.log.submits[0]).toMatchObject({ status: null, fault: 'reset' });
    expect((await submit(service, { prompt: 'p' })).status).toBe(200);
  });

  it('resets a poll without a retry behind the client’s back', async () => {
    const service = await startService();
    const id = await submitOk(service, { prompt: 'p' });
    service.addFault({ route: 'poll', times: 1, effect: { type: 'reset' } });
    await expect(poll(service, id)).rejects.toThrow();
    expect(service.log.polls).toHaveLength(1);
    expect((await poll(service, id)).status).toBe(200);
  });

  it('creates the task, then resets, on reset-after-accepting', async () => {
    const service = await startService({ durationMs: 60_000 });
    service.addFault({ route: 'submit', times: 1, effect: { type: 'reset-after-accepting' } });
    await expect(submit(service, { prompt: 'outcome unknown' })).rejects.toThrow();
    const tasks = service.tasks();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      prompt: 'outcome unknown',
      status: 'processing',
      account: 'demo',
    });
    expect((await pollJson(service, tasks[0]!.id)).status).toBe('processing');
    expect(service.log.submits[0]).toMatchObject({ status: null, fault: 'reset-after-accepting' });
  });

  it('truncates: full Content-Length, half the body, then the socket drops', async () => {
    const service = await startService({ durationMs: 0 });
    const id = await submitOk(service, { prompt: 'cut short', size: '128x128' });
    const url = (await pollJson(service, id)).output!.data[0]!.url;
    const full = Buffer.from(await (await fetch(url)).arrayBuffer()).length;
    service.addFault({ route: 'image', times: 1, effect: { type: 'truncate' } });
    const raw = await rawGet(url);
    expect(raw.status).toBe(200);
    expect(Number(raw.headers['content-length'])).toBe(full);
    expect(raw.error).toBeDefined();
    expect(raw.received).toBeLessThan(full);
    expect(raw.received).toBeGreaterThan(0);
  });

  it('makes a fetch of a truncated JSON body fail', async () => {
    const service = await startService();
    const id = await submitOk(service, { prompt: 'p' });
    service.addFault({ route: 'poll', effect: { type: 'truncate' } });
    const response = await poll(service, id);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('delays the answer by the given time on its timers (a manual clock here)', async () => {
    const clock = new ManualClock();
    const service = await startService({ now: () => clock.now(), timers: clock });
    service.addFault({ route: 'submit', effect: { type: 'delay', ms: 30_000 } });
    const answered = submit(service, { prompt: 'p' });
    // Held, however long the real wait, until its clock has moved the whole delay.
    await expect.poll(() => clock.pending, UNTIL).toBe(1);
    await clock.advance(29_999);
    expect(service.log.submits[0]).toMatchObject({ status: null, fault: 'delay' });
    await clock.advance(1);
    const response = await answered;
    expect(response.status).toBe(200);
    expect(service.log.submits[0]).toMatchObject({ status: 200, fault: 'delay' });
  });

  it('dates Retry-After from its own clock', async () => {
    const clock = new ManualClock(Date.UTC(2030, 5, 1, 8, 0, 0, 250));
    const service = await startService({ now: () => clock.now(), timers: clock });
    service.addFault({
      route: 'poll',
      effect: { type: 'status', status: 429, retryAfter: 'http-date' },
    });
    const response = await poll(service, 'task_any');
    expect(response.headers.get('retry-after')).toBe('Sat, 01 Jun 2030 08:00:03 GMT');
  });

  it('hangs until the service closes, then the socket is destroyed', async () => {
    const service = await startService();
    service.addFault({ route: 'poll', effect: { type: 'hang' } });
    const pending = poll(service, 'task_x');
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    );
    // Once the service has the request, it holds it: logged with no status, still unanswered.
    await expect.poll(() => service.log.polls.length, UNTIL).toBe(1);
    expect(service.log.polls[0]).toMatchObject({ status: null, fault: 'hang' });
    expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending');
    await service.close();
    expect(await outcome).toBe('failed');
  });

  it('closes promptly while a delayed answer is still waiting', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', effect: { type: 'delay', ms: 60_000 } });
    const outcome = submit(service, { prompt: 'p' }).then(
      () => 'answered',
      () => 'failed',
    );
    // Closed once the service holds the request (logged on arrival, with no status yet).
    await expect.poll(() => service.log.submits.length, UNTIL).toBe(1);
    expect(service.log.submits[0]).toMatchObject({ status: null, fault: 'delay' });
    await service.close();
    expect(await outcome).toBe('failed');
    expect(service.tasks()).toHaveLength(0);
  });
});

describe('demo service: body faults and rule matching', () => {
  it('answers exactly the scripted body and content type', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', times: 1, effect: { type: 'body', body: '{"id": ' } });
    service.addFault({
      route: 'submit',
      times: 1,
      effect: { type: 'body', body: '{"status":"processing"}' },
    });
    service.addFault({
      route: 'image',
      effect: { type: 'body', contentType: 'image/png', body: '<html>login</html>' },
    });
    const malformed = await submit(service, { prompt: 'p' });
    expect([
      malformed.status,
      malformed.headers.get('content-type'),
      await malformed.text(),
    ]).toEqual([200, 'application/json', '{"id": ']);
    expect(await (await submit(service, { prompt: 'p' })).json()).toEqual({ status: 'processing' });
    const image = await fetch(`${service.url}/files/whatever.png`);
    expect([image.status, image.headers.get('content-type'), await image.text()]).toEqual([
      200,
      'image/png',
      '<html>login</html>',
    ]);
    expect(service.tasks()).toHaveLength(0);
  });

  it('counts times down and then answers normally', async () => {
    const service = await startService();
    service.addFault({ route: 'submit', times: 2, effect: { type: 'status', status: 500 } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await submit(service, { prompt: 'p' })).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('uses the first matching rule, and a taskId rule only for that task', async () => {
    const service = await startService();
    const first = await submitOk(service, { prompt: 'one' });
    const second = await submitOk(service, { prompt: 'two' });
    service.addFault({ route: 'poll', taskId: second, effect: { type: 'status', status: 503 } });
    service.addFault({ route: 'poll', taskId: second, effect: { type: 'status', status: 500 } });
    expect((await poll(service, first)).status).toBe(200);
    expect((await poll(service, second)).status).toBe(503);
    service.clearFaults();
    expect((await poll(service, second)).status).toBe(200);
  });

  it('applies a rule with probability 0 never and 0.5 to some but not all requests', async () => {
    const service = await startService({ seed: 42 });
    service.addFault({ route: 'poll', probability: 0, effect: { type: 'status', status: 500 } });
    service.addFault({ route: 'poll', probability: 0.5, effect: { type: 'status', status: 503 } });
    const id = await submitOk(service, { prompt: 'p' });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i += 1) statuses.add((await poll(service, id)).status);
    expect([...statuses].sort()).toEqual([200, 503]);
  });

  it('refuses an invalid rule with a clear message', async () => {
    const service = await startService();
    expect(() =>
      service.addFault({ route: 'submit', effect: { type: 'status', status: 42 } }),
    ).toThrow(/status/);
    expect(() =>
      service.addFault({ route: 'nowhere', effect: { type: 'reset' } } as never),
    ).toThrow(/route/);
  });
});
