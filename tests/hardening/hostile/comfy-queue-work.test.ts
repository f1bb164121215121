/**
 * A hostile ComfyUI's queue (`GET /queue`, asked on every poll of a prompt that waits): the one
 * service answer still parsed on main's thread. A queue of a megabyte (another user's thousands of
 * prompts, or one made to be large) cost main a megabyte of `JSON.parse` every poll of every
 * waiting ComfyUI task, beside the window, IPC and the gallery protocol. Through the real service
 * client and answer worker over loopback HTTP, the work is counted, not timed
 * (main-thread-work.ts): the queue is read in the worker as every other answer is, and the place
 * it gives is still read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { sendJson, startServer, type TestServer } from '../../support/http-servers';
import { countMainThreadParsing, mainThreadWork } from '../support/main-thread-work';

/** Prompts ahead of ours, each with a graph of its own: the queue's answer is about 1 MB. */
const AHEAD = 200;
const GRAPH = Object.fromEntries(
  Array.from({ length: 40 }, (_, n) => [
    String(n),
    { class_type: 'Node', inputs: { text: 'x'.repeat(80) } },
  ]),
);

let server: TestServer;
let stopCounting: () => void = () => undefined;
let queueText = '';

beforeAll(async () => {
  stopCounting = countMainThreadParsing();
  const pending = [
    ...Array.from({ length: AHEAD }, (_, n) => [n, `other-${n}`, GRAPH, {}, ['9']]),
    [AHEAD, 'prompt-1', GRAPH, {}, ['9']],
  ];
  queueText = JSON.stringify({ queue_running: [], queue_pending: pending });
  server = await startServer((req, res) => {
    if (req.url?.startsWith('/history/')) return sendJson(res, 200, {});
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(queueText);
  });
});

afterAll(async () => {
  stopCounting();
  await server.close();
});

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 60_000,
  ...bundledAnswers(),
});

describe('a hostile ComfyUI’s megabyte queue', () => {
  it('is read off main’s thread, its place still said', async () => {
    expect(queueText.length).toBeGreaterThan(700_000);
    const credentials = {
      baseUrl: server.origin,
      key: '',
      keyFingerprint: 'local',
      provider: 'comfyui' as const,
    };
    const work = await mainThreadWork(() => client.getTask(credentials, 'prompt-1'));
    expect(work.result).toMatchObject({ status: 'processing', queuePosition: AHEAD });
    expect(work.parsed).toBeLessThan(1_000);
  });

  it('of a thousand small prompts still says the place', async () => {
    const pending = Array.from({ length: 1_001 }, (_, n) => [
      n,
      n === 1_000 ? 'prompt-1' : `o-${n}`,
      {},
      {},
      [],
    ]);
    queueText = JSON.stringify({ queue_running: [], queue_pending: pending });
    const credentials = {
      baseUrl: server.origin,
      key: '',
      keyFingerprint: 'local',
      provider: 'comfyui' as const,
    };
    const task = await client.getTask(credentials, 'prompt-1');
    expect(task).toMatchObject({ status: 'processing', queuePosition: 1_000 });
  });
});
