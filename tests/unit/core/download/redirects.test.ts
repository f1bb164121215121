import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Gallery } from '../../../../electron/core/gallery/gallery';
import type { DownloadOutcome } from '../../../../electron/core/download/download-outcome';
import {
  makeImage,
  makeRecord,
  serve,
  startServer,
  tempFiles,
  type TestServer,
} from '../../../support/gallery-helpers';
import {
  downloadOptions,
  downloadWith,
  routedFetch,
  scriptedResolver,
} from '../../../support/pinned-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import type { ImageIntake } from '../../../../electron/core/download/image-intake';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let server: TestServer;
let root: string;
let gallery: Gallery;
let intake: ImageIntake;
let png: Buffer;

beforeAll(async () => {
  server = await startServer();
  png = await makeImage('png', 32, 32);
  server.route('/img.png', serve(png));
});

afterAll(async () => {
  for (const request of server.requests) expect(request.headers.authorization).toBeUndefined();
  await server.close();
});

beforeEach(async () => {
  root = await tempFolder('gallery');
  ({ gallery, intake } = galleryOnServer(root, { downloadTimeoutMs: 5_000 }));
  await gallery.init();
});

afterEach(async () => {
  expect(await tempFiles(root)).toEqual([]);
  await removeFolder(root);
});

function redirect(location: string, status = 302) {
  return server.route(`/to-${encodeURIComponent(location)}-${status}`, (_req, res) =>
    res.writeHead(status, { Location: location }).end(),
  );
}

async function fetchOutcome(url: string, baseUrl = server.baseUrl): Promise<DownloadOutcome> {
  return intake.downloadImage(makeRecord([url]), 0, baseUrl);
}

function hitsOf(path: string): number {
  return server.requests.filter((request) => request.path === path).length;
}

describe('redirects', () => {
  it('follows a chain of relative and absolute redirects of every kind', async () => {
    server.route('/chain/3', (_req, res) =>
      res.writeHead(308, { Location: `${server.baseUrl}/img.png` }).end(),
    );
    server.route('/chain/2', (_req, res) => res.writeHead(307, { Location: '3' }).end());
    server.route('/chain/1', (_req, res) => res.writeHead(303, { Location: '/chain/2' }).end());
    const start = server.route('/chain/0', (_req, res) =>
      res.writeHead(301, { Location: '../chain/1' }).end(),
    );
    expect(await fetchOutcome(start)).toMatchObject({ state: 'saved', width: 32, height: 32 });
  });

  it('stops a redirect loop after maxRedirects', async () => {
    const loop = server.route('/loop', (_req, res) =>
      res.writeHead(302, { Location: '/loop' }).end(),
    );
    const before = hitsOf('/loop');
    const outcome = await fetchOutcome(loop);
    expect(outcome).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(/more than 5 times/),
    });
    expect(hitsOf('/loop') - before).toBe(6);
  });

  it('allows exactly maxRedirects hops', async () => {
    let previous = `${server.baseUrl}/img.png`;
    for (let hop = 5; hop >= 1; hop -= 1) previous = redirect(previous, 302);
    expect((await fetchOutcome(previous)).state).toBe('saved');
  });

  it('treats a redirect without Location as invalid', async () => {
    const url = server.route('/nowhere', (_req, res) => res.writeHead(302).end());
    expect(await fetchOutcome(url)).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(/without saying where/),
    });
  });

  it.each([
    ['file:', 'file:///etc/passwd', /file:/],
    ['data:', 'data:image/png;base64,iVBORw0KGgo=', /data:/],
    ['a custom scheme', 'pictor-evil://steal/this', /pictor-evil:/],
    ['a private address', 'http://10.0.0.1/img.png', /private or link-local/],
    [
      'the cloud metadata address',
      'http://169.254.169.254/latest/meta-data/',
      /private or link-local/,
    ],
    ['a userinfo URL', 'http://user:pass@127.0.0.1/img.png', /user name or password/],
  ])('refuses a redirect to %s', async (_name, location, message) => {
    const outcome = await fetchOutcome(redirect(location));
    expect(outcome.state).toBe('invalid');
    expect(outcome.state !== 'saved' && outcome.error).toMatch(message);
  });

  it('refuses a redirect from a remote image host to this computer', async () => {
    // https://images.example resolves to a public address, which the pinned fetch routes to the
    // local server, so the second hop (a Location on loopback) meets the policy for a remote
    // service.
    const before = hitsOf('/img.png');
    const remote = downloadOptions(root, {
      resolver: scriptedResolver({ 'images.example': [['93.184.215.14']] }),
      imageFetch: routedFetch({ '93.184.215.14': server.baseUrl }),
    });
    server.route('/remote-redirect', (_req, res) =>
      res.writeHead(302, { Location: `${server.baseUrl}/img.png` }).end(),
    );
    const outcome = await downloadWith(
      remote,
      'https://images.example/remote-redirect',
      'https://example.com',
    );
    expect(outcome).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(/this computer/),
    });
    expect(hitsOf('/remote-redirect')).toBe(1);
    expect(hitsOf('/img.png')).toBe(before);
  });
});

describe('the URL itself', () => {
  it('refuses a URL with a user name and password, without connecting', async () => {
    const before = server.requests.length;
    const url = `http://user:secret@127.0.0.1:${new URL(server.baseUrl).port}/img.png`;
    expect(await fetchOutcome(url)).toMatchObject({
      state: 'invalid',
      error: expect.stringMatching(/user name or password/),
    });
    expect(server.requests.length).toBe(before);
  });

  it('refuses a loopback image URL when the service is remote, without connecting', async () => {
    const before = server.requests.length;
    expect((await fetchOutcome(`${server.baseUrl}/img.png`, 'https://example.com')).state).toBe(
      'invalid',
    );
    expect(server.requests.length).toBe(before);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/a.png', 'not a url'])(
    'refuses %s',
    async (url) => {
      expect((await fetchOutcome(url)).state).toBe('invalid');
    },
  );

  it('refuses everything when the base URL itself is unusable', async () => {
    expect(await fetchOutcome(`${server.baseUrl}/img.png`, 'demo:')).toMatchObject({
      state: 'invalid',
    });
  });
});
