/**
 * A hostile service beside an honest one, through what Content Credentials cost to verify. The
 * hostile service's images carry stores of 8,000 small assertions (c2pa-rs needs about 50 s for
 * one; four of them held an honest service's image 82.7 s behind one FIFO), or stores within the
 * pre-count's limits that still keep the library busy. Through the real core (`openPictorCore`:
 * its gallery, the fair verifier it wraps around the host's verifier, the worker-thread verifier)
 * and real downloads over loopback, on the manual clock; the library is played by a stand-in
 * worker that never finishes a crowded store and answers any other image at once
 * (tests/support/selective-c2pa-worker.ts), so what is shown is who waits for whom, not how fast
 * this machine is.
 *
 * - 8,000-assertion stores never reach a worker (the pre-count refuses them), and the honest
 *   image is verified with the clock unmoved;
 * - slow stores within the limits (4 images of one task, and another task) hold up only their own
 *   service: the honest image is verified while the first runs; when the clock passes the store
 *   limit the store is cut, and its task's other three are `unreadable` without reaching a worker.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import { STORE_VERIFY_LIMIT_MS } from '../../../electron/core/content-credentials/fair-verifier';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
} from '../../../electron/ports/content-credential-verifier';
import { ManualClock } from '../../fakes/manual-clock';
import { CROWD_LABEL, SELECTIVE_VERDICT } from '../../support/c2pa-crowd-label';
import { crowdedImage } from '../../support/c2pa-crowded';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord, serve, startServer, type TestServer } from '../../support/gallery-helpers';
import { UNTIL } from '../../support/waits';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { offlineCore, type OfflineCore } from '../../support/offline-core';

const HOSTILE = 'https://hostile.example';
const HONEST = 'https://honest.example';
const crowdLabel = Buffer.from(CROWD_LABEL, 'latin1');

/** The stand-in verifier, counting the crowded stores that reached it. */
class Counting implements ContentCredentialVerifier {
  crowded = 0;
  honest = 0;
  constructor(private readonly inner: ContentCredentialVerifier) {}
  verify(request: CredentialRequest) {
    if (Buffer.from(request.bytes).includes(crowdLabel)) this.crowded += 1;
    else this.honest += 1;
    return this.inner.verify(request);
  }
  dispose() {
    return this.inner.dispose();
  }
}

let server: TestServer;
let clock: ManualClock;
let inner: C2paVerifier;
let counting: Counting;
let core: OfflineCore;
/** Counted as the cases run; `lost`: images not saved (each must be, whatever its verdict). */
const figures = {
  hostileImages: 0,
  honestImages: 0,
  crowdedReached: 0,
  slowReached: 0,
  unreadable: 0,
  lost: 0,
};

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  recordReliability({
    section: 'hostile-input',
    row: 'A hostile service’s C2PA stores beside an honest one',
    load: '4 images of 8,000-assertion stores, then 4 slow stores of one task and one of another, beside one honest image each time (manual clock)',
    injected: { 'hostile images': figures.hostileImages },
    outcome: {
      'honest images verified with the clock unmoved': figures.honestImages,
      '8,000-assertion stores that reached a worker': figures.crowdedReached,
      'slow stores that reached a worker (of 5, in 2 tasks)': figures.slowReached,
      'hostile images unreadable': figures.unreadable,
    },
    lost: figures.lost,
    duplicated: NOT_MEASURED,
    leaked: NOT_MEASURED,
    file: 'tests/hardening/hostile/c2pa-fairness.test.ts',
  });
});
beforeEach(async () => {
  clock = new ManualClock();
  // Its own limit is far off: only the core's store limit, on the manual clock, cuts a store.
  inner = new C2paVerifier({
    trustAnchors: '',
    timeoutMs: 600_000,
    workerUrl: new URL('../../support/selective-c2pa-worker.ts', import.meta.url),
  });
  counting = new Counting(inner);
  // The downloads reach the test's own server: a real fetch.
  core = await offlineCore({ fetch, clock, contentCredentials: counting });
});
afterEach(async () => {
  await core.close();
  await inner.dispose();
});

/** Downloads `images` as one task of `service`; each outcome's promise, started now. */
function download(service: string, images: Buffer[], name: string): Promise<DownloadOutcome>[] {
  const urls = images.map((body, index) =>
    server.route(`/${name}-${index}-${core.dir.slice(-6)}.png`, serve(body, 'image/png')),
  );
  const record = makeRecord(urls, { endpoint: service });
  return urls.map((_, index) => core.intake.downloadImage(record, index, server.baseUrl));
}

function credentialsOf(outcome: DownloadOutcome) {
  if (outcome.state !== 'saved') {
    figures.lost += 1;
    throw new Error(`not saved: ${JSON.stringify(outcome)}`);
  }
  return outcome.contentCredentials;
}

describe('a hostile service’s Content Credentials beside an honest service’s', () => {
  it('8,000-assertion stores never reach a worker; the honest image waits for nothing', async () => {
    const crowded = Array.from({ length: 4 }, () => crowdedImage('png', 8_000));
    const hostile = download(HOSTILE, crowded, 'crowded');
    const honest = download(HONEST, [c2paFixture('signed.png')], 'honest');
    const start = clock.now();
    expect(credentialsOf(await honest[0]!)).toEqual(SELECTIVE_VERDICT);
    for (const outcome of await Promise.all(hostile)) {
      expect(credentialsOf(outcome)).toEqual({ state: 'unreadable' });
    }
    expect(clock.now()).toBe(start);
    figures.crowdedReached += counting.crowded;
    expect(counting.crowded).toBe(0);
    figures.hostileImages += crowded.length;
    figures.unreadable += crowded.length;
    figures.honestImages += 1;
  });

  it('slow stores within the limits hold up only their own service; a cut one ends its task', async () => {
    const slow = () => crowdedImage('png', 100);
    const task = download(HOSTILE, [slow(), slow(), slow(), slow()], 'slow');
    await vi.waitFor(() => expect(counting.crowded).toBe(1), UNTIL);
    const other = download(HOSTILE, [slow()], 'slow-other');
    // The first hostile store keeps its worker busy; the honest image is verified meanwhile.
    const start = clock.now();
    const honest = download(HONEST, [c2paFixture('signed.png')], 'honest-beside');
    expect(credentialsOf(await honest[0]!)).toEqual(SELECTIVE_VERDICT);
    expect(clock.now()).toBe(start);
    // Past the store limit the first store is cut, and its task's three others never run.
    await clock.advance(STORE_VERIFY_LIMIT_MS);
    for (const outcome of await Promise.all(task)) {
      expect(credentialsOf(outcome)).toEqual({ state: 'unreadable' });
    }
    // The service's other task has a budget of its own: it runs, and is cut at its limit.
    await vi.waitFor(() => expect(counting.crowded).toBe(2), UNTIL);
    await clock.advance(STORE_VERIFY_LIMIT_MS);
    expect(credentialsOf(await other[0]!)).toEqual({ state: 'unreadable' });
    expect(counting.crowded).toBe(2);
    figures.hostileImages += 5;
    figures.unreadable += 5;
    figures.slowReached += counting.crowded;
    figures.honestImages += 1;
  });
});
