/**
 * A genuine ComfyUI output node lists every image of its batch (batches run to 4,096): a node of
 * more than 256 images passed the answers' usual list bound, so its history was refused and the
 * task asked again without end, none of its images read. Its history is now read: the task keeps
 * the first images a task holds (16) and its notice says how many the node listed. A list past
 * ComfyUI's own bound (10,000) is still refused, with that bound in its sentence.
 *
 * The demo's ComfyUI makes a few images a task; the core's transport lists them again and again
 * in the node, as one batch (the fault the test injects), over the demo's real dialect on loopback
 * and the manual clock.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../electron/ports/http';
import { MAX_HISTORY_ENTRIES } from '../../../electron/core/service/answer-limits';
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import { sentence } from '../../../shared/i18n/sentence';
import { providerRig } from './provider-harness';
import { submitOne } from './provider-scenarios';

/** The transport: each finished history's node lists its images over and over, `count` in all. */
function batchOf(count: number): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!new URL(url).pathname.startsWith('/history/') || response.status !== 200) return response;
    const answer = (await response.json()) as Record<string, { outputs?: object }>;
    for (const entry of Object.values(answer)) {
      for (const node of Object.values(entry.outputs ?? {}) as { images: unknown[] }[]) {
        const made = node.images;
        node.images = Array.from({ length: count }, (_, index) => made[index % made.length]);
      }
    }
    return Response.json(answer);
  };
}

describe('comfyui: an output node of a large batch', () => {
  it('of 300 images: the task keeps the first 16 and says the node listed 300', async () => {
    const rig = await providerRig(
      'comfyui',
      { durationMs: 2_000, imagesPerTask: 2 },
      {},
      { fetch: batchOf(300) },
    );
    rig.core.engine.start();
    const localId = await submitOne(rig, 'three hundred lighthouses');
    const [done] = await rig.settle([localId]);
    // The task's notice stands in its error field, its status completed.
    expect(done).toMatchObject({
      status: 'completed',
      error: {
        sentence: sentence('error.service.tooManyImages', {
          count: 300,
          kept: MAX_IMAGES_PER_TASK,
        }),
      },
    });
    expect(done!.images).toHaveLength(MAX_IMAGES_PER_TASK);
    expect(done!.images.every((image) => image.state === 'saved')).toBe(true);
  });

  it(`of more than ${MAX_HISTORY_ENTRIES}: refused, saying that bound`, async () => {
    const rig = await providerRig(
      'comfyui',
      { durationMs: 2_000, imagesPerTask: 2 },
      {},
      { fetch: batchOf(MAX_HISTORY_ENTRIES + 1) },
    );
    rig.core.engine.start();
    const localId = await submitOne(rig, 'too many lighthouses');
    await rig.drive(() => rig.stored(localId)?.error?.kind === 'protocol', { withinMs: 60_000 });
    expect(rig.stored(localId)?.error?.sentence).toEqual(
      sentence('error.service.answerTooManyEntriesQuery', { max: MAX_HISTORY_ENTRIES }),
    );
  });
});
