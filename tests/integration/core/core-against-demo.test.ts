import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DONE_AT_FIRST_POLL, clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';

/**
 * The size the tasks below ask: what they prove (submits, faults, restarts, accounts) is not in
 * the picture, and the demo's default, 1024x1024, drawn, checked and thumbnailed, cost some 50 ms
 * of CPU a task (64x64: 5). The first test asks its own size and checks the files at it.
 */
const SMALL = '64x64';

/**
 * The core and the demo on one manual clock (clockedCoreAgainstDemo): each wait is on its
 * condition (`h.settle`, `h.drive`), and the tasks' lengths, polls and backoffs pass in clock time.
 */
describe('the core against the demo service over HTTP', () => {
  it('generates several images into real files with sidecars and thumbnails, one submit per task', async () => {
    const h = await coreAgainstDemo();
    h.core.engine.start();
    const records = await h.core.engine.submit(
      { prompt: 'a lighthouse at dusk', size: '320x200', quality: 'low' },
      h.target,
      3,
    );
    const done = await h.settle(records.map((r) => r.localId));
    expect(done.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    for (const record of done) {
      const image = record.images[0]!;
      expect(image).toMatchObject({ state: 'saved', width: 320, height: 200, mime: 'image/png' });
      const file = h.core.gallery.resolve(image.file!);
      expect((await sharp(file).metadata()).width).toBe(320);
      expect(existsSync(h.core.gallery.resolve(image.thumbnail!))).toBe(true);
      const sidecar = JSON.parse(
        readFileSync(h.core.gallery.resolve(`${record.folder}/pictor.json`), 'utf8'),
      );
      expect(sidecar.record).toMatchObject({
        taskId: record.taskId,
        request: { prompt: 'a lighthouse at dusk' },
      });
      expect(h.core.history.get(record.localId)).toMatchObject({
        status: 'completed',
        images: [{ state: 'saved' }],
      });
    }
    expect(h.service.log.submits).toHaveLength(3);
    expect(h.service.log.downloads.length).toBeGreaterThanOrEqual(3);
    expect(h.service.log.downloads.every((entry) => !('authorization' in entry.headers))).toBe(
      true,
    );
  });

  it('survives 502 HTML pages, 429 with Retry-After and dropped connections while polling', async () => {
    const h = await coreAgainstDemo({ durationMs: 1_500 });
    h.service.addFault({
      route: 'poll',
      times: 2,
      effect: { type: 'status', status: 502, body: 'html' },
    });
    h.service.addFault({
      route: 'poll',
      times: 1,
      effect: { type: 'status', status: 429, retryAfter: 1 },
    });
    h.service.addFault({ route: 'poll', times: 1, effect: { type: 'reset' } });
    h.service.addFault({
      route: 'image',
      times: 1,
      effect: { type: 'status', status: 503, body: 'html' },
    });
    h.core.engine.start();
    const [record] = await h.core.engine.submit({ prompt: 'stormy sea', size: SMALL }, h.target);
    const [done] = await h.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'completed', error: null, images: [{ state: 'saved' }] });
    expect(h.service.log.submits).toHaveLength(1);
  });

  it('keeps the id when the submit may have been accepted, and never resubmits', async () => {
    const h = await coreAgainstDemo();
    h.service.addFault({ route: 'submit', times: 1, effect: { type: 'reset-after-accepting' } });
    h.core.engine.start();
    const [record] = await h.core.engine.submit(
      { prompt: 'lost in transit', size: SMALL },
      h.target,
    );
    const [done] = await h.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'submit_unknown', taskId: null });
    expect(h.service.tasks()).toHaveLength(1);
    await h.restart();
    h.core.engine.start({ resume: true });
    // No fixed wait: a task submitted after the start, polled and downloaded to the end, shows
    // the engine has worked since, and the one it took up was never sent again meanwhile.
    const [next] = await h.core.engine.submit(
      { prompt: 'after the restart', size: SMALL },
      h.target,
    );
    await h.settle([next!.localId]);
    // The first submit's and the new task's, none more.
    expect(h.service.log.submits).toHaveLength(2);
    expect(h.core.engine.get(record!.localId)).toMatchObject({ status: 'submit_unknown' });
  });

  it.each([
    ['a wrong key', 'sk-nobody', 'auth', 401],
    ['an account without credits', 'sk-bob', 'credits', 402],
  ] as const)(
    'a submit refused for %s is submit_failed with a clear message',
    async (_what, key, kind, httpStatus) => {
      const h = await coreAgainstDemo();
      h.service.setCredits('bob', 0);
      h.credentials.setKey(key);
      h.core.engine.start();
      const [record] = await h.core.engine.submit({ prompt: 'refused', size: SMALL }, h.target);
      const [done] = await h.settle([record!.localId]);
      expect(done).toMatchObject({ status: 'submit_failed', error: { kind, httpStatus } });
      expect(done!.error!.message).not.toContain(key);
      expect(h.service.tasks()).toHaveLength(0);
    },
  );

  it('a failed task carries the service’s reason', async () => {
    const h = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, failureRate: 1 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit({ prompt: 'doomed', size: SMALL }, h.target);
    const [done] = await h.settle([record!.localId]);
    expect(done!.status).toBe('failed');
    expect(done!.error!.message.length).toBeGreaterThan(10);
  });

  it('labels images whose URL expired before the download', async () => {
    // A lifetime of 0: the link stops working the moment it is given, on the clock that stands
    // still while the engine asks for the image.
    const h = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, imageUrlTtlMs: 0 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit({ prompt: 'fleeting', size: SMALL }, h.target);
    const [done] = await h.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'expired' }] });
    expect(done!.images[0]!.error).toMatch(/no longer available/);
  });

  it('follows redirecting image URLs', async () => {
    const h = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, redirectImages: true });
    h.core.engine.start();
    const [record] = await h.core.engine.submit({ prompt: 'redirected', size: SMALL }, h.target);
    const [done] = await h.settle([record!.localId]);
    expect(done!.images[0]!.state).toBe('saved');
  });

  it('resumes processing tasks after a restart and completes them without a new submit', async () => {
    // The tasks run until the test completes them, once the core was restarted.
    const h = await coreAgainstDemo({ durationMs: 600_000 });
    h.core.engine.start();
    const records = await h.core.engine.submit(
      { prompt: 'across a restart', size: SMALL },
      h.target,
      2,
    );
    // Restart once both are accepted and still processing, so the second run must resume them.
    await h.drive(() =>
      records.every((r) => h.core.history.get(r.localId)?.status === 'processing'),
    );
    expect(records.every((r) => h.core.history.get(r.localId)?.taskId)).toBe(true);
    await h.restart();
    h.core.engine.start();
    for (const record of records)
      h.service.completeTask(h.core.history.get(record.localId)!.taskId!);
    const done = await h.settle(records.map((r) => r.localId));
    expect(done.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(h.service.log.submits).toHaveLength(2);
  });

  it('a task of another account waits for its key, then continues with a key of that account', async () => {
    const h = await coreAgainstDemo({ durationMs: 1_000 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit({ prompt: 'alice’s', size: SMALL }, h.target);
    // The key changes once the task is alice's on the service and still processing.
    await h.drive(() => h.core.history.get(record!.localId)?.status === 'processing');
    expect(h.core.history.get(record!.localId)?.taskId).toBeTruthy();
    h.credentials.setKey('sk-bob');
    h.core.engine.keyChanged();
    const [held] = await h.settle([record!.localId]);
    expect(held).toMatchObject({ status: 'processing', hold: 'awaiting_key' });
    h.credentials.setKey('sk-alice-2');
    h.core.engine.keyChanged();
    const [done] = await h.settle([record!.localId]);
    expect(done).toMatchObject({ status: 'completed', hold: null, images: [{ state: 'saved' }] });
  });

  it('tracks a task created outside the app into the gallery', async () => {
    const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
    const outside = h.service.createTask('alice', { prompt: 'made elsewhere', size: '64x64' });
    h.core.engine.start();
    const record = await h.core.engine.track(outside.id);
    const [done] = await h.settle([record.localId]);
    expect(done).toMatchObject({
      status: 'completed',
      origin: 'tracked',
      images: [{ state: 'saved', width: 64 }],
    });
    expect(h.service.log.submits).toHaveLength(0);
  });

  it('rebuilds the history from the gallery folder alone', async () => {
    const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
    h.core.engine.start();
    const records = await h.core.engine.submit({ prompt: 'keep me', size: SMALL }, h.target, 2);
    await h.settle(records.map((r) => r.localId));
    const { records: found, skipped } = await rebuildLibrary(h.core.intake);
    expect(skipped).toEqual([]);
    expect(found.map((r) => r.localId).sort()).toEqual(records.map((r) => r.localId).sort());
    expect(found.every((r) => r.images[0]!.state === 'saved')).toBe(true);
  });
});
