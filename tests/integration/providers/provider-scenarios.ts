/**
 * What every provider profile must do end to end against its dialect of the demo service,
 * through the real core: one `describe` per provider file (each file runs its provider's
 * share, so no file runs long), the provider's own cases beside it in that file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import { startServer, sendJson } from '../../support/http-servers';
import {
  KEY,
  KEY_HEADER,
  SIZE,
  afterTest,
  keySightings,
  providerRig,
  type ProviderRig,
} from './provider-harness';

/** Which of the task's addresses the dialect hands out (DashScope: none, found by id). */
type HandleName = 'poll' | 'result' | 'cancel';

export interface ProviderCase {
  readonly provider: ProviderId;
  readonly handles: readonly HandleName[];
  /**
   * A local engine (ComfyUI): no moderation, no credits, and outputs that stay until deleted, so
   * the cases of those are not its own.
   */
  readonly local?: boolean;
}

/** Submits one task of `prompt` in the provider's size; resolves with its local id. */
export async function submitOne(rig: ProviderRig, prompt: string): Promise<string> {
  const [record] = await rig.core.engine.submit({ prompt, size: SIZE[rig.provider] }, rig.target);
  return record!.localId;
}

/** What a wait on a task says when it gives up: where the task stood. */
function stateOf(record: TaskRecord | undefined): string {
  if (!record) return 'no such task in the history';
  const { status, taskId, error } = record;
  return JSON.stringify({ status, taskId, error });
}

/** Drives the clock until the service has the task and it is processing there. */
export async function untilAccepted(rig: ProviderRig, localId: string): Promise<TaskRecord> {
  await rig.drive(
    () => {
      const record = rig.core.history.get(localId);
      return record?.status === 'processing' && record.taskId !== null;
    },
    { state: () => stateOf(rig.core.history.get(localId)) },
  );
  return rig.stored(localId);
}

/**
 * The key went only in the dialect's own header, as the dialect writes it; never to an image,
 * except where the images are the service's own routes (ComfyUI's `/view`): there every image
 * request to the service carries it, in that header too.
 */
export function expectKeyOnlyInItsHeader(rig: ProviderRig): void {
  const header = KEY_HEADER[rig.provider];
  const imagesTakeKey = profileOf(rig.provider).imagesTakeKey === true;
  const seen = keySightings(rig.service.log.requests, KEY);
  expect(seen.length).toBeGreaterThan(0);
  for (const sighting of seen) {
    expect(sighting).toEqual({
      route: sighting.route,
      where: header.name,
      value: header.value(KEY),
    });
    if (!imagesTakeKey) expect(sighting.route).not.toBe('image');
  }
  const images = [
    ...rig.service.log.requests.filter((entry) => entry.route === 'image'),
    ...rig.service.log.downloads,
  ];
  for (const image of images) {
    if (imagesTakeKey) expect(image.headers[header.name]).toBe(header.value(KEY));
    else expect(keySightings([image], KEY)).toEqual([]);
    if (!imagesTakeKey) expect(image.auth ?? null).toBeNull();
  }
}

