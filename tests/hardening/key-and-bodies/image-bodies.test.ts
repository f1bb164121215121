/**
 * Image bodies: every hostile body, over real HTTP, through the real Gallery and
 * through the whole engine (fake service on loopback → engine → gallery on disk). Each is refused
 * before it reaches the gallery: no file of it (final or temp), a clear message on the image,
 * the task's good image saved next to it. tests/unit/core/download/download-refusals.test.ts
 * covers the gallery's messages one by one; this is the end-to-end table, counted.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { DownloadOutcome } from '../../../electron/core/download/download-outcome';
import { openPictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { listFiles } from '../../e2e/harness/disk';
import { StaticCredentials } from '../../fakes/static-credentials';
import { makeRecord } from '../../support/gallery-helpers';
import { recordReliability } from '../support/reliability-record';
import { hostileCases, randomPng, type HostileCase } from './hostile-bodies';
import { startFakeService, startRawHost, type RawHost } from './raw-hosts';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/key-and-bodies/image-bodies.test.ts';
const MAX_DOWNLOAD_ATTEMPTS = 2;

let host: RawHost;
let cases: HostileCase[];
let dir: string;
let goodUrl: string;

beforeAll(async () => {
  host = await startRawHost();
  cases = await hostileCases();
  const good = await randomPng(64, 48);
  goodUrl = host.route('/good.png', () => ({
    headers: { 'Content-Type': 'image/png', 'Content-Length': String(good.length) },
    body: [good],
  }));
  dir = await tempFolder('bodies');
});

afterAll(async () => {
  await host.close();
  await removeFolder(dir);
});

/** What is on disk must be exactly the good images (and sidecars): nothing of a hostile body. */
async function expectOnlyGoodFiles(root: string, tasks: number, sidecars: boolean) {
  const files = await listFiles(root);
  const names = files.map((file) => file.split('/').slice(-2).join('/'));
  const bases = files.map((file) => file.split('/').at(-1));
  const temp = files.filter((file) => file.startsWith('.pictor-tmp/'));
  const hostile = bases.filter((name) => name?.startsWith('image-1.'));
  expect(temp).toEqual([]);
  expect(hostile).toEqual([]);
  const goodCopies = bases.filter((name) => name === 'image-2.png').length;
  expect(goodCopies).toBe(tasks);
  expect(names.filter((name) => name === '.thumbs/image-2.webp')).toHaveLength(tasks);
  expect(files.filter((file) => file.endsWith('pictor.json'))).toHaveLength(sidecars ? tasks : 0);
  expect(files).toHaveLength(tasks * (sidecars ? 3 : 2));
  return {
    files: files.length,
    hostile: temp.length + hostile.length,
    extraGood: Math.max(0, goodCopies - tasks),
  };
}

function hitsOf(path: string): number {
  return host.requests.filter((request) => request.path === path).length;
}

function checkFailure(hostile: HostileCase, outcome: { state: string; error?: string }) {
  const expected = hostile.state === 'retry' ? ['retry', 'pending'] : ['invalid'];
  expect(expected, `${hostile.name}: ${JSON.stringify(outcome)}`).toContain(outcome.state);
  expect(outcome.error, hostile.name).toMatch(hostile.error);
}

