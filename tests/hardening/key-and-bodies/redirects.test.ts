/**
 * Redirects, end to end over real HTTP: the engine's service requests and image
 * downloads meet redirects to another origin, to file:, data: and custom schemes, from a public
 * host to private and loopback addresses, and loops. Every server records the headers it saw,
 * so "the key went nowhere else" and "the hops were bounded" are counted, not assumed.
 * Unit-level cases (each status, userinfo, opaque redirects, POST 301/302) are in
 * tests/unit/core/download/redirects.test.ts and tests/unit/core/service/service-client-redirects.test.ts.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import type { FetchLike } from '../../../electron/ports/http';
import { StaticCredentials } from '../../fakes/static-credentials';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { randomPng } from './hostile-bodies';
import { startFakeService, startRawHost, startRedirectingServer, type RawHost } from './raw-hosts';
import {
  downloadOptions,
  downloadWith,
  routedFetch,
  scriptedResolver,
} from '../../support/pinned-helpers';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/key-and-bodies/redirects.test.ts';
const KEY = `sk-redirect-${Date.now().toString(16)}`;
const GALLERY_MAX_REDIRECTS = 5;
const CLIENT_MAX_REDIRECTS = 3;

let a: RawHost;
let b: RawHost;
let dir: string;
let goodPng: Buffer;
const cleanups: (() => Promise<void>)[] = [];
const figures = {
  redirects: 0,
  refused: 0,
  keyAtOtherOrigins: 0,
  hopsSeen: 0,
  authOnImages: 0,
  keyInErrors: 0,
};

beforeAll(async () => {
  [a, b] = await Promise.all([startRawHost(), startRawHost()]);
  goodPng = await randomPng(40, 30);
  dir = await tempFolder('redirects');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  // No image host ever saw a key, whatever the test did.
  const withAuth = [...a.requests, ...b.requests].filter((r) => 'authorization' in r.headers);
  expect(withAuth).toEqual([]);
  await Promise.all([a.close(), b.close()]);
  await removeFolder(dir);
});

function png() {
  return {
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(goodPng.length) },
    body: [goodPng],
  };
}

function redirect(location: string, status = 302) {
  return () => ({ status, headers: { Location: location, 'Content-Length': '0' } });
}

function hits(host: RawHost, prefix: string): number {
  return host.requests.filter((request) => request.path.startsWith(prefix)).length;
}

async function openCore(baseUrl: string, fetchPort: FetchLike, name: string): Promise<PictorCore> {
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, name, 'data'),
    galleryDir: join(dir, name, 'gallery'),
    fetch: fetchPort,
    credentials: new StaticCredentials(baseUrl, KEY),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 100, maxBackoffMs: 300, maxDownloadAttempts: 1 },
  });
  cleanups.push(() => core.close());
  core.engine.start();
  return core;
}

/** Submits one task, waits for it to settle, returns it. */
async function runTask(core: PictorCore, baseUrl: string, prompt: string) {
  const [record] = await core.engine.submit({ prompt }, targetAt(baseUrl), 1);
  const [done] = await core.engine.whenSettled([record!.localId]);
  return done!;
}

