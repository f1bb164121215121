/**
 * A proxied ComfyUI's key goes with its own `/view` images (its profile's `imagesTakeKey`), and a
 * key is bound to its base URL, an origin and a path prefix (key-binding.ts: one gateway may serve
 * several tenants under different paths). A hostile engine behind a gateway at `/comfy-a` answers
 * its image with a redirect to another path of the same origin (another tenant's, a collector's):
 * the key, looked up as the engine does (imageKeyFor), must not go there, whatever spelling of the
 * path is used, and the image is still fetched without it. It did: the key went to every hop at
 * the base URL's origin.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imageKeyFor } from '../../../electron/core/engine/image-key';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import type { Gallery } from '../../../electron/core/gallery/gallery';
import {
  makeImage,
  makeRecord,
  serve,
  startServer,
  type TestServer,
} from '../../support/gallery-helpers';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-proxy-comfy-6606-abcdef';
const ACCOUNT = 'acct-comfy-a';

let gateway: TestServer;
let root: string;
let gallery: Gallery;
let intake: ImageIntake;

/** Where the gateway's `/comfy-a/view` redirects, by the test's choice. */
let away = '';

beforeAll(async () => {
  gateway = await startServer();
  const png = await makeImage('png', 16, 16);
  gateway.route('/comfy-a/view', (_req, res) => res.writeHead(302, { Location: away }).end());
  gateway.route('/comfy-a/output.png', serve(png));
  for (const path of ['/team-b/collect', '/comfy-abc/collect', '/collect', '/comfy-a/..%2Fteam-b'])
    gateway.route(path, serve(png));
});

afterAll(async () => {
  await gateway.close();
});

beforeEach(async () => {
  root = await tempFolder('gallery');
  ({ gallery, intake } = galleryOnServer(root, { downloadTimeoutMs: 5_000 }));
  await gallery.init();
  gateway.requests.length = 0;
});

afterEach(async () => {
  await removeFolder(root);
});

/** A ComfyUI task of the gateway's `/comfy-a` tenant, its image fetched as the engine does. */
async function download(redirectTo: string) {
  away = redirectTo;
  const baseUrl = `${gateway.baseUrl}/comfy-a`;
  const url = `${baseUrl}/view?filename=a.png&subfolder=&type=output`;
  const record = makeRecord([url], { provider: 'comfyui', endpoint: baseUrl, account: ACCOUNT });
  const credentials = {
    credentialsFor: () =>
      Promise.resolve({ baseUrl, key: KEY, keyFingerprint: ACCOUNT, provider: 'comfyui' as const }),
  };
  const keyed = await imageKeyFor(record, credentials);
  expect(keyed).toBeDefined();
  return intake.downloadImage(record, 0, baseUrl, keyed ? { keyed } : {});
}

describe("a proxied ComfyUI's image redirected elsewhere on its gateway", () => {
  it('takes the key to its own tenant', async () => {
    const outcome = await download('/comfy-a/output.png');
    expect(outcome.state).toBe('saved');
    expect(gateway.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
  });

  it.each([
    ['another tenant', '/team-b/collect'],
    ['a path that only starts like it', '/comfy-abc/collect'],
    ['the origin root', '/collect'],
    ['a step back out of it', '/comfy-a/../team-b/collect'],
    ['a step back a decoding gateway would take', '/comfy-a/..%2Fteam-b'],
  ])('never takes the key to %s (the image still comes, keyless)', async (_name, path) => {
    const outcome = await download(path);
    expect(outcome.state).toBe('saved');
    const [view, hop] = gateway.requests;
    expect(view!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(hop!.headers.authorization).toBeUndefined();
  });
});
