/**
 * An input image the service's moderation refuses, through the real core and the demo's dialects
 * (the demo flags an input when the prompt says `flagged`): the task ends moderated with the
 * service's own reason, no image is saved for it, and the source in the input store is untouched.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../../electron/core/pictor-core';
import { startDemoService } from '../../../../electron/demo-service/server';
import type { DemoService } from '../../../../electron/demo-service/types';
import type { ProviderId } from '../../../../shared/domain/providers';
import { syncFingerprint } from '../../../fakes/static-credentials';
import { testImageEngine } from '../../../support/image-engine';
import { sourcePng } from '../../demo-service/input-helpers';

const KEY = 'sk-moderated-input-5521';
let service: DemoService | undefined;
let dir: string | undefined;
let core: PictorCore | undefined;

afterEach(async () => {
  await core?.close().catch(() => undefined);
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  core = undefined;
});

async function openCore(provider: ProviderId, url: string): Promise<PictorCore> {
  dir = await mkdtemp(join(tmpdir(), 'pictor-input-moderation-'));
  core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (target, init) => fetch(target, init),
    credentials: {
      currentEndpoint: () => url,
      credentialsFor: async (endpoint) =>
        endpoint === url
          ? { baseUrl: url, key: KEY, keyFingerprint: syncFingerprint(KEY), provider }
          : null,
      baseUrlFor: (endpoint) => (endpoint === url ? url : null),
    },
    clock: systemClock,
    requestTimeoutMs: 2_000,
    engine: { pollIntervalMs: 100, maxBackoffMs: 500 },
  });
  core.engine.start();
  return core;
}

const CASES: readonly { provider: ProviderId; model: string }[] = [
  { provider: 'bfl', model: 'flux-kontext-pro' },
  { provider: 'fal', model: 'fal-ai/flux-pro/kontext' },
  { provider: 'replicate', model: 'black-forest-labs/flux-kontext-pro' },
];

describe('an input image the service moderates', () => {
  for (const { provider, model } of CASES) {
    it(`${provider}: ends moderated with the service's reason and saves nothing`, async () => {
      service = await startDemoService({
        dialect: provider,
        accounts: [{ account: 'alice', key: KEY }],
        durationMs: { min: 100, max: 200 },
      });
      const opened = await openCore(provider, service.url);
      const bytes = await sourcePng(8, 6);
      const source = await opened.inputs.put(bytes);
      const request = {
        prompt: 'a flagged edit of this photo',
        model,
        inputs: { operation: 'edit' as const, source },
      };
      const [task] = await opened.engine.submit(request, { provider, endpoint: service.url });
      const [settled] = await opened.engine.whenSettled([task!.localId]);

      expect(settled?.status).toBe('failed');
      expect(settled?.error?.kind).toBe('moderated');
      // The service's own words about the input reach the user.
      expect(`${settled?.error?.message ?? ''} ${settled?.error?.detail ?? ''}`).toMatch(/input/i);
      expect(settled?.images.filter((image) => image.state === 'saved')).toEqual([]);
      expect(JSON.stringify(settled)).not.toContain(KEY);
      // Nothing was saved for it in the gallery, and the source is as it was stored.
      const folders = await readdir(join(dir!, 'gallery'));
      expect(folders.filter((name) => name !== 'inputs' && !name.startsWith('.'))).toEqual([]);
      const kept = await opened.inputs.read(source);
      expect(createHash('sha256').update(kept).digest('hex')).toBe(source.sha256);
    });
  }
});
