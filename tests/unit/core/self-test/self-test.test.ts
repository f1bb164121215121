/**
 * `pictor self-test` under Node with a sharp engine (tests/fakes/sharp-image-engine.ts): it passes
 * on a sound installation, and fails, naming the step, on each fault it exists to catch: an image
 * engine that cannot decode, answers the wrong size, makes no thumbnail or a wrong one, crashes
 * or hangs; an SQLite without FTS5; an encryption check that throws.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { DatabaseSync, type DatabaseSyncOptions } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pictor-self-test-unit-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(overrides: Partial<SelfTestOptions> = {}): SelfTestOptions {
  return {
    engine: sharpImageEngine(),
    encryption: async () => ({ state: 'not applicable' }),
    version: '1.2.3',
    tempRoot: root,
    ...overrides,
  };
}

/** The sharp engine with its thumbnail answer replaced. */
function brokenEngine(answer: ThumbnailAnswer | (() => Promise<ThumbnailAnswer>)): ImageEngine {
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
      options({ encryption: async () => ({ state: 'available', backend: 'gnome_libsecret' }) }),
    );
    expect(report.steps.map((step) => [step.step, step.ok])).toEqual([
      ['history', true],
      ['images', true],
      ['xmp', true],
      ['credentials', true],
      ['encryption', true],
    ]);
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
  ] as const)('an image engine that %s fails the images step', async (_what, engine, error) => {
    const report = await runSelfTest(options({ engine }));
    expect(report.ok).toBe(false);
    expect(failure(report)).toMatchObject({
      failed: 'images',
      error: expect.stringMatching(error),
    });
    // The other steps still ran: the report says everything it could find out.
    expect(report.steps.filter((step) => step.ok).map((step) => step.step)).toEqual([
      'history',
      'xmp',
      'credentials',
      'encryption',
    ]);
  });

  it('an image engine that never answers fails the images step at its time limit', async () => {
    const report = await runSelfTest(
      options({ engine: brokenEngine(() => new Promise(() => undefined)), stepTimeoutMs: 500 }),
    );
    expect(failure(report)).toEqual({
      failed: 'images',
      error: 'it did not finish within 500 ms',
    });
  });

  it('a host without an image engine fails the images step, saying so', async () => {
    const report = await runSelfTest(options({ engine: null }));
    expect(report.imageEngine).toBe('none');
    expect(failure(report)).toEqual({ failed: 'images', error: 'this host has no image engine' });
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
    expect(report.steps.map((step) => step.ok)).toEqual([false, true, true, true, true]);
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

  it('an encryption check that throws fails the encryption step', async () => {
    const report = await runSelfTest(
      options({
        encryption: () => Promise.reject(new Error('safeStorage is not ready')),
      }),
    );
    expect(failure(report)).toEqual({ failed: 'encryption', error: 'safeStorage is not ready' });
  });
});
