/**
 * `pictor self-test` under Node with a sharp engine (tests/fakes/sharp-image-engine.ts): it passes
 * on a sound installation, each format and each Content Credentials verifier a step of its own,
 * and fails, naming the step, on each fault it exists to catch: an image engine that cannot
 * decode, answers the wrong size, makes no thumbnail or a wrong one, crashes or hangs; an SQLite
 * without FTS5; a verifier that cannot load or misreads the signed sample; an encryption check
 * that throws or never answers (its time limit fires: the limits run on a manual clock here).
 */
import { readdir } from 'node:fs/promises';
import { DatabaseSync, type DatabaseSyncOptions } from 'node:sqlite';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  ContentCredentialVerifier,
  CredentialVerdict,
} from '../../../../electron/ports/content-credential-verifier';
import {
  C2paVerifier,
  VerifierUnavailableError,
} from '../../../../electron/core/content-credentials/c2pa-verifier';
import {
  ImageEngineError,
  type ImageEngine,
  type ThumbnailAnswer,
} from '../../../../electron/ports/image-engine';
import { selfTestImages } from '../../../../electron/core/self-test/self-test-images';
import {
  runSelfTest,
  type SelfTestOptions,
  type SelfTestReport,
} from '../../../../electron/core/self-test/self-test';
import { sharpImageEngine } from '../../../fakes/sharp-image-engine';
import { ManualClock } from '../../../fakes/manual-clock';
import { UNTIL } from '../../../support/waits';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const ALL_BUT_RENDERER = [
  'history',
  'image-png',
  'image-jpeg',
  'image-webp',
  'xmp',
  'credentials',
  'c2pa-worker',
  'encryption',
];

/** A verifier that answers `answer` (or fails with it), counting its disposals. */
function fakeVerifier(answer: CredentialVerdict | Error) {
  const seen = { anchors: [] as string[], disposed: 0 };
  const make = (trustAnchors: string): ContentCredentialVerifier => {
    seen.anchors.push(trustAnchors);
    return {
      verify: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
      dispose: async () => void (seen.disposed += 1),
    };
  };
  return { make, seen };
}

let root = '';
beforeAll(async () => {
  root = await tempFolder('self-test-unit');
});
afterAll(async () => {
  await removeFolder(root);
});

/**
 * The core's worker-thread verifier, one for the file per trust list: every run's c2pa-worker
 * step still verifies the signed sample in a real worker thread, which starts (its modules and
 * c2pa-rs's WebAssembly loaded) once for the file instead of at each run, a third of a second of
 * CPU each. The run's `dispose` of it leaves it running; afterAll ends it. 'a sound installation'
 * runs the self-test's own default, a verifier started and ended by the run.
 */
const sharedWorkers = new Map<string, C2paVerifier>();
function sharedWorkerVerifier(trustAnchors: string): ContentCredentialVerifier {
  const verifier = sharedWorkers.get(trustAnchors) ?? new C2paVerifier({ trustAnchors });
  sharedWorkers.set(trustAnchors, verifier);
  return { verify: (request) => verifier.verify(request), dispose: async () => undefined };
}
afterAll(async () => {
  for (const verifier of sharedWorkers.values()) await verifier.dispose();
});

function options(
  overrides: Partial<SelfTestOptions> = {},
  worker: 'shared' | 'its own' = 'shared',
): SelfTestOptions {
  return {
    engine: sharpImageEngine(),
    encryption: async () => ({ state: 'not applicable' }),
    version: '1.2.3',
    tempRoot: root,
    ...(worker === 'shared' ? { workerVerifier: sharedWorkerVerifier } : {}),
    ...overrides,
  };
}

/** The sharp engine with its thumbnail answer replaced. */
function brokenEngine(answer: ThumbnailAnswer | ImageEngine['thumbnail']): ImageEngine {
  return {
    ...sharpImageEngine(),
    thumbnail: typeof answer === 'function' ? answer : async () => answer,
  };
}

function failure(report: SelfTestReport): { failed?: string; error?: string } {
  const step = report.steps.find((item) => !item.ok);
  return { failed: report.failed, error: step && !step.ok ? step.error : undefined };
}

