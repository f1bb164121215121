/**
 * A hostile image host proposes file names two ways: the link's own path (`…/CON .png`,
 * `…/..%2F..%2Fevil.png`, a stream `image.png:$DATA`, a right-to-left override) and a
 * Content-Disposition header (`filename="../../evil.png"`, `filename*=UTF-8''..%2FCON.png`).
 * Neither ever names a file: the image is saved under the gallery's own name (gallery-layout.ts)
 * in its task's folder, and nothing else appears in the gallery or beside it. Real HTTP on
 * loopback, a real gallery on this disk.
 */
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { filesUnder } from '../../support/files';
import {
  makeImage,
  makeRecord,
  serve,
  startServer,
  type TestServer,
} from '../../support/gallery-helpers';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const LINK_PATHS = [
  '/CON%20.png',
  '/x/..%2F..%2Fevil.png',
  '/image.png%3A%24DATA',
  '/%E2%80%AEgnp.exe',
  `/${'a'.repeat(300)}.png`,
];
const DISPOSITIONS = [
  'attachment; filename="../../evil.png"',
  "attachment; filename*=UTF-8''..%2F..%2FCON.png",
  'inline; filename="nul .png"; filename*=UTF-8\'\'%E2%80%AEgnp.exe',
];

let host: TestServer;
let base: string;

beforeAll(async () => {
  host = await startServer();
  base = await tempFolder('gallery');
  const png = await makeImage('png', 8, 8);
  for (const path of LINK_PATHS) host.route(path, serve(png));
  DISPOSITIONS.forEach((value, n) =>
    host.route(`/named-${n}.png`, serve(png, 'image/png', { 'Content-Disposition': value })),
  );
});

afterAll(async () => {
  await host.close();
  await removeFolder(base);
});

const urls = () => [
  ...LINK_PATHS.map((path) => `${host.baseUrl}${path}`),
  ...DISPOSITIONS.map((_, n) => `${host.baseUrl}/named-${n}.png`),
];

describe('a name an image host proposes', () => {
  it('never names a file: each image is saved under the gallery’s own name', async () => {
    // The gallery two folders down in a folder of its own: an escape lands where it is seen.
    const root = join(base, 'beside', 'gallery');
    await mkdir(root, { recursive: true });
    const { gallery, intake } = galleryOnServer(root, { downloadTimeoutMs: 5_000 });
    await gallery.init();
    const expected: string[] = [];
    for (const url of urls()) {
      const record = makeRecord([url]);
      const outcome = await intake.downloadImage(record, 0, host.baseUrl);
      expect(outcome.state).toBe('saved');
      expected.push(`beside/gallery/${taskFolderName(record)}/image-1.png`);
    }
    const files = (await filesUnder(base)).map((file) => relative(base, file));
    expect(files.filter((file) => !file.includes('/.thumbs/')).sort()).toEqual(expected.sort());
  });
});
