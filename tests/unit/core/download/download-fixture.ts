/**
 * The setup shared by the download tests: one loopback image host per file, a fresh gallery
 * per test on a manual clock (the time a Retry-After date is a wait from), and two checks after every test whatever it did: no temp file is left, and the
 * image host never saw an Authorization header or a cookie.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Gallery } from '../../../../electron/core/gallery/gallery';
import type { DownloadOutcome } from '../../../../electron/core/download/download-outcome';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  makeImage,
  makeRecord,
  startServer,
  tempFiles,
  type TestServer,
} from '../../../support/gallery-helpers';
import { ManualClock } from '../../../fakes/manual-clock';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import type { ImageIntake } from '../../../../electron/core/download/image-intake';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

export interface DownloadFixture {
  server: TestServer;
  root: string;
  gallery: Gallery;
  /** How images come into {@link gallery}. */
  intake: ImageIntake;
  /** The gallery's time: it moves only when a test says so. */
  clock: ManualClock;
  /** A 640×480 PNG of random pixels (about 900 KB). */
  png: Buffer;
  /** One attempt of a one-image task pointing at `url`. */
  download(
    url: string | null,
    options?: { intake?: ImageIntake; signal?: AbortSignal },
  ): Promise<{ record: TaskRecord; outcome: DownloadOutcome }>;
}

/** Registers the hooks and returns the fixture whose fields they fill in. */
export function useDownloadFixture(): DownloadFixture {
  const fixture = {
    async download(url, options = {}) {
      const record = makeRecord([url]);
      const intake = options.intake ?? fixture.intake;
      const outcome = await intake.downloadImage(record, 0, fixture.server.baseUrl, {
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { record, outcome };
    },
  } as DownloadFixture;

  beforeAll(async () => {
    fixture.server = await startServer();
    fixture.png = await makeImage('png', 640, 480);
  });

  afterAll(async () => {
    for (const request of fixture.server.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers.cookie).toBeUndefined();
    }
    await fixture.server.close();
  });

  beforeEach(async () => {
    fixture.root = await tempFolder('gallery');
    const clock = new ManualClock();
    fixture.clock = clock;
    ({ gallery: fixture.gallery, intake: fixture.intake } = galleryOnServer(fixture.root, {
      downloadTimeoutMs: 5_000,
      now: () => clock.now(),
    }));
    await fixture.gallery.init();
  });

  afterEach(async () => {
    expect(await tempFiles(fixture.root)).toEqual([]);
    await removeFolder(fixture.root);
  });

  return fixture;
}

/** Asserts the outcome's state (printing the whole outcome when it differs) and narrows it. */
export function expectState<S extends DownloadOutcome['state']>(
  outcome: DownloadOutcome,
  state: S,
): Extract<DownloadOutcome, { state: S }> {
  expect(outcome.state, JSON.stringify(outcome)).toBe(state);
  return outcome as Extract<DownloadOutcome, { state: S }>;
}