describe('the embedded images', () => {
  it.each(selfTestImages().map((image) => [image.header.format, image] as const))(
    '%s is what its header says, and decodes',
    async (_format, image) => {
      const meta = await sharp(image.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([
        image.header.format,
        image.header.width,
        image.header.height,
      ]);
      await expect(sharp(image.bytes, { failOn: 'error' }).raw().toBuffer()).resolves.toBeDefined();
    },
  );
});

describe('a sound installation', () => {
  it('passes every step, reports the engine and the encryption, and leaves no folder', async () => {
    const report = await runSelfTest(
      options(
        { encryption: async () => ({ state: 'available', backend: 'gnome_libsecret' }) },
        'its own',
      ),
    );
    expect(report.steps.map((step) => [step.step, step.ok])).toEqual(
      ALL_BUT_RENDERER.map((step) => [step, true]),
    );
    expect(report).toMatchObject({
      ok: true,
      version: '1.2.3',
      imageEngine: 'sharp-native',
      encryption: { state: 'available', backend: 'gnome_libsecret' },
      runtime: { node: process.versions.node },
    });
    expect(report.failed).toBeUndefined();
    expect(await readdir(root)).toEqual([]);
  });
});

describe('the faults it exists to catch', () => {
  it.each([
    [
      'cannot decode',
      brokenEngine({ kind: 'undecodable', detail: 'bad' }),
      /could not decode the PNG image/,
    ],
    [
      'answers another size',
      brokenEngine({ kind: 'thumbnail', width: 1, height: 1, webp: new Uint8Array(8) }),
      /PNG image decoded as 1x1, not 40x24/,
    ],
    [
      'makes no thumbnail (header only)',
      { ...brokenEngine({ kind: 'pending' }), name: 'header-only' as const },
      /the header-only image engine made no PNG thumbnail/,
    ],
    [
      'answers a PNG as the thumbnail',
      brokenEngine(async () => ({
        kind: 'thumbnail',
        width: 40,
        height: 24,
        webp: selfTestImages()[0]!.bytes,
      })),
      /PNG thumbnail is not a WebP image/,
    ],
    [
      'does not shrink the image',
      brokenEngine(async () => ({
        kind: 'thumbnail',
        width: 40,
        height: 24,
        webp: await sharp(selfTestImages()[0]!.bytes).webp().toBuffer(),
      })),
      /PNG thumbnail is 40x24, larger than 16 pixels/,
    ],
    [
      'crashes',
      brokenEngine(() =>
        Promise.reject(new ImageEngineError('the image renderer crashed', 'crashed')),
      ),
      /the image renderer crashed/,
    ],
  ] as const)('an image engine that %s fails the image steps', async (_what, engine, error) => {
    const report = await runSelfTest(options({ engine }));
    expect(report.ok).toBe(false);
    expect(failure(report)).toMatchObject({
      failed: 'image-png',
      error: expect.stringMatching(error),
    });
    // The other steps still ran: the report says everything it could find out.
    expect(report.steps.filter((step) => step.ok).map((step) => step.step)).toEqual([
      'history',
      'xmp',
      'credentials',
      'c2pa-worker',
      'encryption',
    ]);
  });

  it('an engine that decodes all but WebP fails that format’s step only', async () => {
    const engine = sharpImageEngine();
    const report = await runSelfTest(
      options({
        engine: {
          ...engine,
          thumbnail: async (request) =>
            request.header.format === 'webp'
              ? { kind: 'undecodable', detail: 'no WebP decoder' }
              : engine.thumbnail(request),
        },
      }),
    );
    expect(report.steps.filter((step) => !step.ok).map((step) => step.step)).toEqual([
      'image-webp',
    ]);
  });

  it('an image engine that never answers fails each image step at its time limit', async () => {
    const clock = new ManualClock();
    const asked: string[] = [];
    const engine = brokenEngine((request) => {
      asked.push(request.header.format);
      return new Promise(() => undefined);
    });
    const running = runSelfTest(options({ engine, clock, stepTimeoutMs: 60_000 }));
    for (const format of ['png', 'jpeg', 'webp']) {
      await vi.waitFor(() => expect(asked.at(-1)).toBe(format), UNTIL);
      await clock.advance(60_000);
    }
    const report = await running;
    expect(report.steps.filter((step) => !step.ok)).toEqual(
      ['image-png', 'image-jpeg', 'image-webp'].map((step) => ({
        step,
        ok: false,
        ms: expect.any(Number),
        error: 'it did not finish within 60000 ms',
      })),
    );
  });

  it('a host without an image engine fails the image steps, saying so', async () => {
    const report = await runSelfTest(options({ engine: null }));
    expect(report.imageEngine).toBe('none');
    expect(failure(report)).toEqual({
      failed: 'image-png',
      error: 'this host has no image engine',
    });
  });

  it('an SQLite without FTS5 fails the history step', async () => {
    class WithoutFts5 extends DatabaseSync {
      override exec(sql: string): void {
        if (/\bfts5\b/i.test(sql)) throw new Error('no such module: fts5');
        super.exec(sql);
      }
    }
    const report = await runSelfTest(
      options({
        database: (file: string, settings: DatabaseSyncOptions) => new WithoutFts5(file, settings),
      }),
    );
    expect(report.ok).toBe(false);
    expect(failure(report)).toEqual({
      failed: 'history',
      error: expect.stringContaining('(no such module: fts5)'),
    });
    expect(report.steps.map((step) => step.ok)).toEqual([
      false,
      ...ALL_BUT_RENDERER.slice(1).map(() => true),
    ]);
  });

  it.each([
    ['missing (read as no text)', ''],
    ['without a certificate', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'],
  ])('a trust list %s fails the credentials step', async (_what, pem) => {
    const report = await runSelfTest(options({ trustAnchors: async () => pem }));
    expect(failure(report)).toEqual({
      failed: 'credentials',
      error: 'the Content Credentials trust list is missing or holds no certificate',
    });
  });

  it('an encryption probe that never answers (a keychain prompt nobody sees) fails at its time limit', async () => {
    const clock = new ManualClock();
    let asked = 0;
    const running = runSelfTest(
      options({
        clock,
        stepTimeoutMs: 60_000,
        encryption: () => {
          asked += 1;
          return new Promise(() => undefined);
        },
      }),
    );
    await vi.waitFor(() => expect(asked).toBe(1), UNTIL);
    await clock.advance(60_000);
    const report = await running;
    expect(failure(report)).toEqual({
      failed: 'encryption',
      error: 'it did not finish within 60000 ms',
    });
    expect(report.encryption).toEqual({ state: 'unavailable' });
  });

  it('an encryption check that throws fails the encryption step', async () => {
    const report = await runSelfTest(
      options({
        encryption: () => Promise.reject(new Error('safeStorage is not ready')),
      }),
    );
    expect(failure(report)).toEqual({ failed: 'encryption', error: 'safeStorage is not ready' });
  });
});

describe('the Content Credentials steps', () => {
  it('verify the signed sample in the worker thread and in the host’s renderer, each a step', async () => {
    const renderer = fakeVerifier({
      state: 'valid',
      signer: 'Pictor Test Signer',
      generator: 'Pictor Test Image Service 1.0',
      trusted: true,
      aiGenerated: true,
    });
    const report = await runSelfTest(options({ rendererVerifier: renderer.make }));
    expect(report.steps.map((step) => step.step)).toEqual([
      ...ALL_BUT_RENDERER.slice(0, 6),
      'c2pa-renderer',
      'c2pa-worker',
      'encryption',
    ]);
    expect(report.ok).toBe(true);
    // Given the sample's own test CA as the trust list, and ended after.
    expect(renderer.seen.anchors[0]).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(renderer.seen.disposed).toBe(1);
  });

  it.each([
    [
      'cannot load its library',
      new VerifierUnavailableError('the module did not load'),
      /did not load/,
    ],
    [
      'reads the sample as unsigned garbage',
      { state: 'unreadable' } as const,
      /read as \{"state":"unreadable"\}/,
    ],
    [
      'does not chain the signer to the trust list it was given',
      {
        state: 'valid',
        signer: 'Pictor Test Signer',
        generator: 'Pictor Test Image Service 1.0',
        trusted: false,
        aiGenerated: true,
      } as const,
      /"trusted":false/,
    ],
  ])('a renderer verifier that %s fails c2pa-renderer', async (_what, answer, error) => {
    const renderer = fakeVerifier(answer);
    const report = await runSelfTest(options({ rendererVerifier: renderer.make }));
    expect(failure(report)).toMatchObject({
      failed: 'c2pa-renderer',
      error: expect.stringMatching(error),
    });
    expect(renderer.seen.disposed).toBe(1);
  });

  it('a worker verifier that misreads the sample fails c2pa-worker', async () => {
    const worker = fakeVerifier({ state: 'invalid', codes: ['assertion.dataHash.mismatch'] });
    const report = await runSelfTest(options({ workerVerifier: worker.make }));
    expect(failure(report)).toMatchObject({ failed: 'c2pa-worker' });
  });
});
