/**
 * Content Credentials verified in the image renderer's page, in Debian's Chromium, as the app
 * verifies them in its hidden sandboxed window: the page built by the release's own options (its
 * c2pa worker and c2pa-rs's WebAssembly module beside it), served under the page's own policy,
 * each file sent by a one-time address, each answer checked by the main side's schema. The
 * signed fixtures give the states Pictor records; the hostile manifest table gives `invalid` or
 * `unreadable` within the bounds, and the page keeps verifying after them.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RendererCredentialVerifier } from '../../../electron/core/content-credentials/renderer-verifier';
import { readTrustAnchors } from '../../../electron/core/content-credentials/trust-anchors';
import { PAGE_C2PA_WASM } from '../../../shared/image-renderer/protocol';
import { TEST_CA_PEM, c2paFixture } from '../../support/c2pa-hostile';
import {
  HOSTILE_MANIFESTS,
  SIGNED_FIXTURES,
  SIGNED_VERDICT,
  pixelsChangedPng,
} from '../../support/c2pa-hostile-cases';
import { makeRecord, serve, startServer } from '../../support/gallery-helpers';
import { startImagePageStand, type ImagePageStand } from '../../support/image-page-stand';
import { ENCODINGS, makeEncoded } from '../../unit/core/gallery/metadata/meta-helpers';
import { setUpPage, type PageSetup } from './page-setup';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The app's own bounds (RendererCredentialVerifier's defaults): 20 s a file. */
const TIMEOUT_MS = 20_000;
const FORMAT_OF = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;

let setup: PageSetup;
let stand: ImagePageStand;
let testList: RendererCredentialVerifier;
let shippedList: RendererCredentialVerifier;
/** While set, the stand holds every job's bytes back until it settles. */
let gate: Promise<void> | null = null;

beforeAll(async () => {
  setup = await setUpPage();
  stand = await startImagePageStand({
    browser: setup.browser,
    pageRoot: setup.pageRoot,
    jobTimeoutMs: 40_000,
    beforeServe: () => gate ?? Promise.resolve(),
  });
  testList = new RendererCredentialVerifier({
    renderer: stand.engine,
    trustAnchors: await readFile(TEST_CA_PEM, 'utf8'),
    timeoutMs: TIMEOUT_MS,
  });
  shippedList = new RendererCredentialVerifier({
    renderer: stand.engine,
    trustAnchors: await readTrustAnchors(),
  });
});

afterAll(async () => {
  await stand?.close();
  await setup?.close();
});

describe('the signed fixtures, verified in the page', () => {
  it.each(SIGNED_FIXTURES)(
    'a signed %s (%s) is valid and trusted against the test list',
    async (format, name) => {
      const bytes = c2paFixture(name);
      await expect(testList.verify({ bytes, format })).resolves.toEqual(SIGNED_VERDICT);
    },
  );

  it('loads c2pa-rs’s module from the page’s own folder, under the page’s policy', () => {
    const wasm = stand.pageServer.requests.filter((r) => r.url === `/${PAGE_C2PA_WASM}`);
    expect(wasm.length).toBeGreaterThan(0);
  });

  it('a signed image is valid but untrusted against the shipped list', async () => {
    const bytes = c2paFixture('signed.webp');
    await expect(shippedList.verify({ bytes, format: 'webp' })).resolves.toMatchObject({
      state: 'valid',
      signer: 'Pictor Test Signer',
      trusted: false,
    });
  });

  it('a signed PNG whose pixels changed is invalid, with C2PA’s own code', async () => {
    const verdict = await testList.verify({
      bytes: pixelsChangedPng(),
      format: 'png',
    });
    expect(verdict).toMatchObject({ state: 'invalid', signer: 'Pictor Test Signer' });
    expect(verdict.state === 'invalid' && verdict.codes).toContain('assertion.dataHash.mismatch');
  });

  it('through the download path: a signed image recorded valid, a plain one none', async () => {
    const server = await startServer();
    const root = await tempFolder('gallery');
    try {
      const { gallery, intake } = galleryOnServer(root, {
        credentials: testList,
        imageMetadata: { appVersion: '1.0.0' },
      });
      await gallery.init();
      const plain = await makeEncoded(ENCODINGS[0]!, 32, 24);
      const record = makeRecord([
        server.route('/signed.png', serve(c2paFixture('signed.png'), 'image/png')),
        server.route('/plain.png', serve(plain, 'image/png')),
      ]);
      const signed = await intake.downloadImage(record, 0, server.baseUrl);
      expect(signed).toMatchObject({
        state: 'saved',
        contentCredentials: { state: 'valid', trusted: true, signer: 'Pictor Test Signer' },
      });
      if (signed.state !== 'saved') return;
      expect((await readFile(gallery.resolve(signed.file))).equals(c2paFixture('signed.png'))).toBe(
        true,
      );
      await expect(intake.downloadImage(record, 1, server.baseUrl)).resolves.toMatchObject({
        state: 'saved',
        contentCredentials: { state: 'none' },
      });
    } finally {
      await removeFolder(root);
      await server.close();
    }
  });
});

describe('hostile manifests, verified in the page', () => {
  it.each(HOSTILE_MANIFESTS)(
    '%s: invalid or unreadable within the bounds',
    async (_name, make, type) => {
      const bytes = make();
      // Past the job's time limit a verdict is `unreadable`: no clock is read here, so a loaded
      // machine cannot fail a case that ends (the limit itself: renderer-verifier.test.ts).
      const verdict = await testList.verify({ bytes, format: FORMAT_OF[type] });
      expect(['invalid', 'unreadable']).toContain(verdict.state);
    },
  );

  it('keeps verifying honest images after them, on the same renderer: none crashed it', async () => {
    const bytes = c2paFixture('signed.jpg');
    await expect(testList.verify({ bytes, format: 'jpeg' })).resolves.toMatchObject({
      state: 'valid',
      trusted: true,
    });
    expect(stand.starts()).toBe(1);
  });
});

describe('the bounds', () => {
  it('a file whose verification overruns its time is unreadable; the next one is verified', async () => {
    const quick = new RendererCredentialVerifier({
      renderer: stand.engine,
      trustAnchors: await readFile(TEST_CA_PEM, 'utf8'),
      // Any limit is overrun: the gate holds the bytes until the verdict is in. 1.5 s here was
      // that much of an idle worker; a short one shows the same end of the job.
      timeoutMs: 200,
    });
    let release: () => void = () => undefined;
    gate = new Promise<void>((resolve) => (release = resolve));
    const bytes = c2paFixture('signed.png');
    // The page's job waits on its bytes, which do not come within the time limit.
    try {
      await expect(quick.verify({ bytes, format: 'png' })).resolves.toEqual({
        state: 'unreadable',
      });
    } finally {
      gate = null;
      release();
    }
    // The same renderer verifies the next file, at the verifier's usual limit (the limit is each
    // job's own; 1.5 s of real time for an honest file failed a run with two test files at once).
    await expect(testList.verify({ bytes, format: 'png' })).resolves.toMatchObject({
      state: 'valid',
    });
  });

  it('a file over the size limit is not sent to the page', async () => {
    const small = new RendererCredentialVerifier({
      renderer: stand.engine,
      trustAnchors: '',
      maxBytes: 1000,
    });
    const sent = stand.bytesServer.requests.length;
    const bytes = c2paFixture('signed.png');
    await expect(small.verify({ bytes, format: 'png' })).resolves.toEqual({ state: 'unreadable' });
    expect(stand.bytesServer.requests.length).toBe(sent);
  });
});
