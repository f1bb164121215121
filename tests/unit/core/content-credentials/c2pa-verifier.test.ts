/**
 * The worker-thread verifier on the signed fixtures: the states Pictor records (trusted against
 * the test trust list, valid but untrusted against the list Pictor ships, invalid once the pixels
 * changed), and its bounds (size, time, a worker that never answers).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  C2paVerifier,
  VerifierUnavailableError,
} from '../../../../electron/core/content-credentials/c2pa-verifier';
import { readTrustAnchors } from '../../../../electron/core/content-credentials/trust-anchors';
import { SELECTIVE_VERDICT } from '../../../support/c2pa-crowd-label';
import { crowdedImage } from '../../../support/c2pa-crowded';
import { TEST_CA_PEM, c2paFixture } from '../../../support/c2pa-hostile';
import {
  SIGNED_FIXTURES,
  SIGNED_VERDICT,
  pixelsChangedPng,
} from '../../../support/c2pa-hostile-cases';

let testList: C2paVerifier;
let shippedList: C2paVerifier;

beforeAll(async () => {
  testList = new C2paVerifier({ trustAnchors: await readFile(TEST_CA_PEM, 'utf8') });
  shippedList = new C2paVerifier({ trustAnchors: await readTrustAnchors() });
});

afterAll(async () => {
  await Promise.all([testList.dispose(), shippedList.dispose()]);
});

describe('verifying Content Credentials in a worker thread', () => {
  it.each(SIGNED_FIXTURES)(
    'a signed %s (%s) is valid and trusted against the test list',
    async (format, name) => {
      const bytes = c2paFixture(name);
      await expect(testList.verify({ bytes, format })).resolves.toEqual(SIGNED_VERDICT);
    },
  );

  it.each(SIGNED_FIXTURES)(
    'a signed %s (%s) is valid but untrusted against the shipped list',
    async (format, name) => {
      const bytes = c2paFixture(name);
      await expect(shippedList.verify({ bytes, format })).resolves.toMatchObject({
        state: 'valid',
        trusted: false,
      });
    },
  );

  it('a signed PNG whose pixels changed is invalid, with C2PA’s own code', async () => {
    const bytes = pixelsChangedPng();
    const verdict = await testList.verify({ bytes, format: 'png' });
    expect(verdict).toMatchObject({ state: 'invalid', signer: 'Pictor Test Signer' });
    expect(verdict.state === 'invalid' && verdict.codes).toContain('assertion.dataHash.mismatch');
  });

  it('an image over the size limit is not sent to the worker', async () => {
    const small = new C2paVerifier({ trustAnchors: '', maxBytes: 1000 });
    try {
      const bytes = c2paFixture('signed.png');
      await expect(small.verify({ bytes, format: 'png' })).resolves.toEqual({
        state: 'unreadable',
      });
    } finally {
      await small.dispose();
    }
  });

  it('a worker that never answers is ended at the time limit; the next image gets a new one', async () => {
    const stuck = new C2paVerifier({
      trustAnchors: '',
      timeoutMs: 300,
      workerUrl: new URL('../../../support/stuck-c2pa-worker.ts', import.meta.url),
    });
    try {
      const bytes = c2paFixture('signed.png');
      // Each ends at its 300 ms limit; without the limit neither would, and the test's own time
      // limit would end it (no clock read here: a loaded machine cannot fail it).
      await expect(stuck.verify({ bytes, format: 'png' })).resolves.toEqual({
        state: 'unreadable',
      });
      await expect(stuck.verify({ bytes, format: 'png' })).resolves.toEqual({
        state: 'unreadable',
      });
    } finally {
      await stuck.dispose();
    }
  });

  it('verifies files side by side: one that keeps its worker busy holds up no other', async () => {
    const selective = new C2paVerifier({
      trustAnchors: '',
      // Far past the test's own limit: only the other worker can answer in time.
      timeoutMs: 600_000,
      workerUrl: new URL('../../../support/selective-c2pa-worker.ts', import.meta.url),
    });
    try {
      const aborting = new AbortController();
      const busy = selective.verify({
        bytes: crowdedImage('png', 10),
        format: 'png',
        signal: aborting.signal,
      });
      busy.catch(() => undefined);
      const honest = { bytes: c2paFixture('signed.png'), format: 'png' } as const;
      await expect(selective.verify(honest)).resolves.toEqual(SELECTIVE_VERDICT);
      // An abort ends the busy worker; the verifier goes on.
      aborting.abort(new Error('stopped'));
      await expect(busy).rejects.toThrow('stopped');
      await expect(selective.verify(honest)).resolves.toEqual(SELECTIVE_VERDICT);
    } finally {
      await selective.dispose();
    }
  });

  it('says it cannot run when its worker cannot start', async () => {
    const broken = new C2paVerifier({
      trustAnchors: '',
      workerUrl: new URL('../../../support/no-such-worker.ts', import.meta.url),
    });
    const bytes = c2paFixture('signed.png');
    await expect(broken.verify({ bytes, format: 'png' })).rejects.toBeInstanceOf(
      VerifierUnavailableError,
    );
    await broken.dispose();
  });
});
