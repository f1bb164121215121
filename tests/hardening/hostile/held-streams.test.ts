/**
 * A hostile service's held wait (fal's status stream, held-answer.ts) shaped to make its reader's
 * work grow faster than the bytes sent, through the real service client over loopback HTTP: one
 * event of tens of thousands of `data:` lines (each line used to copy and join every line before
 * it: 30,000 lines of 6 bytes cost the main thread 5 s of CPU, 65,000 ~50 s). The stream is valid
 * Server-Sent Events, read to the status it ends with; what is measured is the CPU time the whole
 * process spent while it was read (the reader runs in the answer worker, a thread of it, started
 * before), not how long the test took.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, serve } from '../../support/http-servers';

const KEY = 'sk-held-streams-6606';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const FAL_MODEL = 'fal-ai/flux/dev';
/**
 * The CPU a stream of a few hundred kilobytes may cost, request and all, every thread counted:
 * read in linear time it is tens of milliseconds; the quadratic reader took 2–6 s at load 6.
 */
const MAX_CPU_MS = 1_500;
afterEach(closeServers);

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 60_000,
  ...bundledAnswers(),
});

const completed = `data: ${JSON.stringify({ status: 'COMPLETED' })}\n\n`;

/** fal's wait on a server writing `text` as its status stream; the process's CPU meanwhile. */
async function falWait(text: string) {
  const server = await serve((_req, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end(text);
  });
  const before = process.cpuUsage();
  const outcome = await client.waitForEnd(
    { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct', provider: 'fal' },
    { taskId: ID, request: { prompt: 'p', model: FAL_MODEL } },
    45_000,
  );
  const spent = process.cpuUsage(before);
  return { outcome, cpuMs: (spent.user + spent.system) / 1000 };
}

// The answer worker's start is not the reading's work.
beforeAll(() => falWait(completed));

describe("a status stream built to make its reader's work grow faster than its bytes", () => {
  it.each([
    ['30,000 empty data lines', 'data:\n'.repeat(30_000)],
    ['30,000 data lines without a colon', 'data\n'.repeat(30_000)],
    ['30,000 data lines of one space', 'data:  \n'.repeat(30_000)],
    ['30,000 data lines split by CR', 'data:\r'.repeat(30_000)],
  ])(
    'an event of %s before its status is read in linear time',
    async (_name, lines) => {
      const { outcome, cpuMs } = await falWait(`${lines}${completed}`);
      expect(outcome).toBe('ended');
      expect(cpuMs).toBeLessThan(MAX_CPU_MS);
    },
    120_000,
  );
});
