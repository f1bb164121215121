/**
 * The service client's held wait (ServiceClient.waitForEnd, held-answer.ts) against hostile
 * node:http servers on 127.0.0.1: fal's status stream read strictly (events split anywhere, CRLF,
 * keep-alive comments; garbage, unknown fields, bytes that are not UTF-8, an oversized event or
 * stream, a cut inside an event, a stall) and Replicate's held read (`Prefer: wait=<n>` sent, its
 * answer read as a poll's); the wait goes only to the key's own origin, and a caller's abort ends
 * it at once.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import type { ProviderId } from '../../../../shared/domain/providers';
import { closeServers, sendJson, serve } from '../../../support/http-servers';
import { ManualClock } from '../../../fakes/manual-clock';
import { UNTIL } from '../../../support/waits';

/** held-answer.ts's bounds: an event's characters, a stream's bytes. */
const MAX_EVENT_CHARS = 64 * 1024;
const MAX_STREAM_BYTES = 1024 * 1024;
const KEY = 'sk-held-WAIT-6606';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const FAL_MODEL = 'fal-ai/flux/dev';
afterEach(closeServers);

const client = () =>
  new ServiceClient({ fetch: (url, init) => fetch(url, init), requestTimeoutMs: 10_000 });

function creds(baseUrl: string, provider: ProviderId) {
  return { baseUrl, key: KEY, keyFingerprint: 'acct', provider };
}

/** Starts an event stream and writes `chunks` in turn; `end` closes it after them. */
function stream(res: ServerResponse, chunks: readonly (string | Buffer)[], end = true): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  for (const chunk of chunks) res.write(chunk);
  if (end) res.end();
}

const event = (status: string) => `data: ${JSON.stringify({ status, response_url: 'x' })}\n\n`;

/** fal's wait on a server answering its stream with `answer`. */
async function falWait(
  answer: (res: ServerResponse) => void,
  holdMs = 5_000,
  signal?: AbortSignal,
) {
  const server = await serve((_req, res) => answer(res));
  const outcome = await client().waitForEnd(
    creds(server.origin, 'fal'),
    { taskId: ID, request: { prompt: 'p', model: FAL_MODEL } },
    holdMs,
    signal,
  );
  return { outcome, server };
}

