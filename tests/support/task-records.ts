/**
 * The task record tests build, over the product's own `newTaskRecord`: a field the record gains
 * gets the product's starting value here, instead of being spelled again in every test's builder.
 */
import type { InputImage } from '../../shared/domain/image-inputs';
import { newTaskRecord, type ImageRecord, type TaskRecord } from '../../shared/domain/task-record';

/** When a record is created unless its builder says otherwise. */
export const RECORD_CREATED = Date.UTC(2025, 0, 1, 9, 0, 0);

/**
 * A task the service finished: created, submitted and watched at `at`, polled once, done a second
 * later, no images, no folder yet. `overrides` replace whole fields and nothing is derived from
 * them (a test that overrides `createdAt` changes that date alone), except that the task id
 * defaults to `task-<localId>`.
 */
export function makeTaskRecord(
  overrides: Partial<TaskRecord> = {},
  at: number = RECORD_CREATED,
): TaskRecord {
  const localId = overrides.localId ?? 'local-1';
  const created = newTaskRecord(
    {
      localId,
      taskId: `task-${localId}`,
      origin: 'submitted',
      endpoint: 'https://api.example.com',
      account: 'acct1234',
      request: { prompt: 'A lighthouse at dusk' },
    },
    at,
  );
  return {
    ...created,
    status: 'completed',
    submittedAt: at,
    watchStartedAt: at,
    polls: 1,
    lastPolledAt: at + 1000,
    finishedAt: at + 1000,
    ...overrides,
  };
}

/** When the renderer's tests' tasks are created unless said: seeded lists count back from it. */
export const SEED_START = Date.UTC(2026, 0, 15, 12, 0, 0);

/** A saved image of a task (thumbnail and file paths under the task's folder). */
export function makeImage(index: number, overrides: Partial<ImageRecord> = {}): ImageRecord {
  return {
    index,
    url: `https://cdn.example.com/${index}.png`,
    state: 'saved',
    file: `task/${index}.png`,
    thumbnail: `task/${index}.thumb.webp`,
    width: 1024,
    height: 1024,
    bytes: 1_234_567,
    mime: 'image/png',
    attempts: 1,
    savedAt: SEED_START,
    favourite: false,
    ...overrides,
  };
}

/** A task record with sensible defaults; `prompt` is a shortcut for `request.prompt`. */
export function makeTask(overrides: Partial<TaskRecord> & { prompt?: string } = {}): TaskRecord {
  const { prompt, ...rest } = overrides;
  const createdAt = rest.createdAt ?? SEED_START;
  return makeTaskRecord(
    {
      localId: `local-${createdAt}-${Math.random().toString(36).slice(2, 8)}`,
      taskId: 'task-1',
      endpoint: 'demo:',
      account: 'demo',
      request: { prompt: prompt ?? 'A lighthouse at dusk', model: 'demo-1', size: '1024x1024' },
      finishedAt: createdAt + 30_000,
      polls: 10,
      lastPolledAt: createdAt + 30_000,
      ...rest,
    },
    createdAt,
  );
}

/**
 * An input image of `width` × `height` (a PNG of `bytes`), its digest made of `n`: what a task
 * made from an image names as its input.
 */
export function inputImage(n: number, width = 1024, height = 768, bytes = 200_000): InputImage {
  return { sha256: n.toString(16).padStart(64, '0'), mime: 'image/png', width, height, bytes };
}
