/**
 * A real core (SQLite history, gallery on disk, the tests' image engine) that talks to nothing:
 * its fetch refuses every request, its credentials name the discard port on loopback (where no
 * service answers) and hold no key, its clock is a manual one at {@link OFFLINE_START}, its
 * loopback-owner gate reads nothing (owners-unread.ts; tests/unit/lint/manual-clock-gate.test.ts
 * judges the call below), and its workers start from the run's bundles (bundled-history-worker.ts).
 * For the tests of what the core does with its library alone: triage, templates, smart boards,
 * the history's worker, export and import, file modes. What a test needs otherwise it names (its
 * own clock, a key, a fetch, a logger…); what it leaves unnamed is as every such core had it.
 *
 * The core closes, and its temp folder is removed, when the test that opened it ends (vitest's
 * onTestFinished, which a beforeEach may call too): in every project, the `unit` ones too, whose
 * files have no tests/support/end-each-test-setup.ts to run afterEachTest's hooks. A test may
 * close it before; the close runs once.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import {
  openPictorCore,
  type PictorCore,
  type PictorCoreOptions,
} from '../../electron/core/pictor-core';
import { ManualClock } from '../fakes/manual-clock';
import { StaticCredentials } from '../fakes/static-credentials';
import { bundledCoreWorkers } from './bundled-history-worker';
import { testImageEngine } from './image-engine';
import { OWNERS_UNREAD } from './owners-unread';
import { testFolder } from './per-test';
import { makeImage, makeRecord } from '../unit/core/history/history-fixtures';

/** Where an offline core's credentials point: the discard port on loopback, where nothing answers. */
const OFFLINE_ADDRESS = 'http://127.0.0.1:9';

/** Where an offline core's own manual clock starts (2027-01-15 08:00 UTC). */
export const OFFLINE_START = 1_800_000_000_000;

export interface OfflineCoreOptions extends Partial<PictorCoreOptions> {
  /**
   * The library's folder: `data/` and `gallery/` under it unless `dataDir`/`galleryDir` are
   * given. Default a new temp folder, removed when the test ends.
   */
  readonly dir?: string;
  /** The key its credentials hold (at {@link OFFLINE_ADDRESS}); default none. */
  readonly key?: string | null;
}

/** An offline core and the folder it was opened in. */
export type OfflineCore = PictorCore & { readonly dir: string };

/**
 * A temp folder of the running test's own, removed when the test ends: for the library of several
 * offline cores a test opens in turn (`dir`), removed after those cores close (vitest ends a test's
 * onTestFinished hooks last registered first), or for any files a test writes (an export, a copy).
 */
export function offlineDir(): Promise<string> {
  return testFolder('offline-core');
}

/** Opens an offline core (this file's comment), ended when the test that opened it ends. */
export async function offlineCore(options: OfflineCoreOptions = {}): Promise<OfflineCore> {
  const { dir = await offlineDir(), key = null, ...named } = options;
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: () => Promise.reject(new Error('no network in this test')),
    credentials: new StaticCredentials(OFFLINE_ADDRESS, key),
    clock: new ManualClock(OFFLINE_START),
    ...bundledCoreWorkers(),
    ...named,
    // Named whatever the clock: a test that wants the real read says so (`localServers: {}`).
    localServers: named.localServers ?? OWNERS_UNREAD,
  });
  const close = core.close;
  let closing: Promise<void> | undefined;
  const once = () => (closing ??= close());
  onTestFinished(once);
  return Object.assign(core, { dir, close: once });
}

/**
 * An offline core whose history holds one completed task, `localId`, with one saved image: a real
 * 8×8 PNG and its WebP thumbnail on disk where the record says (an agent's get_image reads them).
 */
export async function offlineCoreWithImage(localId: string, options: OfflineCoreOptions = {}) {
  // Loaded here, not for every test of an offline core: sharp is a native module.
  const { default: sharp } = await import('sharp');
  const core = await offlineCore(options);
  const image = makeImage(0);
  core.history.putMany([
    makeRecord({ localId, createdAt: 1_700_000_000_000, status: 'completed', images: [image] }),
  ]);
  for (const [relative, format] of [
    [image.file, 'png'],
    [image.thumbnail, 'webp'],
  ] as const) {
    const path = core.gallery.resolve(relative ?? '');
    await mkdir(dirname(path), { recursive: true });
    const picture = sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 99, b: 199 } },
    });
    await writeFile(path, await picture.toFormat(format).toBuffer());
  }
  return { core, image };
}