describe("fal's status stream", () => {
  it('ends at the COMPLETED event, read across chunks, CRLF lines and keep-alive comments', async () => {
    const done = event('COMPLETED');
    const { outcome, server } = await falWait((res) =>
      stream(res, [
        ': keep-alive\r\n\r\n',
        event('IN_QUEUE').replace(/\n/g, '\r\n'),
        'event: status\nid: 1\nretry: 1000\n',
        event('IN_PROGRESS'),
        done.slice(0, 9),
        done.slice(9),
      ]),
    );
    expect(outcome).toBe('ended');
    const [request] = server.requests;
    expect(request!.url).toBe(`/fal-ai/flux/requests/${ID}/status/stream`);
    expect(request!.headers.accept).toBe('text/event-stream');
    expect(request!.headers.authorization).toBe(`Key ${KEY}`);
  });

  it('a stream closed cleanly before the end leaves the task waiting', async () => {
    const { outcome } = await falWait((res) => stream(res, [event('IN_PROGRESS')]));
    expect(outcome).toBe('waiting');
  });

  it('a stream open to the hold with nothing said leaves the task waiting, in bounded time', async () => {
    const { outcome } = await falWait((res) => stream(res, [': hi\n\n'], false), 300);
    expect(outcome).toBe('waiting');
  });

  it("a stream open to the hold ends when the client's clock reaches it, not real time", async () => {
    const clock = new ManualClock();
    const server = await serve((_req, res) => stream(res, [': hi\n\n'], false));
    const onClock = new ServiceClient({
      fetch: (url, init) => fetch(url, init),
      requestTimeoutMs: 120_000,
      clock,
    });
    let outcome: string | undefined;
    const wait = onClock
      .waitForEnd(
        creds(server.origin, 'fal'),
        { taskId: ID, request: { prompt: 'p', model: FAL_MODEL } },
        60_000,
      )
      .then((said) => (outcome = said));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), UNTIL);
    await clock.advance(59_999);
    expect(outcome).toBeUndefined();
    await clock.advance(1);
    // A minute of the clock, not of real time: the wait is over well within the test's bound.
    await vi.waitFor(() => expect(outcome).toBe('waiting'), { timeout: 10_000, interval: 5 });
    await wait;
  });

  it.each([
    ['data that is not JSON', ['data: {"status": COMPLETED\n\n']],
    ['data with no status', ['data: {"detail": "hello"}\n\n']],
    ['a field events do not have', ['status: COMPLETED\n\n']],
    ['bytes that are not UTF-8', [Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a])]],
    ['an event beyond the bound', [`data: "${'x'.repeat(MAX_EVENT_CHARS)}"\n`]],
    ['a line beyond the bound', [`: ${'x'.repeat(MAX_EVENT_CHARS + 10)}`]],
    ['a stream beyond the bound', [`: ${'x'.repeat(1000)}\n`.repeat(MAX_STREAM_BYTES / 1000 + 2)]],
    ['a stream cut inside an event', [event('IN_PROGRESS'), 'data: {"status": "COMPL']],
  ])('%s breaks the wait (the poll carries on)', async (_name, chunks) => {
    const { outcome } = await falWait((res) => stream(res, chunks));
    expect(outcome).toBe('broken');
  });

  it.each([
    [
      'JSON instead of events',
      (res: ServerResponse) => sendJson(res, 200, { status: 'COMPLETED' }),
    ],
    ['an error status', (res: ServerResponse) => sendJson(res, 500, { detail: 'no' })],
    ['a connection dropped', (res: ServerResponse) => res.socket?.destroy()],
  ])('%s breaks the wait', async (_name, answer) => {
    const { outcome } = await falWait(answer);
    expect(outcome).toBe('broken');
  });

  it('sends the key only to its own origin: a status address elsewhere breaks the wait, unasked', async () => {
    const elsewhere = await serve((_req, res) => stream(res, [event('COMPLETED')]));
    const own = await serve((_req, res) => stream(res, [event('COMPLETED')]));
    const outcome = await client().waitForEnd(
      creds(own.origin, 'fal'),
      {
        taskId: ID,
        handles: { poll: `${elsewhere.origin}/fal-ai/flux/requests/${ID}/status` },
        request: { prompt: 'p', model: FAL_MODEL },
      },
      5_000,
    );
    expect(outcome).toBe('broken');
    expect(elsewhere.requests).toEqual([]);
    expect(own.requests).toEqual([]);
  });

  it("a caller's abort ends an open stream at once with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error('canceled by the user');
    const pending = falWait(
      (res) => {
        stream(res, [': open\n\n'], false);
        controller.abort(reason);
      },
      60_000,
      controller.signal,
    );
    await expect(pending).rejects.toBe(reason);
  });
});

describe("Replicate's held read", () => {
  async function replicateWait(answer: (res: ServerResponse) => void, holdMs = 7_000) {
    const server = await serve((_req, res) => answer(res));
    const outcome = await client().waitForEnd(
      creds(server.origin, 'replicate'),
      { taskId: 'p7xq2', handles: { poll: `${server.origin}/v1/predictions/p7xq2` } },
      holdMs,
    );
    return { outcome, server };
  }

  it('asks `Prefer: wait=<seconds>` on the read and ends with an ended prediction', async () => {
    const { outcome, server } = await replicateWait((res) =>
      sendJson(res, 200, { id: 'p7xq2', status: 'succeeded', output: ['https://x/1.png'] }),
    );
    expect(outcome).toBe('ended');
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', url: '/v1/predictions/p7xq2' });
    expect(request!.headers.prefer).toBe('wait=7');
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ['processing', 'waiting'],
    ['starting', 'waiting'],
    ['failed', 'ended'],
    ['canceled', 'ended'],
  ])('a prediction %s: %s', async (status, expected) => {
    const { outcome } = await replicateWait((res) => sendJson(res, 200, { id: 'p7xq2', status }));
    expect(outcome).toBe(expected);
  });

  it.each([
    ['garbage', (res: ServerResponse) => res.end('{"id": [')],
    ['no status', (res: ServerResponse) => sendJson(res, 200, { id: 'p7xq2' })],
    ['a refusal', (res: ServerResponse) => sendJson(res, 401, { detail: 'no' })],
    ['a connection dropped', (res: ServerResponse) => res.socket?.destroy()],
  ])('%s breaks the wait', async (_name, answer) => {
    const { outcome } = await replicateWait(answer);
    expect(outcome).toBe('broken');
  });
});

describe('a service without a held wait', () => {
  it("today's contract: broken, nothing sent", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { status: 'completed' }));
    const outcome = await client().waitForEnd(
      creds(server.origin, 'pictor'),
      { taskId: 'task_1' },
      5_000,
    );
    expect(outcome).toBe('broken');
    expect(server.requests).toEqual([]);
  });
});
