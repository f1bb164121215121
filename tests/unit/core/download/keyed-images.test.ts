/**
 * A service whose images are its own routes (a proxied ComfyUI's `/view`) has its key sent with
 * them: under the service's own base URL only, never to another host an image link or a redirect
 * names, and never when no key is given for images.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImageIntake } from '../../../../electron/core/download/image-intake';
import type { Gallery } from '../../../../electron/core/gallery/gallery';
import {
  makeImage,
  makeRecord,
  serve,
  startServer,
  type TestServer,
} from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const HEADERS = { Authorization: 'Bearer proxy-key-123456' };

let own: TestServer;
let other: TestServer;
let root: string;
let gallery: Gallery;
let intake: ImageIntake;

beforeAll(async () => {
  [own, other] = await Promise.all([startServer(), startServer()]);
  const png = await makeImage('png', 16, 16);
  own.route('/view', serve(png));
  other.route('/elsewhere.png', serve(png));
  own.route('/away', (_req, res) =>
    res.writeHead(302, { Location: `${other.baseUrl}/elsewhere.png` }).end(),
  );
});

afterAll(async () => {
  await Promise.all([own.close(), other.close()]);
});

beforeEach(async () => {
  root = await tempFolder('gallery');
  ({ gallery, intake } = galleryOnServer(root, { downloadTimeoutMs: 5_000 }));
  await gallery.init();
  own.requests.length = 0;
  other.requests.length = 0;
});

afterEach(async () => {
  await removeFolder(root);
});

function download(url: string, keyed?: { baseUrl: string; headers: Record<string, string> }) {
  return intake.downloadImage(makeRecord([url]), 0, own.baseUrl, keyed ? { keyed } : {});
}

const keyedAt = (server: TestServer) => ({
  baseUrl: server.baseUrl,
  headers: HEADERS,
});

describe('an image link that takes the service’s key', () => {
  it('carries it to the service’s own origin', async () => {
    const outcome = await download(`${own.baseUrl}/view?filename=a.png`, keyedAt(own));
    expect(outcome.state).toBe('saved');
    expect(own.requests.map((request) => request.headers.authorization)).toEqual([
      HEADERS.Authorization,
    ]);
  });

  it('never to the host a redirect away names', async () => {
    const outcome = await download(`${own.baseUrl}/away`, keyedAt(own));
    expect(outcome.state).toBe('saved');
    expect(own.requests[0]!.headers.authorization).toBe(HEADERS.Authorization);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('never to a link at another origin', async () => {
    const outcome = await download(`${other.baseUrl}/elsewhere.png`, keyedAt(own));
    expect(outcome.state).toBe('saved');
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('and not at all when no key is given for images', async () => {
    await download(`${own.baseUrl}/view?filename=a.png`);
    expect(own.requests[0]!.headers.authorization).toBeUndefined();
  });
});
