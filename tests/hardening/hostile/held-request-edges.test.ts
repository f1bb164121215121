/**
 * A held request (Replicate's `Prefer: wait` read, fal's status stream) that a hostile service
 * answers by never answering, by a body of one byte every 100 ms that never ends, by a redirect to
 * itself forever or by a redirect to another address (the cloud's metadata address, a file:),
 * through the real service client over loopback HTTP with a request time limit of two minutes and
 * a hold asked longer than that: each ends at that limit (a stream as `waiting`, held to its end;
 * a held read as `broken`: the poll carries on at the interval), and not a millisecond before it;
 * a redirect is followed a few times at most and only under the key's own address; nothing is
 * asked elsewhere.
 * The limit runs on a manual clock (the client's, as the core gives it its own): the test moves it
 * to a millisecond short of the limit, finds the request still open (the trickle's bytes arriving
 * meanwhile), then moves it the last millisecond. Two minutes of real time lie far past any wait's
 * deadline here: only the clock's move can end the request in time.
 * (No defect was found here; it is kept so these answers stay covered.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HeldWaitOutcome } from '../../../electron/core/service/held-answer';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ManualClock } from '../../fakes/manual-clock';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, serve } from '../../support/http-servers';
import { UNTIL } from '../../support/waits';

const KEY = 'sk-held-edges-2718';
const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
const TIMEOUT_MS = 120_000;
/** The hold a wait asks for: longer than the request may take. */
const HOLD_MS = 5 * 60_000;
afterEach(closeServers);

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** Writes a space every 100 ms (real time) until the client goes away, counting what it wrote. */
function trickle(type: string): { answer: Answer; written: () => number } {
  let written = 0;
  const answer: Answer = (_req, res) => {
    res.writeHead(200, { 'Content-Type': type });
    const timer = setInterval(() => {
      res.write(type.includes('event') ? ':' : ' ');
      written += 1;
    }, 100);
    res.on('close', () => clearInterval(timer));
  };
  return { answer, written: () => written };
}

const redirect =
  (location: string): Answer =>
  (_req, res) => {
    res.writeHead(302, { Location: location });
    res.end();
  };

/**
 * Starts a held wait against `answer` through a client whose time limit is on a manual clock of
 * its own; `outcome()` is what it came to so far (undefined while it is open).
 */
async function wait(provider: 'replicate' | 'fal', answer: Answer, holdMs = HOLD_MS) {
  const server = await serve(answer);
  const clock = new ManualClock();
  const client = new ServiceClient({
    fetch: (url, init) => fetch(url, init),
    requestTimeoutMs: TIMEOUT_MS,
    maxRedirects: 3,
    clock,
    ...bundledAnswers(),
  });
  const task =
    provider === 'replicate'
      ? { taskId: 'p7xq2', handles: { poll: `${server.origin}/v1/predictions/p7xq2` } }
      : { taskId: ID, request: { prompt: 'p', model: 'fal-ai/flux/dev' } };
  let outcome: HeldWaitOutcome | undefined;
  const ended = client
    .waitForEnd(
      { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct', provider },
      task,
      holdMs,
    )
    .then((said) => (outcome = said));
  return { ended, outcome: () => outcome, server, clock };
}

describe.each(['replicate', 'fal'] as const)('%s: a held request', (provider) => {
  const type = provider === 'fal' ? 'text/event-stream' : 'application/json';
  // A stream open to its hold (here the request's limit, cut to 80 %) is the usual case: the
  // task still runs. A held read that never ends is a request past its limit: of no use.
  const timedOut = provider === 'fal' ? 'waiting' : 'broken';
  const limitMs = provider === 'fal' ? TIMEOUT_MS * 0.8 : TIMEOUT_MS;

  it('never answered ends at the time limit, not before', async () => {
    const { outcome, server, clock, ended } = await wait(provider, () => undefined);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), UNTIL);
    await clock.advance(limitMs - 1);
    expect(outcome()).toBeUndefined();
    await clock.advance(1);
    await vi.waitFor(() => expect(outcome()).toBe(timedOut), UNTIL);
    await ended;
  });

  it('answered one byte at a time, never ending, ends at the time limit, not before', async () => {
    const { answer, written } = trickle(type);
    const { outcome, server, clock, ended } = await wait(provider, answer);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), UNTIL);
    await clock.advance(limitMs - 1);
    // Bytes keep coming a millisecond short of the limit: none of them ends the request, or
    // holds it past the limit (a request ended early stops them: its end is told at once).
    await vi.waitFor(() => expect(written() >= 2 || outcome() !== undefined).toBe(true), UNTIL);
    expect(outcome()).toBeUndefined();
    await clock.advance(1);
    await vi.waitFor(() => expect(outcome()).toBe(timedOut), UNTIL);
    await ended;
  });

  it('redirected to itself forever is followed a few times, then broken', async () => {
    const { ended, server } = await wait(provider, (req, res) =>
      redirect(req.url ?? '/')(req, res),
    );
    expect(await ended).toBe('broken');
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://127.0.0.2:9/x',
    'file:///etc/passwd',
  ])('redirected to %s is broken, that address never asked', async (location) => {
    const { ended, server } = await wait(provider, redirect(location));
    expect(await ended).toBe('broken');
    expect(server.requests).toHaveLength(1);
  });
});
