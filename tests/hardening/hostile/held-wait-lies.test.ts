/**
 * A held wait that says the task ended when the poll after it finds the task running (a lying or
 * confused service, an end told for another task), in both dialects that hold (Replicate's
 * `Prefer: wait` read, fal's status stream), through the real core against the demo on loopback
 * on a manual clock: the wait is of no use, as a broken one is, so the task is polled with no wait
 * before each poll (each lying wait cost the service a second request every interval: the wait,
 * then the poll it asked for), completes, and is submitted once. (The polls' cadence, which this
 * does not change, is held-waits.test.ts's.)
 */
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../shared/domain/providers';
import type { FaultEffect, RequestLogEntry } from '../../../electron/demo-service/types';
import { providerRig, type ProviderRig } from '../../integration/providers/provider-harness';
import { submitOne } from '../../integration/providers/provider-scenarios';

const INTERVAL_MS = 3_000;
/** A task at the demo runs this long: several intervals, each of which could hold a wait. */
const DURATION_MS = 15_000;

type HeldDialect = Extract<ProviderId, 'replicate' | 'fal'>;

const isHeld = (entry: RequestLogEntry): boolean =>
  entry.path.endsWith('/status/stream') || entry.headers['prefer'] !== undefined;
const held = (rig: ProviderRig) => rig.service.log.requests.filter(isHeld);

/** The dialect's held answer that says the task ended, whatever task it is. */
const SAYS_ENDED: Record<HeldDialect, FaultEffect> = {
  fal: {
    type: 'body',
    status: 200,
    contentType: 'text/event-stream',
    body: `data: ${JSON.stringify({ status: 'COMPLETED', request_id: 'someone-else' })}\n\n`,
  },
  replicate: {
    type: 'body',
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ id: 'someone-else', status: 'succeeded', output: [] }),
  },
};

describe.each(['replicate', 'fal'] as const)(
  '%s: a held wait that says the task ended',
  (provider) => {
    it('while it runs is not held again: polled only, completed, submitted once', async () => {
      const rig = await providerRig(
        provider,
        { durationMs: DURATION_MS },
        { pollIntervalMs: INTERVAL_MS, heldWaitMs: 20_000 },
      );
      rig.core.engine.start();
      rig.service.addFault({ route: 'poll', effect: SAYS_ENDED[provider], times: 1 });
      const localId = await submitOne(rig, 'a lying wait');
      const [done] = await rig.settle([localId]);
      expect(done?.status).toBe('completed');
      expect(held(rig)).toHaveLength(1);
      expect(held(rig)[0]?.fault).toBeDefined();
      expect(rig.service.log.requests.filter((entry) => entry.route === 'submit')).toHaveLength(1);
    });
  },
);