export function describeProvider({ provider, handles, local = false }: ProviderCase): void {
  describe(`${provider}: the core against its dialect`, () => {
    it('submits once, polls, fetches and saves a real PNG; the history and sidecar keep the provider and its addresses', async () => {
      const rig = await providerRig(provider);
      rig.core.engine.start();
      const localId = await submitOne(rig, 'a lighthouse at dusk');
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({
        status: 'completed',
        provider,
        error: null,
        images: [{ state: 'saved', mime: 'image/png' }],
      });
      const image = done!.images[0]!;
      const metadata = await sharp(rig.core.gallery.resolve(image.file!)).metadata();
      expect(metadata).toMatchObject({
        format: 'png',
        width: image.width,
        height: image.height,
      });
      const given = done!.handles ?? {};
      expect(Object.keys(given).sort()).toEqual([...handles].sort());
      for (const address of Object.values(given)) expect(address).toMatch(rig.service.url);
      const stored = rig.stored(localId);
      expect(stored.provider).toBe(provider);
      expect(stored.handles).toEqual(done!.handles);
      const sidecar = JSON.parse(
        readFileSync(rig.core.gallery.resolve(`${done!.folder}/pictor.json`), 'utf8'),
      ) as { record: TaskRecord };
      expect(sidecar.record).toMatchObject({ taskId: done!.taskId, provider });
      expect(sidecar.record.handles).toEqual(done!.handles);
      expect(rig.service.log.submits).toHaveLength(1);
      expect(rig.service.log.downloads.map((entry) => entry.status)).toEqual([200]);
      expectKeyOnlyInItsHeader(rig);
    });

    it('resumes a task after its core stopped mid-processing and completes it with one submit', async () => {
      // The task stays processing on the service until the test completes it.
      const rig = await providerRig(provider, { durationMs: 3_600_000 });
      rig.core.engine.start();
      const localId = await submitOne(rig, 'across a restart');
      const { taskId } = await untilAccepted(rig, localId);
      await rig.restart();
      expect(rig.stored(localId)).toMatchObject({ status: 'processing', taskId });
      rig.service.completeTask(taskId!);
      rig.core.engine.start();
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({ status: 'completed', taskId, images: [{ state: 'saved' }] });
      expect(rig.service.log.submits).toHaveLength(1);
      expect(rig.service.tasks()).toHaveLength(1);
    });

    it('holds a task past the watch timeout with its id, then resumes it without a second submit', async () => {
      const rig = await providerRig(provider, { durationMs: 3_600_000 }, { watchTimeoutMs: 2_000 });
      rig.core.engine.start();
      const localId = await submitOne(rig, 'a long wait');
      const [held] = await rig.settle([localId]);
      expect(held).toMatchObject({ status: 'processing', hold: 'timed_out' });
      expect(held!.taskId).toBeTruthy();
      rig.service.completeTask(held!.taskId!);
      rig.core.engine.resumeTask(localId);
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({
        status: 'completed',
        hold: null,
        taskId: held!.taskId,
        images: [{ state: 'saved' }],
      });
      expect(rig.service.log.submits).toHaveLength(1);
    });

    it.each(
      (
        [
          ['please fail this one', 'task_failed'],
          ['moderate this one', 'moderated'],
        ] as const
      ).filter(([, kind]) => !local || kind !== 'moderated'),
    )('a task the service ends (%s) is failed with kind %s', async (prompt, kind) => {
      const rig = await providerRig(provider);
      rig.core.engine.start();
      const localId = await submitOne(rig, prompt);
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({ status: 'failed', provider, error: { kind } });
      expect(done!.error!.message.length).toBeGreaterThan(10);
      expect(done!.images).toEqual([]);
      expect(rig.stored(localId)).toMatchObject({ status: 'failed', error: { kind } });
      expect(rig.service.log.submits).toHaveLength(1);
    });

    it('an image whose link expired while its download was held back ends expired, with when and why', async () => {
      const rig = await providerRig(provider, { imageUrlTtlMs: 1_000 });
      // The first download is turned away with a wait longer than the link lives.
      rig.service.addFault({
        route: 'image',
        times: 1,
        effect: { type: 'status', status: 503, retryAfter: 3 },
      });
      rig.core.engine.start();
      const localId = await submitOne(rig, 'a fleeting view');
      const [done] = await rig.settle([localId]);
      expectExpired(rig, done!);
      expect(rig.service.log.downloads.map((entry) => entry.status)).toEqual([503, 403]);
    });

    it.skipIf(PROVIDERS[provider].resultLifetimeMs === null)(
      'an image whose link fails past the service’s documented lifetime ends expired, never as a passing fault',
      async () => {
        const lifetimeMs = PROVIDERS[provider].resultLifetimeMs ?? 0;
        // Every download fails with a wait (one hour at most is believed), so that the attempts
        // run past the documented lifetime.
        const waitS = Math.min(3_600, Math.floor(lifetimeMs / 2_000) + 1);
        const attempts = Math.floor(lifetimeMs / (waitS * 1_000)) + 2;
        const rig = await providerRig(
          provider,
          {},
          { maxDownloadAttempts: attempts, leaseMs: 3_600_000 },
        );
        rig.service.addFault({
          route: 'image',
          effect: { type: 'status', status: 503, retryAfter: waitS },
        });
        rig.core.engine.start();
        const localId = await submitOne(rig, 'kept too long');
        // Small moves until the first attempt failed, then moves of a tenth of a wait.
        await rig.drive(() => (rig.core.engine.get(localId)?.images[0]?.attempts ?? 0) > 0);
        const [record] = await rig.settle([localId], {
          withinMs: lifetimeMs * 10,
          maxStepMs: waitS * 100,
        });
        expectExpired(rig, record!);
        const image = record!.images[0]!;
        expect(image.errorSentence?.key).toBe('error.gallery.resultsExpired');
        expect(image.expiredAt).toBeGreaterThanOrEqual(record!.resultsExpireAt!);
        expect(image.attempts).toBe(attempts);
        expect(rig.service.log.downloads.every((entry) => entry.status === 503)).toBe(true);
      },
    );

    it('honours a 429 with Retry-After on the submit and creates the task exactly once', async () => {
      const rig = await providerRig(provider, { rateLimit: 2 });
      rig.core.engine.start();
      const localId = await submitOne(rig, 'after the throttle');
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
      const submits = rig.service.log.submits;
      expect(submits.map((entry) => entry.status)).toEqual([
        429,
        429,
        provider === 'replicate' ? 201 : 200,
      ]);
      // Retry-After: 1 is a floor under each next attempt, in the demo's (the same) clock.
      expect(submits[1]!.at - submits[0]!.at).toBeGreaterThanOrEqual(1_000);
      expect(submits[2]!.at - submits[1]!.at).toBeGreaterThanOrEqual(1_000);
      expect(rig.service.tasks()).toHaveLength(1);
    });

    it.each(
      (
        [
          ['a wrong key', 'auth'],
          ['an account without credits', 'credits'],
        ] as const
      ).filter(([, kind]) => !local || kind !== 'credits'),
    )('a submit refused for %s is submit_failed with kind %s', async (what, kind) => {
      const rig = await providerRig(provider);
      if (what === 'a wrong key') rig.credentials.setKey('sk-nobody-at-all');
      else rig.service.setCredits('alice', 0);
      rig.core.engine.start();
      const localId = await submitOne(rig, 'refused');
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({ status: 'submit_failed', taskId: null, error: { kind } });
      expect(done!.error!.message).not.toContain('sk-nobody-at-all');
      expect(rig.service.tasks()).toHaveLength(0);
      expect(rig.service.log.submits).toHaveLength(1);
    });

    it('keeps a task whose status word it does not know processing, and completes it', async () => {
      const rig = await providerRig(provider, { unknownStatusPolls: 3 });
      const seen = new Set<string>();
      rig.core.engine.onDidUpdate(({ record }) => seen.add(record.status));
      rig.core.engine.start();
      const localId = await submitOne(rig, 'an unexpected word');
      const [done] = await rig.settle([localId]);
      expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
      expect(seen.has('failed')).toBe(false);
      // Three reads answered with the unknown word, then the documented ones to the end.
      expect(done!.polls).toBeGreaterThan(3);
      expect(rig.service.log.submits).toHaveLength(1);
    });

    it('never sends the key to a task address on another origin: the task waits, naming the host', async () => {
      const foreign = await startServer((_req, res) => sendJson(res, 200, {}));
      afterTest(() => foreign.close());
      const rig = await providerRig(provider, { foreignOrigin: foreign.origin });
      rig.core.engine.start();
      const localId = await submitOne(rig, 'a hostile address');
      const [record] = await rig.settle([localId]);
      if (handles.length === 0) {
        // The service hands out no address: the task is found by its id, under the base URL.
        expect(record).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
      } else {
        expect(record).toMatchObject({ status: 'processing', hold: 'awaiting_key' });
        expect(record!.error!.sentence).toMatchObject({
          key: 'error.service.foreignTaskAddress',
          params: { host: `127.0.0.1:${foreign.port}` },
        });
        expect(rig.stored(localId)).toMatchObject({ hold: 'awaiting_key' });
      }
      for (const request of foreign.requests) {
        expect(JSON.stringify(request.headers)).not.toContain(KEY);
      }
      expect(foreign.requests).toEqual([]);
      expect(rig.service.log.submits).toHaveLength(1);
      expectKeyOnlyInItsHeader(rig);
    });
  });
}

