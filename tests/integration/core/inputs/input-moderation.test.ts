/**
 * An input image the service's moderation refuses, through the real core and the demo's dialects
 * (the demo flags an input when the prompt says `flagged`): the task ends moderated with the
 * service's own reason, no image is saved for it, and the source in the input store is untouched.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderId } from '../../../../shared/domain/providers';
import { sourcePng } from '../../demo-service/input-helpers';
import { KEY, providerRig } from '../../providers/provider-harness';

const CASES: readonly { provider: ProviderId; model: string }[] = [
  { provider: 'bfl', model: 'flux-kontext-pro' },
  { provider: 'fal', model: 'fal-ai/flux-pro/kontext' },
  { provider: 'replicate', model: 'black-forest-labs/flux-kontext-pro' },
];

describe('an input image the service moderates', () => {
  for (const { provider, model } of CASES) {
    it(`${provider}: ends moderated with the service's reason and saves nothing`, async () => {
      // The core and the dialect's demo on one manual clock, closed after the test: the task's
      // 100 to 200 ms and the polls pass in clock time while `settle` waits.
      const rig = await providerRig(
        provider,
        { accounts: [{ account: 'alice', key: KEY }], durationMs: { min: 100, max: 200 } },
        { pollIntervalMs: 100, maxBackoffMs: 500 },
      );
      const { core: opened, service } = rig;
      opened.engine.start();
      const bytes = await sourcePng(8, 6);
      const source = await opened.inputs.put(bytes);
      const request = {
        prompt: 'a flagged edit of this photo',
        model,
        inputs: { operation: 'edit' as const, source },
      };
      const [task] = await opened.engine.submit(request, { provider, endpoint: service.url });
      const [settled] = await rig.settle([task!.localId]);

      expect(settled?.status).toBe('failed');
      expect(settled?.error?.kind).toBe('moderated');
      // The service's own words about the input reach the user.
      expect(`${settled?.error?.message ?? ''} ${settled?.error?.detail ?? ''}`).toMatch(/input/i);
      expect(settled?.images.filter((image) => image.state === 'saved')).toEqual([]);
      expect(JSON.stringify(settled)).not.toContain(KEY);
      // Nothing was saved for it in the gallery, and the source is as it was stored.
      const folders = await readdir(join(rig.dir, 'gallery'));
      expect(folders.filter((name) => name !== 'inputs' && !name.startsWith('.'))).toEqual([]);
      const kept = await opened.inputs.read(source);
      expect(createHash('sha256').update(kept).digest('hex')).toBe(source.sha256);
    });
  }
});
