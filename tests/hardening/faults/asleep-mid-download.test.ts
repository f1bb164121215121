/**
 * The machine sleeps while an image downloads. Its connection dies meanwhile: the request is never
 * answered, and the download would wait for its time limit (two minutes of real time) before it
 * tried again. Like a poll out through a sleep (asleep-mid-request.test.ts), the download must
 * start again at the wake (where nobody wakes the engine, when it notices: a third of an
 * interval), not counted as a failed attempt, whoever
 * wakes the engine (the app on powerMonitor's `resume`; in the CLI and the MCP server, the sleep
 * watch, which must tick while only downloads are under way: no task left to poll).
 *
 * Real core, real demo service on loopback, one manual clock; the fault injected is the sleep's:
 * the image host never answers the request out when the lid closes (the demo's `hang`, once).
 * Each case has a real-time budget under the download's time limit, so a download left waiting
 * for it fails the case instead of passing late.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { until } from '../support/clock-driver';
import { KEY, countingFetch, openCoreRun, type CoreRun } from './fault-harness';
import { SLEEPS_AND_WAKERS, clockFor, runUntil, type Sleep, type Waker } from './sleep-cases';

const INTERVAL = 3_000;
const SLEEP = 10 * 60_000;
/** Real time a case may take: well under the download's own limit of 120 s. */
const BUDGET_MS = 30_000;

let service: DemoService | undefined;
let run: CoreRun | undefined;

afterEach(async () => {
  await run?.dispose();
  await service?.close();
  [service, run] = [undefined, undefined];
});

describe('asleep with a download out', () => {
  it.each<[Sleep, Waker]>([...SLEEPS_AND_WAKERS])(
    '%s, %s: the image is saved at the wake, not after the time limit',
    async (sleep, waker) => {
      const clock = clockFor(sleep);
      const requests = countingFetch();
      service = await startDemoService({
        accounts: [{ account: 'sleeper', key: KEY }],
        durationMs: { min: 1_000, max: 1_000 },
        imagesPerTask: 1,
        now: () => clock.now(),
      });
      // The lid closes on the first image request: its answer never comes.
      service.addFault({ route: 'image', effect: { type: 'hang' }, times: 1 });
      run = await openCoreRun({
        baseUrl: service.url,
        fetch: requests.fetch,
        clock,
        requestTimeoutMs: 30_000,
        engine: { pollIntervalMs: INTERVAL },
      });
      const engine = run.core.engine;
      engine.start();
      const [record] = await engine.submit({ prompt: 'lid closes', size: '64x64' }, run.target);
      const id = record!.localId;
      const images = () => service!.log.downloads;
      const hung = () => images().some((entry) => entry.fault === 'hang');
      const answering = () => images().some((e) => e.status === null && e.fault !== 'hang');
      const saved = () => engine.get(id)?.images[0]?.state === 'saved';
      // Quiet: nothing out but the request the lid took; the engine has placed what comes next.
      const settle = () =>
        until(() => {
          const live = engine.live(id);
          if (requests.inFlight() > 0 || answering() || live.polling) return false;
          if (engine.get(id)?.status === 'submitting') return false;
          return live.downloads === 0 || (hung() && images().length === 1);
        });
      await runUntil(clock, settle, hung, 10 * INTERVAL);
      expect(hung()).toBe(true);
      expect(engine.get(id)?.status).toBe('completed');

      if (sleep === 'timers stand still (Linux, macOS)') clock.suspend(SLEEP);
      else await clock.jump(SLEEP);
      const wokeAt = clock.now();
      // The app wakes the engine at once; elsewhere the sleep watch's next tick (a third of an
      // interval on the timers) is late by the sleep. Then the clock stands still: the image must
      // come without any timer of the engine's, where it waited for the download's time limit.
      if (waker === 'the app wakes the engine') engine.wake();
      else await clock.advance(INTERVAL / 3);
      await until(saved);

      const image = engine.get(id)?.images[0];
      expect(image?.state).toBe('saved');
      expect((image?.savedAt ?? Infinity) - wokeAt).toBeLessThanOrEqual(INTERVAL / 3);
      // The attempt the sleep cut is no failure: the one that saved it is the first counted.
      expect(image?.attempts).toBe(1);
      expect(images()).toHaveLength(2);
    },
    BUDGET_MS,
  );
});