/** The task completed, its one image expired with when and why, and no file was kept for it. */
function expectExpired(rig: ProviderRig, record: TaskRecord): void {
  expect(record).toMatchObject({ status: 'completed', images: [{ state: 'expired' }] });
  const image = record.images[0]!;
  expect(image.file).toBeUndefined();
  expect(image.expiredAt).toBeGreaterThanOrEqual(record.finishedAt!);
  expect(image.error?.length).toBeGreaterThan(10);
  expect(image.errorSentence).toBeDefined();
  expect(rig.stored(record.localId).images[0]).toMatchObject({ state: 'expired' });
  const folder = rig.core.gallery.resolve(record.folder!);
  const files = existsSync(folder) ? readdirSync(folder) : [];
  expect(files.filter((name) => /\.(png|jpe?g|webp)$/i.test(name))).toEqual([]);
}

/** "Cancel on the service", for a provider that can cancel (the user's action only). */
export function describeCancel(provider: ProviderId, requests = 1): void {
  it(`${provider}: the user's cancel on the service ends the task failed as canceled, with when it was asked`, async () => {
    // The task stays on the service (queued its first third) until something ends it.
    const rig = await providerRig(provider, { durationMs: 3_600_000 });
    rig.core.engine.start();
    const localId = await submitOne(rig, 'changed my mind');
    await untilAccepted(rig, localId);
    const asked = rig.clock.now();
    const marked = await rig.core.engine.cancelOnService(localId);
    expect(marked.canceledByUserAt).toBe(asked);
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({
      status: 'failed',
      canceledByUserAt: asked,
      error: { kind: 'canceled' },
      images: [],
    });
    expect(rig.stored(localId)).toMatchObject({
      status: 'failed',
      canceledByUserAt: asked,
      error: { kind: 'canceled' },
    });
    const cancels = rig.service.log.requests.filter((entry) => entry.route === 'cancel');
    expect(cancels).toHaveLength(requests);
    for (const cancel of cancels) {
      expect(cancel.status).toBeGreaterThanOrEqual(200);
      expect(cancel.status).toBeLessThan(300);
    }
    expect(rig.service.log.submits).toHaveLength(1);
    expectKeyOnlyInItsHeader(rig);
  });
}
