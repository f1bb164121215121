/**
 * The set-up of the tests that download into a gallery from a loopback server, in one place: one
 * server for the file (or describe block) that calls {@link galleryPerTest}, and for every test a
 * gallery of its own (gallery-with-intake.ts). Kept apart from gallery-with-intake.ts, which child
 * processes outside vitest import too (the bench's, the crash tests').
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startServer, type TestServer } from './gallery-helpers';
import {
  galleryOnServer,
  type GalleryTestOptions,
  type GalleryWithIntake,
} from './gallery-with-intake';
import { fieldsOf, perTest } from './per-test';
import { removeFolder, tempFolder } from './temp-folders';

/** What {@link galleryPerTest} gives a test: read inside the test (or a hook after its own). */
export interface GalleryPerTest extends GalleryWithIntake {
  /** The file's loopback image server, started once for all its tests. */
  readonly server: TestServer;
  /** The test's own gallery folder. */
  readonly root: string;
}

/**
 * One loopback server for the file (or describe block) that calls this, and for every test a new
 * temp folder with a {@link galleryOnServer} gallery in it, initialised, the folder removed when
 * the test ends (after the file's own afterEach hooks, which may still look into it). `options`
 * may be a function, called for each test (a logger of the test's own).
 */
export function galleryPerTest(
  options: GalleryTestOptions | (() => GalleryTestOptions) = {},
): GalleryPerTest {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());
  const made = perTest(
    'galleryPerTest',
    async () => {
      const chosen = typeof options === 'function' ? options() : options;
      const root = await tempFolder('gallery');
      return { root, ...galleryOnServer(root, chosen) };
    },
    ({ root }) => removeFolder(root),
  );
  beforeEach(async () => {
    await made().gallery.init();
  });
  return fieldsOf(made, ['root', 'gallery', 'intake'], {
    get server() {
      if (server === undefined) throw new Error('galleryPerTest: read its server inside a test');
      return server;
    },
  });
}
