/**
 * The gallery's screenshot scene: a few hundred tasks of one to four images (some favourites,
 * one failed download, one expired link, one still downloading) over a few models and days.
 * Image paths point at PNGs the screenshot script writes beside the page.
 */
import type { ImageRecord } from '../../../../../shared/domain/task-record';
import { type FakePictorApi } from '../../../../fakes/fake-pictor-api';
import { makeImage } from '../../../../support/task-records';
import { SCENE_PROMPTS } from '../../harness/scenes';

/** Distinct pictures the script draws: `g/<n>.png` (full) and `g/<n>.thumb.png`. */
export const PICTURES = 15;
/** Full-size dimensions of picture n (a mix of square, landscape and portrait). */
export function pictureSize(n: number): { width: number; height: number } {
  return [
    { width: 1024, height: 1024 },
    { width: 1536, height: 1024 },
    { width: 1024, height: 1536 },
  ][n % 3]!;
}

const PROMPTS = [...SCENE_PROMPTS, 'A paper-cut diorama of a forest at night with fireflies'];
const MODELS = ['gpt-image-1', 'demo-1', 'flux-pro'];
const SIZES = ['1024x1024', '1536x1024', '1024x1536'];
const QUALITIES = ['high', 'medium', 'auto'];

function picture(seed: number, index: number): ImageRecord {
  // Same shape as the requested size (task `seed` asks for SIZES[seed % 3]).
  const n = 3 * ((seed + index * 2) % 5) + (seed % 3);
  return makeImage(index, {
    file: `g/${String(n)}.png`,
    thumbnail: `g/${String(n)}.thumb.png`,
    ...pictureSize(n),
    bytes: 900_000 + ((seed * 7919 + index * 104_729) % 2_400_000),
    favourite: (seed + index) % 7 === 0,
  });
}

function images(seed: number): ImageRecord[] {
  const count = 1 + (seed % 4);
  const list = Array.from({ length: count }, (_, index) => picture(seed, index));
  if (seed === 2)
    list[1] = makeImage(1, {
      state: 'pending',
      error: 'The connection dropped while downloading (ECONNRESET).',
      file: undefined,
      thumbnail: undefined,
    });
  if (seed === 4)
    list[0] = makeImage(0, {
      state: 'expired',
      file: undefined,
      thumbnail: undefined,
      error: 'The image link expired (HTTP 403).',
    });
  if (seed === 0)
    list[0] = makeImage(0, { state: 'pending', file: undefined, thumbnail: undefined });
  return list;
}

/** Fills `fake` with the scene; the clock is the real one so dates read naturally. */
export function seedGallery(fake: FakePictorApi, now: number, tasks = 400): void {
  fake.seedTasks(tasks, (index) => ({
    createdAt: now - index * 47 * 60_000,
    prompt: PROMPTS[index % PROMPTS.length]!,
    request: {
      prompt: PROMPTS[index % PROMPTS.length]!,
      model: MODELS[index % MODELS.length]!,
      size: SIZES[index % SIZES.length]!,
      quality: QUALITIES[index % QUALITIES.length]!,
    },
    taskId: `img_${(0x5f3a9c + index * 7919).toString(16)}c2e81d`,
    images: images(index),
  }));
}
