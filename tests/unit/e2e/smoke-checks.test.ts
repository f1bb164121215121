/**
 * The packaged smoke's checks on disk (tests/e2e/packaged/smoke-checks.ts) on a real gallery and
 * history: they pass on what a working app leaves, and fail on each thing a broken one would
 * leave instead: an image with no thumbnail (a dead image pipeline), a thumbnail that is not a
 * WebP, an image without its XMP, a history with no row for the task or one not completed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { HistoryStore } from '../../../electron/core/history/history-store';
import {
  appArmorVerdict,
  checkSavedGeneration,
  SmokeCheckFailure,
} from '../../e2e/packaged/smoke-checks';
import { makeTaskRecord } from '../../support/task-records';
import { TempFolders } from '../../support/temp-folders';

const PROMPT = 'A lighthouse at dusk, packaged smoke test';
const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

interface Faults {
  readonly thumbnail?: 'missing' | 'png';
  readonly xmp?: false;
  readonly history?: 'none' | 'failed';
}

/** What the app leaves after one generation, with `faults` put in. */
async function generation(faults: Faults = {}) {
  const root = await dirs.make('smoke-checks');
  const gallery = path.join(root, 'gallery');
  const dataDir = path.join(root, 'data');
  const task = path.join(gallery, '2026', '11', 'task-1');
  await mkdir(path.join(task, '.thumbs'), { recursive: true });
  await mkdir(dataDir, { recursive: true });
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#336699' },
  })
    .png()
    .toBuffer();
  const withXmp = await embedProvenanceInBuffer(png, 'png', {
    prompt: PROMPT,
    localId: 'local-1',
    imageIndex: 0,
    service: 'demo:',
    createdAt: Date.UTC(2026, 10, 23),
    appVersion: '0.1.0',
  });
  await writeFile(path.join(task, 'image-1.png'), faults.xmp === false ? png : withXmp);
  if (faults.thumbnail !== 'missing') {
    const thumbnail = sharp(png).resize(32);
    await writeFile(
      path.join(task, '.thumbs', 'image-1.webp'),
      await (faults.thumbnail === 'png' ? thumbnail.png() : thumbnail.webp()).toBuffer(),
    );
  }
  const store = HistoryStore.open(path.join(dataDir, 'history.sqlite'));
  if (faults.history !== 'none') {
    store.put(
      makeTaskRecord({
        localId: 'local-1',
        request: { prompt: PROMPT },
        status: faults.history === 'failed' ? 'failed' : 'completed',
        images: [{ index: 0, url: null, state: 'saved', attempts: 1, favourite: false }],
      }),
    );
  }
  store.close();
  return { gallery, dataDir, prompt: PROMPT };
}

describe('the packaged smoke’s checks', () => {
  it('pass on what a working app leaves', async () => {
    expect(await checkSavedGeneration(await generation())).toMatch(
      /carries its XMP .*a 32x24 WebP, the history holds the task as completed/,
    );
  });

  it.each([
    ['no thumbnail (a dead image pipeline)', { thumbnail: 'missing' }, /No thumbnail beside/],
    ['a thumbnail that is not a WebP', { thumbnail: 'png' }, /is not a WebP image/],
    ['an image without its XMP', { xmp: false }, /carries no Pictor XMP/],
    ['no history row', { history: 'none' }, /holds no task with the prompt/],
    ['a history row that is not completed', { history: 'failed' }, /says failed/],
  ] as const)('fail on %s', async (_what, faults, message) => {
    await expect(checkSavedGeneration(await generation(faults))).rejects.toThrow(message);
  });
});

describe('the installed app’s AppArmor confinement (Linux)', () => {
  it('passes when the app runs under the deb’s profile', () => {
    expect(appArmorVerdict('pictor (unconfined)\n')).toBe(
      'the app runs confined by its AppArmor profile (pictor (unconfined))',
    );
  });

  it.each([
    [
      'unconfined (the profile not attached: the sandbox ran on a lifted restriction)',
      'unconfined\n',
    ],
    ['another profile', 'chrome (unconfined)\n'],
    ['a profile whose name only starts the same', 'pictor-dev (unconfined)\n'],
  ])('fails when it runs %s', (_what, label) => {
    expect(() => appArmorVerdict(label)).toThrow(SmokeCheckFailure);
  });
});