describe('image downloads through the engine', () => {
  it('follow a redirect to another origin without the key, refuse other schemes, bound loops', async () => {
    a.route('/hop.png', redirect(b.route('/final.png', png)));
    // Ping-pong between two origins, and a chain of 12 distinct hops: both must stop at the limit.
    a.route('/ping', redirect(`${b.origin}/pong`));
    b.route('/pong', redirect(`${a.origin}/ping`));
    for (let hop = 0; hop < 12; hop += 1)
      a.route(`/chain/${hop}`, redirect(`${hop % 2 ? a.origin : b.origin}/chain/${hop + 1}`));
    for (let hop = 1; hop <= 12; hop += 1)
      b.route(`/chain/${hop}`, redirect(`${hop % 2 ? a.origin : b.origin}/chain/${hop + 1}`));
    const images = [
      [`${a.origin}/hop.png`, 'saved', null],
      [a.route('/to-file', redirect('file:///etc/passwd')), 'invalid', /file:/],
      [
        a.route('/to-data', redirect('data:image/png;base64,iVBORw0KGgo=', 301)),
        'invalid',
        /data:/,
      ],
      [a.route('/to-custom', redirect('pictor-evil://steal/this', 307)), 'invalid', /pictor-evil:/],
      [a.route('/to-js', redirect('javascript:alert(1)', 308)), 'invalid', /javascript:/],
      [`${a.origin}/ping`, 'invalid', /more than 5 times/],
      [`${a.origin}/chain/0`, 'invalid', /more than 5 times/],
    ] as const;
    const service = await startFakeService(() => ({ images: images.map(([url]) => url) }));
    cleanups.push(() => service.close());
    const core = await openCore(service.origin, (url, init) => fetch(url, init), 'images');
    const done = await runTask(core, service.origin, 'redirected images');
    expect(done.status).toBe('completed');
    for (const [index, [, state, message]] of images.entries()) {
      const image = done.images[index]!;
      expect(image.state, `image ${index}: ${JSON.stringify(image)}`).toBe(state);
      if (message) expect(image.error).toMatch(message);
      figures.redirects += 1;
      if (state === 'invalid') figures.refused += 1;
    }
    // The loops: the servers saw exactly the first request plus the allowed hops, no more.
    const pingPong = hits(a, '/ping') + hits(b, '/pong');
    const chain = hits(a, '/chain/') + hits(b, '/chain/');
    expect(pingPong).toBe(GALLERY_MAX_REDIRECTS + 1);
    expect(chain).toBe(GALLERY_MAX_REDIRECTS + 1);
    figures.hopsSeen += pingPong + chain;
    expect(b.requests.filter((r) => r.path === '/final.png')).toHaveLength(1);
    expect(service.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    figures.authOnImages += [...a.requests, ...b.requests].filter(
      (r) => 'authorization' in r.headers,
    ).length;
  });

  it('from a public image host refuse private, link-local and loopback targets without connecting', async () => {
    // https://images.example.test resolves to a public address; the pinned fetch carries that
    // address to the loopback server a and records every address the core pinned. (Through the
    // gallery's downloader: the core options do not take image ports yet.)
    a.route('/to-private', redirect('http://10.0.0.1/x.png'));
    a.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
    a.route('/to-loopback', redirect(`${b.origin}/final.png`));
    a.route('/good.png', png);
    const resolver = scriptedResolver({ 'images.example.test': [['93.184.215.14']] });
    const imageFetch = routedFetch({ '93.184.215.14': a.origin });
    const settings = downloadOptions(join(dir, 'public'), { resolver, imageFetch });
    const finalsBefore = hits(b, '/final.png');
    const outcomes = [];
    for (const path of ['/to-private', '/to-metadata', '/to-loopback', '/good.png']) {
      const url = `https://images.example.test${path}`;
      outcomes.push(await downloadWith(settings, url, 'https://api.example.test'));
    }
    expect(outcomes.map((outcome) => outcome.state)).toEqual([
      'invalid',
      'invalid',
      'invalid',
      'saved',
    ]);
    const errors = outcomes.map((outcome) => ('error' in outcome ? outcome.error : ''));
    expect(errors[0]).toMatch(/private or link-local/);
    expect(errors[1]).toMatch(/private or link-local/);
    expect(errors[2]).toMatch(/this computer/);
    expect(imageFetch.pins.map((pin) => pin.address)).toEqual(Array(4).fill('93.184.215.14'));
    expect(hits(b, '/final.png')).toBe(finalsBefore);
    figures.redirects += 3;
    figures.refused += 3;
  });
});

/** A redirecting service, closed after the test. */
async function redirectingService(status: number, location: (path: string) => string) {
  const server = await startRedirectingServer(status, location);
  cleanups.push(server.close);
  return server;
}

describe('service requests', () => {
  const other = () => startFakeService(() => ({ images: [] }));

  it.each([301, 302, 303, 307, 308])(
    'a %d to another origin: submit and poll stop, the other origin receives nothing',
    async (status) => {
      const elsewhere = await other();
      cleanups.push(() => elsewhere.close());
      const service = await redirectingService(status, (path) => `${elsewhere.origin}${path}`);
      const client = new ServiceClient({
        fetch: (url, init) => fetch(url, init),
        ...bundledAnswers(),
      });
      const creds = { baseUrl: service.origin, key: KEY, keyFingerprint: 'acct' };
      for (const call of [
        () => client.submit(creds, { prompt: 'p' }),
        () => client.getTask(creds, 't-1'),
      ]) {
        const error = (await call().catch((caught: unknown) => caught)) as Error & {
          detail?: string;
        };
        expect(error.message).toMatch(/did not send the key there/);
        const told = `${error.message} ${error.detail ?? ''} ${error.stack ?? ''}`;
        if (told.includes(KEY)) figures.keyInErrors += 1;
        expect(told).not.toContain(KEY);
        figures.refused += 1;
        figures.redirects += 1;
      }
      expect(service.requests.map((r) => r.headers.authorization)).toEqual([
        `Bearer ${KEY}`,
        `Bearer ${KEY}`,
      ]);
      figures.keyAtOtherOrigins += elsewhere.requests.length;
      expect(elsewhere.requests).toEqual([]);
    },
  );

  it.each([
    ['another origin', (origin: string) => `${origin}/v1/images/generations`],
    ['file:', () => 'file:///etc/passwd'],
    ['data:', () => 'data:application/json,{"id":"x"}'],
    ['a custom scheme', () => 'pictor-evil://steal'],
  ])(
    'through the engine, a submit redirected to %s fails clearly, no key sent there',
    async (_name, target) => {
      const elsewhere = await other();
      cleanups.push(() => elsewhere.close());
      const service = await redirectingService(307, () => target(elsewhere.origin));
      const core = await openCore(
        service.origin,
        (url, init) => fetch(url, init),
        `submit-${figures.redirects}`,
      );
      const done = await runTask(core, service.origin, 'redirected submit');
      expect(done.status).toBe('submit_failed');
      expect(done.error?.message).toMatch(
        /redirected the request to another address, and Pictor did not send the key there/,
      );
      if (JSON.stringify(done).includes(KEY)) figures.keyInErrors += 1;
      expect(JSON.stringify(done)).not.toContain(KEY);
      expect(service.requests).toHaveLength(1);
      figures.keyAtOtherOrigins += elsewhere.requests.length;
      expect(elsewhere.requests).toEqual([]);
      figures.redirects += 1;
      figures.refused += 1;
    },
  );

  it('a poll redirect loop and a long same-origin chain stop at the client limit', async () => {
    const loop = await redirectingService(302, (path) => path);
    const chain = await redirectingService(307, (path) => `${path}x`);
    const client = new ServiceClient({
      fetch: (url, init) => fetch(url, init),
      ...bundledAnswers(),
    });
    for (const server of [loop, chain]) {
      const creds = { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct' };
      const error = (await client
        .getTask(creds, 'loop')
        .catch((caught: unknown) => caught)) as Error;
      expect(error.message).toMatch(/kept redirecting/);
      expect(server.requests).toHaveLength(CLIENT_MAX_REDIRECTS + 1);
      figures.hopsSeen += server.requests.length;
      figures.redirects += 1;
      figures.refused += 1;
    }
    expect(chain.requests.at(-1)?.path).toBe(`/v1/tasks/loop${'x'.repeat(CLIENT_MAX_REDIRECTS)}`);
    recordReliability({
      section: 'hostile-input',
      row: 'Redirects (service requests and image downloads)',
      load: 'engine and ServiceClient over real HTTP: cross-origin, file:/data:/custom/javascript:, private targets, loops',
      injected: {
        'redirects served': figures.redirects,
        'redirect hops counted at the servers': figures.hopsSeen,
      },
      outcome: {
        'refused with a clear error': figures.refused,
        'requests that reached another origin with the key': figures.keyAtOtherOrigins,
        'image requests carrying Authorization': figures.authOnImages,
        'errors or records holding the key': figures.keyInErrors,
        'longest chain followed (gallery / service client)': `${GALLERY_MAX_REDIRECTS} / ${CLIENT_MAX_REDIRECTS}`,
      },
      // Redirects refused or followed: no task is counted here.
      lost: NOT_MEASURED,
      duplicated: NOT_MEASURED,
      leaked: figures.keyAtOtherOrigins + figures.authOnImages + figures.keyInErrors,
      file: FILE,
    });
  });
});
