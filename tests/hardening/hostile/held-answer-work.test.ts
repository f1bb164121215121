/**
 * A hostile service's held waits (Replicate's `Prefer: wait` read, fal's status stream;
 * held-answer.ts) cost the main thread no parsing: each was the one service answer still parsed
 * there, after the queue's went to the answer worker (comfy-queue-work.test.ts). A running
 * prediction held with a megabyte of `logs`, or a stream of events of 60,000 characters each, was
 * `JSON.parse`d on main for every wait of every task held (1 MB per wait), beside the window, IPC
 * and the gallery protocol. Through the real service client and answer worker over loopback HTTP,
 * the work is counted, not timed (main-thread-work.ts); what each wait says is still said.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, sendJson, serve } from '../../support/http-servers';
import { countMainThreadParsing, mainThreadWork } from '../support/main-thread-work';

const KEY = 'sk-held-work-5150';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const LOGS = 'step 1/28 |####      | 3.2it/s\n'.repeat(30_000);
const MAIN_THREAD_BUDGET = 1_000;

let stopCounting: () => void = () => undefined;
beforeAll(() => {
  stopCounting = countMainThreadParsing();
});
afterAll(() => stopCounting());
afterEach(closeServers);

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 30_000,
  ...bundledAnswers(),
});

const creds = (baseUrl: string, provider: 'replicate' | 'fal') => ({
  baseUrl,
  key: KEY,
  keyFingerprint: 'acct',
  provider,
});

async function replicateWait(answer: (res: ServerResponse) => void) {
  const server = await serve((_req, res) => answer(res));
  return mainThreadWork(() =>
    client.waitForEnd(
      creds(server.origin, 'replicate'),
      { taskId: 'p7xq2', handles: { poll: `${server.origin}/v1/predictions/p7xq2` } },
      7_000,
    ),
  );
}

/** fal's wait on a stream of `chunks`, closed after them unless `open` (held to `holdMs`). */
async function falWait(chunks: readonly string[], open = false, holdMs = 7_000) {
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    for (const chunk of chunks) res.write(chunk);
    if (!open) res.end();
  });
  return mainThreadWork(() =>
    client.waitForEnd(
      creds(server.origin, 'fal'),
      { taskId: ID, request: { prompt: 'p', model: 'fal-ai/flux/dev' } },
      holdMs,
    ),
  );
}

const event = (status: string, extra: object = {}) =>
  `data: ${JSON.stringify({ status, ...extra })}\n\n`;
/** An event of about 60,000 characters (the bound is 64 KiB): fal's logs, made long. */
const longEvent = (status: string) =>
  event(status, { logs: [{ message: 'x'.repeat(60_000), level: 'INFO' }] });

describe('a held wait costs the main thread no parsing', () => {
  it.each([
    ['running', 'waiting'],
    ['succeeded', 'ended'],
  ])('Replicate: a %s prediction held with a megabyte of logs says %s', async (word, expected) => {
    const prediction = { id: 'p7xq2', status: word, logs: LOGS.slice(0, 1_000_000), output: [] };
    const status = word === 'running' ? 'processing' : word;
    const work = await replicateWait((res) => sendJson(res, 200, { ...prediction, status }));
    expect(work.result).toBe(expected);
    expect(work.parsed).toBeLessThan(MAIN_THREAD_BUDGET);
  });

  it('fal: a stream of events of 60,000 characters says the task ended', async () => {
    const chunks = [
      ...Array.from({ length: 15 }, () => longEvent('IN_PROGRESS')),
      event('COMPLETED'),
    ];
    const work = await falWait(chunks);
    expect(work.result).toBe('ended');
    expect(work.parsed).toBeLessThan(MAIN_THREAD_BUDGET);
  });

  it('fal: the same stream closed before the end leaves the task waiting', async () => {
    const work = await falWait(Array.from({ length: 15 }, () => longEvent('IN_QUEUE')));
    expect(work.result).toBe('waiting');
    expect(work.parsed).toBeLessThan(MAIN_THREAD_BUDGET);
  });

  it('fal: a stream that says the task ended and stays open ends the wait at once', async () => {
    const started = performance.now();
    const work = await falWait([event('IN_PROGRESS'), event('COMPLETED')], true, 60_000);
    expect(work.result).toBe('ended');
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});
