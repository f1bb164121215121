/**
 * A change of one task's triage as it travels (history worker → main → page): the task's star
 * and time of change, and the triage of each image the change wrote, by its position. A rating
 * of 10,000 images is 10,000 of these small entries, never the tasks' whole records. Main checks
 * what it sends the page and the page what it receives, whatever the other side may put there;
 * as in every event of main's, a field the schema does not name is dropped, not sent on.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { dateMsSchema, MAX_IMAGES_PER_TASK, MAX_LOCAL_ID_CHARS, boundedInt } from './limits';
import type { TaskRecord } from './task-record';
import {
  MAX_BOARDS_PER_IMAGE,
  MAX_RATING,
  MAX_RAW_TAG_CHARS,
  MAX_TAGS_PER_IMAGE,
  type ImageTriage,
} from './triage';
import { withTriageOf } from './triage-edits';

const listSchema = (max: number) =>
  z.array(z.string().min(1).max(MAX_RAW_TAG_CHARS)).max(max).optional();

/** One image's triage after a change, as stored (a pick is its star), with its position. */
const imageTriageDeltaSchema = () =>
  z.object({
    index: boundedInt(0, MAX_IMAGES_PER_TASK - 1),
    favourite: z.boolean(),
    rating: z.number().int().min(1).max(MAX_RATING).optional(),
    flag: z.enum(['pick', 'reject']).optional(),
    tags: listSchema(MAX_TAGS_PER_IMAGE),
    boards: listSchema(MAX_BOARDS_PER_IMAGE),
    triagedAt: dateMsSchema().optional(),
  });

/**
 * Built on first use (lazy-schema.ts): the history writes deltas without checking them, and a
 * command that sends none to a page builds none.
 */
export const taskTriageDeltaSchema = lazySchema(() =>
  z.object({
    localId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
    /** The task's star after the change: its images' (favourites.ts). */
    favourite: z.boolean(),
    /** The task's time of change. */
    updatedAt: dateMsSchema(),
    /** The images the change wrote, each once. */
    images: z.array(imageTriageDeltaSchema()).min(1).max(MAX_IMAGES_PER_TASK),
  }),
);
export type TaskTriageDelta = z.infer<ReturnType<typeof taskTriageDeltaSchema>>;

/** The delta of one task: `images`, each image's triage after a change by its position. */
export function triageDelta(
  task: { localId: string; favourite: boolean; updatedAt: number },
  images: Iterable<readonly [index: number, triage: ImageTriage]>,
): TaskTriageDelta {
  const entries: TaskTriageDelta['images'][number][] = [];
  for (const [index, triage] of images) {
    const { favourite, rating, flag, tags, boards, triagedAt } = triage;
    entries.push({
      index,
      favourite: favourite === true,
      ...(rating === undefined ? {} : { rating }),
      ...(flag === undefined ? {} : { flag }),
      ...(tags === undefined || tags.length === 0 ? {} : { tags: [...tags] }),
      ...(boards === undefined || boards.length === 0 ? {} : { boards: [...boards] }),
      ...(triagedAt === undefined ? {} : { triagedAt }),
    });
  }
  return {
    localId: task.localId,
    favourite: task.favourite,
    updatedAt: task.updatedAt,
    images: entries,
  };
}

/**
 * `record` with `delta` applied: each named image takes its triage, the task its star and (when
 * newer) its time. The same record when nothing changes; an image it does not have is skipped.
 */
export function withTriageDelta(record: TaskRecord, delta: TaskTriageDelta): TaskRecord {
  let images: TaskRecord['images'] | null = null;
  for (const { index, ...triage } of delta.images) {
    const image = record.images[index];
    if (!image) continue;
    const next = withTriageOf(image, triage);
    if (next === image) continue;
    images ??= [...record.images];
    images[index] = next;
  }
  const updatedAt = Math.max(record.updatedAt, delta.updatedAt);
  if (!images && record.favourite === delta.favourite && updatedAt === record.updatedAt) {
    return record;
  }
  return { ...record, images: images ?? record.images, favourite: delta.favourite, updatedAt };
}
