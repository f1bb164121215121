/**
 * The demo's first impression, through the app's own runtime and core over real HTTP: the model
 * the demo reports is shown (nothing the demo answers is taken for an echo of its public key),
 * a processing task's progress reaches the engine's live state, and the pictures of one batch
 * ("Generate 3") are three different pictures, not three look-alikes.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../../../electron/core/service/demo-endpoint';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { DEFAULT_MODEL } from '../../../electron/demo-service/request-validation';
import { startDemoService } from '../../../electron/demo-service/server';
import { startTestRuntime } from '../../support/app-runtime';
import { coreAgainstDemo } from '../core/core-harness';
import { targetOf } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the demo as the app first shows it', () => {
  it('reports its model, and the app records it (the embedded demo, its own key)', async () => {
    const dir = await tempFolder('first');
    cleanups.push(() => removeFolder(dir));
    const runtime = await startTestRuntime(dir);
    cleanups.push(() => runtime.close());
    runtime.core.engine.start();
    const [task] = await runtime.core.engine.submit(
      { prompt: 'a red kite', size: '64x64' },
      targetOf(runtime.credentials),
    );
    const [done] = await runtime.core.engine.whenSettled([task!.localId]);
    expect(done!.status).toBe('completed');
    expect(done!.reportedModel).toBe(DEFAULT_MODEL);
  });

  it('answers nothing the app would take for an echo of the demo’s key', async () => {
    const demo = await startDemoService({ durationMs: 60_000 });
    cleanups.push(() => demo.close());
    const headers = { Authorization: `Bearer ${DEMO_KEY}`, 'Content-Type': 'application/json' };
    const submitted = await fetch(`${demo.url}/v1/images/generations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'a kite', size: '64x64' }),
    });
    const submitText = await submitted.text();
    const { id } = JSON.parse(submitText) as { id: string };
    const processing = await (await fetch(`${demo.url}/v1/tasks/${id}`, { headers })).text();
    demo.completeTask(id);
    const completed = await (await fetch(`${demo.url}/v1/tasks/${id}`, { headers })).text();
    for (const text of [submitText, processing, completed]) {
      expect(carriesKey(text, DEMO_KEY), text).toBe(false);
    }
  });

  it('says how far a processing task is, and the engine keeps it for the row', async () => {
    const h = await coreAgainstDemo({ durationMs: 60_000 });
    h.core.engine.start();
    const [task] = await h.core.engine.submit({ prompt: 'a slow kite', size: '64x64' }, h.target);
    const live = await new Promise<number>((resolve) => {
      const check = () => {
        const progress = h.core.engine.live(task!.localId).progress;
        if (progress !== undefined) resolve(progress);
        else setTimeout(check, 50);
      };
      check();
    });
    expect(live).toBeGreaterThanOrEqual(0);
    expect(live).toBeLessThan(100);
  });

  it('gives the three pictures of one batch different colours and compositions', async () => {
    const h = await coreAgainstDemo();
    h.core.engine.start();
    const records = await h.core.engine.submit(
      { prompt: 'a lighthouse', size: '96x96' },
      h.target,
      3,
    );
    const done = await h.core.engine.whenSettled(records.map((record) => record.localId));
    const pictures = await Promise.all(
      done.map((record) => readFile(h.core.gallery.resolve(record.images[0]!.file!))),
    );
    const means = await Promise.all(
      pictures.map(async (png) =>
        (await sharp(png).removeAlpha().stats()).channels.map((channel) => channel.mean),
      ),
    );
    for (let a = 0; a < 3; a += 1) {
      for (let b = a + 1; b < 3; b += 1) {
        expect(pictures[a]!.equals(pictures[b]!)).toBe(false);
        const distance = Math.hypot(...means[a]!.map((value, n) => value - means[b]![n]!));
        // Look-alikes differ by a few levels; different palettes by tens.
        expect(distance, `pictures ${a} and ${b}`).toBeGreaterThan(25);
      }
    }
  });
});
