/**
 * A held request (Replicate's `Prefer: wait` read, fal's status stream) that a hostile service
 * answers by never answering, by a body of one byte every 100 ms that never ends, by a redirect to
 * itself forever or by a redirect to another address (the cloud's metadata address, a file:),
 * through the real service client over loopback HTTP with a short request time limit: each ends
 * at that limit (a stream as `waiting`, held to its end; a held read as `broken`: the poll carries
 * on at the interval); a redirect is followed a few times at most and only under the key's own
 * address; nothing is asked elsewhere.
 * (No defect was found here; it is kept so these answers stay covered.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, serve } from '../../support/http-servers';

const KEY = 'sk-held-edges-2718';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const TIMEOUT_MS = 2_000;
afterEach(closeServers);

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: TIMEOUT_MS,
  maxRedirects: 3,
  ...bundledAnswers(),
});

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** Writes a space every 100 ms until the client goes away. */
const trickle =
  (type: string): Answer =>
  (_req, res) => {
    res.writeHead(200, { 'Content-Type': type });
    const timer = setInterval(() => res.write(type.includes('event') ? ':' : ' '), 100);
    res.on('close', () => clearInterval(timer));
  };

const redirect =
  (location: string): Answer =>
  (_req, res) => {
    res.writeHead(302, { Location: location });
    res.end();
  };

async function wait(provider: 'replicate' | 'fal', answer: Answer, holdMs = 60_000) {
  const server = await serve(answer);
  const task =
    provider === 'replicate'
      ? { taskId: 'p7xq2', handles: { poll: `${server.origin}/v1/predictions/p7xq2` } }
      : { taskId: ID, request: { prompt: 'p', model: 'fal-ai/flux/dev' } };
  const outcome = await client.waitForEnd(
    { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct', provider },
    task,
    holdMs,
  );
  return { outcome, server };
}

describe.each(['replicate', 'fal'] as const)('%s: a held request', (provider) => {
  const type = provider === 'fal' ? 'text/event-stream' : 'application/json';
  // A stream open to its hold (here the request's limit, cut to 80 %) is the usual case: the
  // task still runs. A held read that never ends is a request past its limit: of no use.
  const timedOut = provider === 'fal' ? 'waiting' : 'broken';

  it('never answered ends within the time limit', async () => {
    const { outcome } = await wait(provider, () => undefined);
    expect(outcome).toBe(timedOut);
  });

  it('answered one byte at a time, never ending, ends within the time limit', async () => {
    const { outcome } = await wait(provider, trickle(type));
    expect(outcome).toBe(timedOut);
  });

  it('redirected to itself forever is followed a few times, then broken', async () => {
    const { outcome, server } = await wait(provider, (req, res) =>
      redirect(req.url ?? '/')(req, res),
    );
    expect(outcome).toBe('broken');
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.2:9/x',
    'file:///etc/passwd',
  ])('redirected to %s is broken, that address never asked', async (location) => {
    const { outcome, server } = await wait(provider, redirect(location));
    expect(outcome).toBe('broken');
    expect(server.requests).toHaveLength(1);
  });
});
