/**
 * A task answer listing as many image URLs as an answer's list may hold (MAX_ANSWER_ENTRIES). A
 * task keeps the first MAX_IMAGES_PER_TASK, says on the task how many were listed, and the work
 * done for it is the same whether the answer lists that many or the cap: counted (image
 * requests, engine commits), not timed. An answer listing more (10,000) is refused with its
 * sentence, the task kept and asked again, and it completes when the service answers a listing
 * it can read. Through the real core over loopback, with real PNGs.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import { MAX_ANSWER_ENTRIES } from '../../../electron/core/service/answer-limits';
import { StaticCredentials } from '../../fakes/static-credentials';
import { startServer, type TestServer } from '../../support/http-servers';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/hostile/many-images.test.ts';
let server: TestServer;
/** The listings the next polls answer, in turn (the last one repeats). */
let listings: number[] = [];

beforeAll(async () => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#963' } })
    .png()
    .toBuffer();
  server = await startServer((req, res) => {
    if (req.url === '/v1/images/generations') return res.end('{"id":"task-many"}');
    if (req.url?.startsWith('/v1/tasks/')) {
      const listed = listings.length > 1 ? (listings.shift() ?? 0) : (listings[0] ?? 0);
      const data = Array.from({ length: listed }, (_, i) => ({
        url: `${server.origin}/img/${i}.png`,
      }));
      return res.end(JSON.stringify({ status: 'completed', output: { data } }));
    }
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
    res.end(png);
  });
});

afterAll(async () => {
  await server.close();
});

interface Counted {
  readonly record: TaskRecord;
  readonly imageRequests: number;
  readonly submits: number;
  readonly commits: number;
  /** The errors the task showed on its way (each poll's that was refused). */
  readonly errors: readonly string[];
  readonly polls: number;
}

async function completeWith(...counts: number[]): Promise<Counted> {
  listings = counts;
  const dir = await tempFolder('many-images');
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(server.origin, 'sk-many-images-0123456789'),
    clock: systemClock,
    engine: { pollIntervalMs: 20 },
    ...bundledCoreWorkers(),
  });
  try {
    const before = server.requests.length;
    let commits = 0;
    const errors: string[] = [];
    const counting = core.engine.onDidUpdate((update) => {
      commits += 1;
      const said = JSON.stringify(update).match(/more than \d+ entries in one list/);
      if (said && errors.at(-1) !== said[0]) errors.push(said[0]);
    });
    core.engine.start({ resume: false });
    const [submitted] = await core.engine.submit({ prompt: 'many' }, targetAt(server.origin), 1);
    const [record] = await core.engine.whenSettled([submitted!.localId]);
    counting.dispose();
    const seen = server.requests.slice(before);
    const poll = seen.find((request) => request.url.startsWith('/v1/tasks/'));
    expect(poll).toBeDefined();
    return {
      record: record!,
      imageRequests: seen.filter((request) => request.url.startsWith('/img/')).length,
      submits: seen.filter((request) => request.url === '/v1/images/generations').length,
      commits,
      errors,
      polls: seen.filter((request) => request.url.startsWith('/v1/tasks/')).length,
    };
  } finally {
    await core.close();
    await removeFolder(dir);
  }
}

describe('a task answer listing many images', () => {
  it('keeps the first MAX_IMAGES_PER_TASK of the cap, says so, and costs what that many cost', async () => {
    const few = await completeWith(MAX_IMAGES_PER_TASK);
    const many = await completeWith(MAX_ANSWER_ENTRIES);
    // Past the cap: refused, asked again, read once the listing is one Pictor reads.
    const past = await completeWith(10_000, MAX_ANSWER_ENTRIES);
    const runs = [few, many, past];
    // Counted before the checks below: kept images that did not end saved, and submits beyond
    // the one each task makes.
    const lost = runs.reduce(
      (n, { record }) =>
        n + MAX_IMAGES_PER_TASK - record.images.filter((image) => image.state === 'saved').length,
      0,
    );
    const duplicated = runs.reduce((n, run) => n + Math.max(0, run.submits - 1), 0);
    for (const { record } of runs) {
      expect(record.status).toBe('completed');
      expect(record.images).toHaveLength(MAX_IMAGES_PER_TASK);
      expect(record.images.every((image) => image.state === 'saved')).toBe(true);
    }
    expect(few.record.error).toBeNull();
    expect(many.record.error?.message).toBe(
      `The service listed ${MAX_ANSWER_ENTRIES} images; Pictor keeps the first ${MAX_IMAGES_PER_TASK}.`,
    );
    expect(many.record.images.map((image) => image.url)).toEqual(
      few.record.images.map((image) => image.url),
    );
    // The work per image is done for the kept ones only: the same requests and history commits.
    expect(many.imageRequests).toBe(MAX_IMAGES_PER_TASK);
    expect(many.imageRequests).toBe(few.imageRequests);
    // Within one: a poll answered while the long listing is still read may write its own time
    // (20 ms polls; 20 and 21 commits in six runs at load 11–15, a fresh clone's run 21 vs 20).
    expect(many.commits - few.commits).toBeGreaterThanOrEqual(0);
    expect(many.commits - few.commits).toBeLessThanOrEqual(1);
    // The refused listing showed its sentence, and the task was asked again, not lost.
    expect(past.errors).toEqual([`more than ${MAX_ANSWER_ENTRIES} entries in one list`]);
    expect(past.polls).toBeGreaterThanOrEqual(2);
    expect(past.record.images.map((image) => image.url)).toEqual(
      few.record.images.map((image) => image.url),
    );
    recordReliability({
      section: 'hostile-input',
      row: 'A task answer listing many images',
      load: `one task whose answer lists ${MAX_ANSWER_ENTRIES} image URLs (the cap of a list), against one listing ${MAX_IMAGES_PER_TASK}; one whose first answer lists 10,000`,
      injected: {
        'image URLs listed': MAX_ANSWER_ENTRIES,
        'image URLs listed past the cap': 10_000,
      },
      outcome: {
        'images kept': many.record.images.length,
        [`image requests (${MAX_ANSWER_ENTRIES} listed)`]: many.imageRequests,
        [`image requests (${MAX_IMAGES_PER_TASK} listed)`]: few.imageRequests,
        [`engine commits (${MAX_ANSWER_ENTRIES} listed)`]: many.commits,
        [`engine commits (${MAX_IMAGES_PER_TASK} listed)`]: few.commits,
        'listings past the cap refused, then the task completed': past.errors.length,
      },
      lost,
      duplicated,
      // Nothing here looks for the key or stray files.
      leaked: NOT_MEASURED,
      file: FILE,
    });
  });
});
