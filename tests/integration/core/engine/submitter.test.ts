/**
 * The send hook through the real core and the demo's DashScope dialect (uploads only): a task's
 * input is uploaded before the task is marked sent, so an engine stopped between the upload and
 * the mark leaves it queued, and the next start uploads again and submits it once; a task the
 * service took is never uploaded or submitted again.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/adapters/system-clock';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { openPictorCore, type PictorCore } from '../../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../../support/bundled-history-worker';
import { startDemoService } from '../../../../electron/demo-service/server';
import type { DemoService } from '../../../../electron/demo-service/types';
import type { CredentialsProvider } from '../../../../electron/ports/credentials';
import type { ProviderId } from '../../../../shared/domain/providers';
import { syncFingerprint } from '../../../fakes/static-credentials';
import { testImageEngine } from '../../../support/image-engine';
import { sourcePng } from '../../demo-service/input-helpers';
import { UNTIL } from '../../../support/waits';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

/**
 * Shaped as DashScope's keys are (sk- and 32 hex digits): a key spelled with the service's own
 * words ('sk-dashscope-inputs-…') shares a 12-character run with the upload folder its policy names
 * (dashscope-instant/…), and an upload's answer that carries any run of the key is refused.
 */
const KEY = 'sk-7c1e94b2a05f4d8e9b36c2a1f0e7d583';
let service: DemoService | undefined;
let dir: string | undefined;
const open: PictorCore[] = [];

afterEach(async () => {
  for (const core of open.splice(0)) await core.close().catch(() => undefined);
  await service?.close();
  if (dir) await removeFolder(dir);
});

function credentialsAt(baseUrl: string, provider: ProviderId = 'dashscope'): CredentialsProvider {
  return {
    currentEndpoint: () => baseUrl,
    credentialsFor: async (endpoint) =>
      endpoint === baseUrl
        ? { baseUrl, key: KEY, keyFingerprint: syncFingerprint(KEY), provider }
        : null,
    baseUrlFor: (endpoint) => (endpoint === baseUrl ? baseUrl : null),
  };
}

/** The core; `afterUpload` runs once a signed upload's answer has come back. */
async function openCore(
  folder: string,
  url: string,
  afterUpload?: () => void,
  provider: ProviderId = 'dashscope',
) {
  const pinned = createPinnedFetch();
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(folder, 'data'),
    galleryDir: join(folder, 'gallery'),
    fetch,
    signedFetch: async (target, init, address) => {
      const response = await pinned(target, init, address);
      afterUpload?.();
      return response;
    },
    credentials: credentialsAt(url, provider),
    clock: systemClock,
    requestTimeoutMs: 2_000,
    engine: { pollIntervalMs: 200, maxBackoffMs: 1_000 },
    ...bundledCoreWorkers(),
  });
  open.push(core);
  return core;
}

describe('the send hook', () => {
  it('uploads again after a stop between the upload and the mark, and submits once', async () => {
    service = await startDemoService({
      dialect: 'dashscope',
      accounts: [{ account: 'alice', key: KEY }],
      durationMs: { min: 300, max: 600 },
    });
    dir = await tempFolder('send-hook');
    let stopping: Promise<void> | undefined;
    const first = await openCore(dir, service.url, () => {
      stopping ??= first.engine.stop();
    });
    const source = await first.inputs.put(await sourcePng());
    // Uploaded on purpose: DashScope would take this small image inside the request.
    const request = {
      prompt: 'make it blue',
      model: 'wanx2.1-imageedit',
      inputs: { operation: 'edit' as const, source, route: 'upload' as const },
    };
    const [task] = await first.engine.submit(request, {
      provider: 'dashscope',
      endpoint: service.url,
    });
    await expect.poll(() => stopping !== undefined, UNTIL).toBe(true);
    await stopping;
    expect(service.storage.requests).toHaveLength(1);
    expect(service.log.submits).toHaveLength(0);
    expect(first.history.get(task!.localId)).toMatchObject({
      status: 'submitting',
      sendState: 'queued',
    });
    await first.close();
    open.splice(0);

    const second = await openCore(dir, service.url);
    second.engine.start();
    await expect.poll(() => service!.log.submits.length, UNTIL).toBe(1);
    await expect.poll(() => second.engine.get(task!.localId)?.status, UNTIL).not.toBe('submitting');
    expect(service.storage.requests).toHaveLength(2);
    expect(service.storage.requests.every((seen) => !seen.keySeen)).toBe(true);
    await second.close();
    open.splice(0);

    // The task left: a third start neither uploads nor submits it again.
    const third = await openCore(dir, service.url);
    third.engine.start();
    await third.engine.whenSettled([task!.localId]);
    expect(service.log.submits).toHaveLength(1);
    expect(service.storage.requests).toHaveLength(2);
  });

  it('fails the submit with a sentence, sending nothing, when a public-link upload has no consent', async () => {
    service = await startDemoService({
      dialect: 'fal',
      accounts: [{ account: 'alice', key: KEY }],
      durationMs: { min: 300, max: 600 },
    });
    dir = await tempFolder('send-hook');
    const core = await openCore(dir, service.url, undefined, 'fal');
    const source = await core.inputs.put(await sourcePng());
    const request = {
      prompt: 'make it blue',
      model: 'fal-ai/flux-pro/kontext',
      inputs: { operation: 'edit' as const, source, route: 'upload' as const },
    };
    const [task] = await core.engine.submit(request, { provider: 'fal', endpoint: service.url });
    const [settled] = await core.engine.whenSettled([task!.localId]);
    expect(settled?.status).toBe('submit_failed');
    expect(settled?.error?.message).toMatch(/public links/);
    expect(JSON.stringify(settled)).not.toContain(KEY);
    expect(service.log.requests).toEqual([]);
    expect(service.storage.requests).toEqual([]);
  });
});
