/**
 * The machine goes to sleep, or its network changes (another Wi-Fi, a VPN up or down, the cable
 * pulled), while main's requests are out: Chromium's network service fails each of them with its
 * own error (`net::ERR_NETWORK_IO_SUSPENDED`, `net::ERR_NETWORK_CHANGED`,
 * `net::ERR_INTERNET_DISCONNECTED`), a poll as well as a wait the service holds until the task ends
 * (Replicate's `Prefer: wait`, fal's status stream). Each is a passing fault of this computer's
 * network, not the service's: the task is neither failed nor submitted again, it is polled again at
 * the interval, and the held wait is used again for it (a wait the SERVICE broke is not:
 * held-waits.test.ts).
 *
 * Through the app's own adapter (adapters/electron-net-fetch.ts) over the stand-in of Electron's
 * `net` (tests/support/node-http-net.ts), whose `failAll` raises the error on every request out as
 * Electron's ClientRequest does; the real core against the demo service on loopback, on a manual
 * clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { closeServers, serve } from '../../support/http-servers';
import type { ProviderId } from '../../../shared/domain/providers';
import type { RequestLogEntry } from '../../../electron/demo-service/types';
import { providerRig, type ProviderRig } from '../../integration/providers/provider-harness';
import { submitOne } from '../../integration/providers/provider-scenarios';
import { createMainNet, type MainNet } from '../../support/node-http-net';

const INTERVAL_MS = 3_000;
/** A task at the demo runs this long: several intervals after the fault. */
const DURATION_MS = 15_000;
const WAIT_WITHIN = { timeout: 15_000, interval: 5 };

/** What Chromium fails the requests out with at a suspend or a change of network. */
const NETWORK_ERRORS = [
  'net::ERR_NETWORK_IO_SUSPENDED',
  'net::ERR_NETWORK_CHANGED',
  'net::ERR_INTERNET_DISCONNECTED',
] as const;

const isHeld = (entry: RequestLogEntry): boolean =>
  entry.path.endsWith('/status/stream') || entry.headers['prefer'] !== undefined;
const held = (rig: ProviderRig) => rig.service.log.requests.filter(isHeld);
const polls = (rig: ProviderRig) =>
  rig.service.log.requests.filter(
    (entry) =>
      entry.route === 'poll' &&
      !isHeld(entry) &&
      (rig.provider !== 'fal' || entry.path.endsWith('/status')),
  );
const submits = (rig: ProviderRig) =>
  rig.service.log.requests.filter((entry) => entry.route === 'submit');

async function rigOf(provider: ProviderId, heldWaitMs: number | null) {
  const net = createMainNet();
  const rig = await providerRig(
    provider,
    { durationMs: DURATION_MS },
    { pollIntervalMs: INTERVAL_MS, heldWaitMs },
    { fetch: net.fetch },
  );
  rig.core.engine.start();
  return { rig, net };
}

/** Submits a task, moves the clock to its first poll and waits until that request is out. */
async function submittedAndAsking(rig: ProviderRig, net: MainNet): Promise<string> {
  const localId = await submitOne(rig, 'a harbour at night');
  await rig.drive(() => rig.core.history.get(localId)?.taskId != null);
  await rig.clock.advance(INTERVAL_MS);
  await vi.waitFor(() => expect(net.outNow()).toBe(1), WAIT_WITHIN);
  return localId;
}

afterEach(closeServers);

/** Every two polls of the task at least an interval apart (the service's 3 s rule). */
function expectPolledAtInterval(rig: ProviderRig): void {
  const times = polls(rig).map((entry) => entry.at);
  for (let i = 1; i < times.length; i += 1) {
    expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(INTERVAL_MS);
  }
}

describe.each(NETWORK_ERRORS)('%s', (netError) => {
  it('fails a poll out: the task keeps its id, is polled again at the interval, completes, submitted once', async () => {
    const { rig, net } = await rigOf('pictor', null);
    // The poll is held by the service, so the fault finds it out.
    rig.service.addFault({ route: 'poll', effect: { type: 'hang' }, times: 1 });
    const localId = await submittedAndAsking(rig, net);
    const taskId = rig.stored(localId).taskId;
    expect(net.failAll(netError)).toBe(1);
    await rig.drive(() => rig.stored(localId).error !== null);
    const after = rig.stored(localId);
    expect(after).toMatchObject({ status: 'processing', taskId, hold: null });
    expect(after.error?.kind).toBe('network');
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(done?.taskId).toBe(taskId);
    expect(polls(rig).length).toBeGreaterThanOrEqual(3);
    expectPolledAtInterval(rig);
    expect(submits(rig)).toHaveLength(1);
  });

  describe.each(['replicate', 'fal'] as const)('%s', (provider) => {
    it('fails the held wait: the task is polled, its wait held again, completes, submitted once', async () => {
      const { rig, net } = await rigOf(provider, 20_000);
      const localId = await submittedAndAsking(rig, net);
      expect(held(rig)).toHaveLength(1);
      expect(net.failAll(netError)).toBe(1);
      // The poll follows the cut wait, as after any wait.
      await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
      // Held again at the next interval: the wait was not written off as the service's.
      await rig.drive(() => held(rig).length === 2 && net.outNow() === 1);
      // The task ends while that wait is held: the wait says so, the poll after it reads it.
      await rig.clock.advance(DURATION_MS);
      await vi.waitFor(() => expect(rig.stored(localId).status).toBe('completed'), WAIT_WITHIN);
      expect(held(rig)).toHaveLength(2);
      expectPolledAtInterval(rig);
      expect(submits(rig)).toHaveLength(1);
    });
  });
});

describe('a network that keeps changing', () => {
  it('cuts every held wait: after three in a row the task is polled only, and completes', async () => {
    const { rig, net } = await rigOf('replicate', 20_000);
    const localId = await submittedAndAsking(rig, net);
    for (let cut = 1; cut <= 3; cut += 1) {
      // The next interval's wait (the clock moved until it is out).
      if (cut > 1) await rig.drive(() => held(rig).length === cut && net.outNow() === 1);
      expect(held(rig)).toHaveLength(cut);
      expect(net.failAll('net::ERR_NETWORK_CHANGED')).toBe(1);
      await vi.waitFor(() => expect(polls(rig)).toHaveLength(cut), WAIT_WITHIN);
    }
    // No wait before the polls from now on: each interval costs the service one request.
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(held(rig)).toHaveLength(3);
    expectPolledAtInterval(rig);
    expect(submits(rig)).toHaveLength(1);
  });
});

describe.each(NETWORK_ERRORS)('%s inside a status stream that has begun', (netError) => {
  it('is an interrupted wait, not a broken one', async () => {
    // fal's status stream, its first event sent and the stream held open (the demo holds its
    // answer whole until the task ends: this one has begun when the network fails it).
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ status: 'IN_PROGRESS' })}\n\n`);
    });
    const net = createMainNet();
    const client = new ServiceClient({ fetch: net.fetch });
    const credentials = {
      baseUrl: server.origin,
      key: 'sk-fal-sleeper',
      keyFingerprint: 'a',
      provider: 'fal' as const,
    };
    const task = { taskId: 'req-1', request: { prompt: 'a harbour', model: 'fal-ai/flux/dev' } };
    const outcome = client.waitForEnd(credentials, task, 20_000);
    await vi.waitFor(() => expect(net.answeringNow()).toBe(1), WAIT_WITHIN);
    expect(net.failAll(netError)).toBe(1);
    await expect(outcome).resolves.toBe('interrupted');
  });
});
