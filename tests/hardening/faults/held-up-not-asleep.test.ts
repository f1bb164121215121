/**
 * The event loop held up by work or a loaded machine is no sleep. The sleep watch (sleep-watch.ts)
 * read any tick late by more than the poll interval as the machine back from a sleep, and the wake
 * ended each poll and download out for an interval and sent it again: a large image fetched twice,
 * a poll sent twice (a loaded run of shared-task-ids-stored.test.ts at load 20 saw both). Where
 * the system tells the time the machine was awake (Linux, macOS), a sleep is the uptime running on
 * while that clock stood still; held up, both run.
 *
 * Real core over real HTTP on loopback with the real clock; the fault injected is the hold-up
 * itself: as the first poll's and the first image's answers arrive, before they are read, the loop
 * is kept busy for many intervals (a synchronous wait, as a long piece of work does). Held at every
 * answer, the old watch never let the task finish: each attempt was ended and sent again.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { FetchLike } from '../../../electron/ports/http';
import { StaticCredentials } from '../../fakes/static-credentials';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { type CompletingService, startCompletingService } from '../../support/completing-service';
import { testImageEngine } from '../../support/image-engine';
import { copyMigratedHistory } from '../../support/migrated-history';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const INTERVAL = 20;
/** How long the loop is held at each answer: many intervals, and many ticks of the sleep watch. */
const HELD_MS = 10 * INTERVAL;
const TASK = 'task-held-up';

let service: CompletingService;
let dir: string | undefined;
let core: PictorCore | undefined;

beforeAll(async () => {
  service = await startCompletingService('#3a7');
  service.submitId = TASK;
});

afterAll(async () => {
  await service.close();
});

afterEach(async () => {
  await core?.close();
  if (dir) await removeFolder(dir);
  [core, dir] = [undefined, undefined];
});

/** Keeps the event loop busy for `ms`: nothing else in this process runs meanwhile. */
function holdUp(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // The work that holds the loop.
  }
}

/** Node's fetch, the loop held up as the first poll's and the first image's answers arrive. */
function heldUpOnce(): FetchLike {
  const held = new Set<string>();
  return async (url, init) => {
    const response = await fetch(url, init);
    const path = new URL(url).pathname;
    if (path !== '/v1/images/generations' && !held.has(path)) {
      held.add(path);
      holdUp(HELD_MS);
    }
    return response;
  };
}

describe('the event loop held up while a poll and a download are out', () => {
  it.skipIf(systemClock.awake === undefined)(
    'is no sleep: the task is polled once and its image downloaded once',
    async () => {
      service.reset();
      dir = await tempFolder('held-up');
      const dataDir = join(dir, 'data');
      await mkdir(dataDir);
      copyMigratedHistory(join(dataDir, HISTORY_FILE));
      core = await openPictorCore({
        imageEngine: testImageEngine,
        dataDir,
        galleryDir: join(dir, 'gallery'),
        fetch: heldUpOnce(),
        credentials: new StaticCredentials(service.origin, 'sk-held-up-test'),
        clock: systemClock,
        requestTimeoutMs: 60_000,
        engine: { pollIntervalMs: INTERVAL, maxBackoffMs: 2 * INTERVAL },
        historyPort: { inThread: true },
        ...bundledAnswers(),
      });
      core.engine.start({ resume: false });
      const [record] = await core.engine.submit({ prompt: 'held up' }, targetAt(service.origin));
      const [settled] = await core.engine.whenSettled([record!.localId]);

      expect(settled?.status).toBe('completed');
      expect(settled?.images.map((image) => [image.state, image.attempts])).toEqual([['saved', 1]]);
      expect({ polls: service.polls, images: service.images }).toEqual({
        polls: [TASK],
        images: [`/img/${TASK}.png`],
      });
    },
  );
});
