/**
 * Hostile C2PA manifests, served by a hostile image host over loopback to the real download path
 * (gallery → detection → the worker-thread verifier): a huge JUMBF (declared, and real), a deeply
 * nested one, a manifest that claims another file's hash, a credential in a file whose other
 * chunks lie, a store split across 1,000 APP11 segments. Each ends `invalid` or `unreadable`
 * (past the verifier's time limit, unreadable); the image is never lost (saved exactly as it came,
 * its XMP beside it) and this process (the main side) never crashes. The time limit itself is shown
 * on a worker that never answers (tests/unit/core/content-credentials); no clock is read here, so
 * a loaded machine cannot fail a case that ends.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import { TEST_CA_PEM, c2paFixture } from '../../support/c2pa-hostile';
import { HOSTILE_MANIFESTS } from '../../support/c2pa-hostile-cases';
import { makeRecord, serve, tempFiles } from '../../support/gallery-helpers';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { galleryPerTest } from '../../support/gallery-per-test';

const TIMEOUT_MS = 8_000;

let verifier: C2paVerifier;
const fixture = galleryPerTest(() => ({
  credentials: verifier,
  downloadTimeoutMs: 20_000,
  imageMetadata: { appVersion: '9.9.9' },
}));
const outcomes: Record<string, number> = {};
/** Each case's verdict, printed once: the threat table in the docs quotes it. */
const verdicts: Record<string, string> = {};
/** Counted before the checks: images not saved or not kept byte for byte, temp files left. */
const counted = { lost: 0, tempFilesLeft: 0 };

beforeAll(async () => {
  verifier = new C2paVerifier({
    trustAnchors: await readFile(TEST_CA_PEM, 'utf8'),
    timeoutMs: TIMEOUT_MS,
  });
});
afterAll(async () => {
  console.log(`c2pa verdicts: ${JSON.stringify(verdicts, null, 1)}`);
  await verifier.dispose();
  recordReliability({
    section: 'hostile-input',
    row: 'Hostile C2PA manifests',
    load: `${Object.values(outcomes).reduce((a, b) => a + b, 0)} crafted signed images, one download each`,
    injected: { crafted: Object.values(outcomes).reduce((a, b) => a + b, 0) },
    outcome: { ...outcomes, 'temporary files left': counted.tempFilesLeft },
    lost: counted.lost,
    // One download per image: nothing here could run twice.
    duplicated: NOT_MEASURED,
    leaked: counted.tempFilesLeft,
    file: 'tests/hardening/hostile/c2pa-manifests.test.ts',
  });
});
afterEach(async () => {
  const left = await tempFiles(fixture.root);
  counted.tempFilesLeft += left.length;
  expect(left).toEqual([]);
});

describe('a hostile manifest in a downloaded image', () => {
  it.each(HOSTILE_MANIFESTS)(
    '%s: invalid or unreadable in bounds, the image kept as it came',
    async (name, make, type) => {
      const body = make();
      const url = fixture.server.route(
        `/${name.replace(/\W+/g, '-')}-${fixture.root.slice(-6)}`,
        serve(body, type),
      );
      const record = makeRecord([url]);
      const outcome: DownloadOutcome = await fixture.intake.downloadImage(
        record,
        0,
        fixture.server.baseUrl,
      );
      if (outcome.state !== 'saved') {
        counted.lost += 1;
        throw new Error(`${name}: ${JSON.stringify(outcome)}`);
      }
      const state = outcome.contentCredentials?.state ?? 'missing';
      outcomes[state] = (outcomes[state] ?? 0) + 1;
      verdicts[name] = JSON.stringify(outcome.contentCredentials);
      expect(['invalid', 'unreadable']).toContain(state);
      // Never lost, never edited: the bytes the host sent, the XMP beside them.
      const kept = (await readFile(fixture.gallery.resolve(outcome.file))).equals(body);
      if (!kept) counted.lost += 1;
      expect(kept).toBe(true);
      expect(outcome.xmpFile).toMatch(/image-1\.xmp$/);
    },
  );

  it('leaves the verifier working for the next, honest image', async () => {
    const body = c2paFixture('signed.webp');
    const url = fixture.server.route(
      `/honest-${fixture.root.slice(-6)}.webp`,
      serve(body, 'image/webp'),
    );
    const outcome = await fixture.intake.downloadImage(
      makeRecord([url]),
      0,
      fixture.server.baseUrl,
    );
    expect(outcome).toMatchObject({
      state: 'saved',
      contentCredentials: { state: 'valid', trusted: true },
    });
  });
});
