/**
 * A hostile service's answers compressed to grow past every bound once decoded, through the real
 * service client, its answer worker and the CLI's transport (node-fetch.ts, undici) over loopback
 * HTTP: a poll's answer, a Replicate held read and a fal status stream, each a gzip, deflate or
 * brotli "bomb" of 64 MB of spaces in tens of kilobytes on the wire; and a poll's answer whose
 * encodings are stacked past what the transport decodes. Each limit counts the bytes decoded, so
 * each ends within it: a poll with the sentence of an unreadable answer, too large (the task
 * kept), a held wait `broken` (the poll carries on). (No defect was found here; it is kept so
 * these answers stay covered.)
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ServiceError } from '../../../electron/core/service/service-error';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, serve } from '../../support/http-servers';

const KEY = 'sk-compressed-answers-4711';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const DECODED_BYTES = 64 * 1024 * 1024;

afterEach(closeServers);

const client = new ServiceClient({
  fetch: createNodeFetch({}),
  requestTimeoutMs: 30_000,
  ...bundledAnswers(),
});

type Coding = 'gzip' | 'deflate' | 'br';
const bombs = new Map<string, Buffer>();

/** `DECODED_BYTES` of `unit` repeated (a JSON answer's inside, or a stream's comment lines). */
function bomb(coding: Coding, head: string, unit: string): Buffer {
  const text = Buffer.alloc(DECODED_BYTES, unit);
  text.write(head);
  const encode = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[coding];
  return encode(text);
}

beforeAll(() => {
  for (const coding of ['gzip', 'deflate', 'br'] as const) {
    bombs.set(`json-${coding}`, bomb(coding, '{"status":"processing","logs":"', ' '));
    bombs.set(`events-${coding}`, bomb(coding, ': keep-alive\n', ': \n'));
  }
});

function answerWith(body: Buffer, type: string, encoding: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': type, 'Content-Encoding': encoding });
    res.end(body);
  };
}

const creds = (baseUrl: string, provider: 'pictor' | 'replicate' | 'fal') => ({
  baseUrl,
  key: KEY,
  keyFingerprint: 'acct',
  provider,
});

async function pollError(handler: ReturnType<typeof answerWith>): Promise<ServiceError> {
  const server = await serve(handler);
  const error = await client.getTask(creds(server.origin, 'pictor'), 'task_1').then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe.each(['gzip', 'deflate', 'br'] as const)('a %s bomb', (coding) => {
  it('as a poll answer is refused as too large, with its sentence', async () => {
    const wire = bombs.get(`json-${coding}`)!;
    expect(wire.length).toBeLessThan(DECODED_BYTES / 100);
    const error = await pollError(answerWith(wire, 'application/json', coding));
    expect(error.kind).toBe('protocol');
    expect(error.sentence?.key).toBe('error.service.unreadableQuery');
    expect(error.detail).toMatch(/^HTTP 200 body larger than \d+ bytes/);
    expect(error.message).not.toContain(KEY);
  });

  it('as a Replicate held read breaks the wait', async () => {
    const wire = bombs.get(`json-${coding}`)!;
    const server = await serve(answerWith(wire, 'application/json', coding));
    const outcome = await client.waitForEnd(
      creds(server.origin, 'replicate'),
      { taskId: 'p7xq2', handles: { poll: `${server.origin}/v1/predictions/p7xq2` } },
      7_000,
    );
    expect(outcome).toBe('broken');
  });

  it('as a fal status stream breaks the wait', async () => {
    const wire = bombs.get(`events-${coding}`)!;
    const server = await serve(answerWith(wire, 'text/event-stream', coding));
    const outcome = await client.waitForEnd(
      creds(server.origin, 'fal'),
      { taskId: ID, request: { prompt: 'p', model: 'fal-ai/flux/dev' } },
      7_000,
    );
    expect(outcome).toBe('broken');
  });
});

describe('encodings stacked past what the transport decodes', () => {
  it('a poll answer gzipped six times is refused with a sentence', async () => {
    let body = Buffer.from(JSON.stringify({ status: 'processing' }));
    for (let i = 0; i < 6; i += 1) body = gzipSync(body);
    const error = await pollError(
      answerWith(body, 'application/json', Array(6).fill('gzip').join(', ')),
    );
    expect(error.sentence).toBeDefined();
    expect(error.message).not.toContain(KEY);
  });
});