describe('hostile image bodies are refused before they reach the gallery', () => {
  const figures = {
    direct: 0,
    engine: 0,
    files: 0,
    hostileFiles: 0,
    invalid: 0,
    retried: 0,
    goodSaved: 0,
    /** Good images next to a hostile one that did not end saved. */
    goodLost: 0,
    /** Good images found on disk more than once per task. */
    goodDuplicated: 0,
    /** Requests to the image host that carried an Authorization header. */
    keyToImageHost: 0,
  };
  const countFiles = (found: { files: number; hostile: number; extraGood: number }) => {
    figures.files += found.files;
    figures.hostileFiles += found.hostile;
    figures.goodDuplicated += found.extraGood;
  };

  it('through the Gallery downloader, one attempt each', async () => {
    const root = join(dir, 'direct');
    const { gallery, intake } = galleryOnServer(root, { downloadTimeoutMs: 20_000 });
    await gallery.init();
    for (const [index, hostile] of cases.entries()) {
      const url = host.route(`/direct/${index}`, hostile.reply);
      const record = makeRecord([url, goodUrl], { endpoint: host.origin });
      const bad: DownloadOutcome = await intake.downloadImage(record, 0, host.origin);
      const good = await intake.downloadImage(record, 1, host.origin);
      checkFailure(hostile, bad);
      if (good.state !== 'saved') figures.goodLost += 1;
      expect(good.state, hostile.name).toBe('saved');
      expect(hitsOf(`/direct/${index}`)).toBe(1);
      figures.direct += 1;
      figures[bad.state === 'invalid' ? 'invalid' : 'retried'] += 1;
      figures.goodSaved += 1;
    }
    countFiles(await expectOnlyGoodFiles(root, cases.length, false));
  });

  it('through the engine: submit, poll, download, sidecar; the good image of each task saved', async () => {
    const service = await startFakeService((prompt) => {
      const index = Number(prompt.replace('hostile case ', ''));
      return { images: [host.route(`/engine/${index}`, cases[index]!.reply), goodUrl] };
    });
    const root = join(dir, 'engine-gallery');
    const core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'engine-data'),
      galleryDir: root,
      fetch: (url, init) => fetch(url, init),
      credentials: new StaticCredentials(service.origin, 'sk-bodies'),
      clock: systemClock,
      engine: {
        pollIntervalMs: 100,
        maxBackoffMs: 300,
        maxDownloadAttempts: MAX_DOWNLOAD_ATTEMPTS,
      },
      ...bundledCoreWorkers(),
    });
    try {
      core.engine.start();
      const submitted: TaskRecord[] = [];
      for (const index of cases.keys())
        submitted.push(
          ...(await core.engine.submit(
            { prompt: `hostile case ${index}` },
            targetAt(service.origin),
            1,
          )),
        );
      const done = await core.engine.whenSettled(submitted.map((record) => record.localId));
      for (const [index, hostile] of cases.entries()) {
        const record = done[index]!;
        expect(record.status, hostile.name).toBe('completed');
        const [bad, good] = record.images;
        checkFailure(hostile, bad!);
        expect(bad!.file ?? null, hostile.name).toBeNull();
        if (good?.state !== 'saved') figures.goodLost += 1;
        expect(good, hostile.name).toMatchObject({ state: 'saved', width: 64, height: 48 });
        const attempts = hostile.state === 'retry' ? MAX_DOWNLOAD_ATTEMPTS : 1;
        expect(hitsOf(`/engine/${index}`), hostile.name).toBe(attempts);
        expect(core.history.get(record.localId)?.images[0]?.state).toBe(bad!.state);
        figures.engine += attempts;
        figures[bad!.state === 'invalid' ? 'invalid' : 'retried'] += 1;
        figures.goodSaved += 1;
      }
    } finally {
      await core.close();
      await service.close();
    }
    countFiles(await expectOnlyGoodFiles(root, cases.length, true));
    // The image host is not the service: no request to it carried a key.
    const keyed = host.requests.filter((request) => 'authorization' in request.headers);
    figures.keyToImageHost = keyed.length;
    expect(keyed).toEqual([]);
    recordReliability({
      section: 'hostile-input',
      row: 'Hostile image bodies over HTTP (gallery and engine)',
      load: `${cases.length} hostile bodies × 2 paths (Gallery, engine end to end), each next to a good image`,
      injected: {
        'hostile bodies served (direct)': figures.direct,
        'hostile bodies served (engine)': figures.engine,
        'kinds of body': cases.length,
      },
      outcome: {
        'refused as invalid': figures.invalid,
        'broken transfers retried then held (never saved)': figures.retried,
        'good images saved next to them': figures.goodSaved,
        'files on disk checked (only good images, thumbnails, sidecars)': figures.files,
        'hostile files in the gallery (final or temp)': figures.hostileFiles,
        'image requests carrying Authorization': figures.keyToImageHost,
      },
      lost: figures.goodLost,
      duplicated: figures.goodDuplicated,
      leaked: figures.hostileFiles + figures.keyToImageHost,
      file: FILE,
    });
  });
});
