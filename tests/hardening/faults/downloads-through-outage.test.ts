/**
 * Image downloads while this computer's network is down: every attempt dies on the connection
 * (the image host never gets to answer). The task stays completed and the image pending, never
 * failed nor called invalid, and each attempt is a retry after a backoff. An outage longer than
 * the attempts' backoff (five attempts, under a minute) used them all up, and the image then waited
 * for the next start or the user's Retry, though the app hears the network come back (main calls
 * engine.wake() on `online`, as on a resume): the wake now gives such an image a fresh set.
 *
 * Real core, real demo service on loopback, one manual clock; the fault injected is the outage's:
 * the image host's connection is reset on each attempt while the network is "down".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { ManualClock } from '../../fakes/manual-clock';
import { until } from '../support/clock-driver';
import { KEY, countingFetch, openCoreRun, type CoreRun } from './fault-harness';
import { runUntil } from './sleep-cases';

const INTERVAL = 3_000;
/** The engine's attempts per image in a run (DEFAULT_ENGINE_OPTIONS.maxDownloadAttempts). */
const ATTEMPTS = 5;

let service: DemoService | undefined;
let run: CoreRun | undefined;

afterEach(async () => {
  await run?.dispose();
  await service?.close();
  [service, run] = [undefined, undefined];
});

describe('image downloads through an outage', () => {
  it('an outage longer than every attempt: pending, never failed; asked again once the network is back', async () => {
    const clock = new ManualClock();
    const requests = countingFetch();
    service = await startDemoService({
      accounts: [{ account: 'offline', key: KEY }],
      durationMs: { min: 1_000, max: 1_000 },
      imagesPerTask: 1,
      now: () => clock.now(),
    });
    // The network is down for every attempt of this run.
    service.addFault({ route: 'image', effect: { type: 'reset' }, times: ATTEMPTS });
    run = await openCoreRun({
      baseUrl: service.url,
      fetch: requests.fetch,
      clock,
      requestTimeoutMs: 30_000,
      engine: { pollIntervalMs: INTERVAL, maxDownloadAttempts: ATTEMPTS },
    });
    const engine = run.core.engine;
    engine.start();
    const [record] = await engine.submit(
      { prompt: 'the network is down', size: '64x64' },
      run.target,
    );
    const id = record!.localId;
    const images = () => service!.log.downloads;
    const answering = () => images().some((entry) => entry.status === null && !entry.fault);
    const image = () => engine.get(id)?.images[0];
    const settle = () =>
      until(() => {
        if (requests.inFlight() > 0 || answering() || engine.live(id).polling) return false;
        return engine.get(id)?.status !== 'submitting';
      });
    const usedUp = () => image()?.attempts === ATTEMPTS && engine.live(id).downloads === 0;
    await runUntil(clock, settle, usedUp, 30 * 60_000);
    expect(image()?.attempts).toBe(ATTEMPTS);
    expect(images()).toHaveLength(ATTEMPTS);
    // Nothing more is asked however long the clock runs: the attempts of this run are used up.
    await runUntil(clock, settle, () => false, 10 * 60_000);
    expect(images()).toHaveLength(ATTEMPTS);
    expect(engine.get(id)?.status).toBe('completed');
    expect(image()?.state).toBe('pending');

    // The network is back: the app wakes the engine.
    engine.wake();
    // Asked at once, on no timer: the clock stands still.
    await until(() => image()?.state === 'saved');
    expect(image()?.state).toBe('saved');
    expect(image()?.attempts).toBe(1);
    expect(images()).toHaveLength(ATTEMPTS + 1);
    expect(engine.get(id)?.status).toBe('completed');
  });
});
