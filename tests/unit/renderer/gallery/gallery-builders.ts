/** Builders of gallery data for the gallery's tests. */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { makeTaskRecord } from '../../../support/task-records';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';

const BASE_TIME = Date.UTC(2026, 0, 15, 12, 0, 0);

export function savedImage(index: number, patch: Partial<ImageRecord> = {}): ImageRecord {
  return {
    index,
    url: `https://cdn.example/${String(index)}.png`,
    state: 'saved',
    file: `2026/01/task/image-${String(index + 1)}.png`,
    thumbnail: `2026/01/task/.thumbs/image-${String(index + 1)}.webp`,
    width: 1024,
    height: 768,
    bytes: 1_234_567,
    mime: 'image/png',
    attempts: 1,
    savedAt: BASE_TIME,
    favourite: false,
    ...patch,
  };
}

export interface ItemOptions {
  readonly n: number;
  readonly index?: number;
  readonly image?: Partial<ImageRecord>;
  readonly prompt?: string;
  readonly model?: string;
}

/** Gallery item number `n` (higher `n` = older, so item 0 is the newest). */
export function galleryItem({ n, index = 0, image, prompt, model }: ItemOptions): GalleryItem {
  const localId = `task-${String(n).padStart(6, '0')}`;
  return {
    localId,
    taskId: `svc-${String(n)}`,
    index,
    image: savedImage(index, {
      file: `2026/01/${localId}/image-${String(index + 1)}.png`,
      thumbnail: `2026/01/${localId}/.thumbs/image-${String(index + 1)}.webp`,
      ...image,
    }),
    prompt: prompt ?? `A lighthouse at dusk, number ${String(n)}`,
    model: model ?? 'pictor-1',
    size: '1024x768',
    quality: 'high',
    createdAt: BASE_TIME - n * 60_000,
  };
}

export function galleryItems(count: number): GalleryItem[] {
  return Array.from({ length: count }, (_, n) => galleryItem({ n }));
}

/** A completed task record whose images are `images`. */
export function taskRecord(
  localId: string,
  createdAt: number,
  images: ImageRecord[],
  request: TaskRecord['request'] = { prompt: 'A fox in the snow', model: 'pictor-1' },
): TaskRecord {
  return makeTaskRecord(
    {
      localId,
      taskId: `svc-${localId}`,
      endpoint: 'demo:',
      account: 'demo',
      request,
      finishedAt: createdAt,
      watchStartedAt: null,
      lastPolledAt: createdAt,
      images,
      folder: `2026/01/${localId}`,
    },
    createdAt,
  );
}

export { BASE_TIME };
