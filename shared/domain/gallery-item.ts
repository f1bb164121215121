/** One image of one task, as the gallery shows it: built the same way on both sides. */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { MAX_LOCAL_ID_CHARS, dateMsSchema } from './limits';
import { providerIdSchema } from './providers';
import { isDemoEndpoint } from './submit-target';
import { imageRecordSchema, type ImageRecord, type TaskRecord } from './task-record';

/**
 * The gallery's item as it crosses IPC (parsed with this schema there); the type is derived from
 * it. Built on first use (lazy-schema.ts), as the image record's schema.
 */
export const galleryItemSchema = lazySchema(() =>
  z.object({
    localId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
    taskId: z.string().nullable(),
    /** The image's `index` (its position in the service's output). */
    index: z.number().int().nonnegative(),
    image: imageRecordSchema(),
    prompt: z.string(),
    model: z.string().optional(),
    /** The model the service said it used (the task record's `reportedModel`). */
    reportedModel: z.string().optional(),
    size: z.string().optional(),
    quality: z.string().optional(),
    createdAt: dateMsSchema(),
    /** Where the task lists when not by `createdAt` (the task record's `listedAt`). */
    listedAt: dateMsSchema().optional(),
    /** The service the task lives on; absent: today's contract (`pictor`). */
    provider: providerIdSchema().optional(),
    /**
     * The task went to the built-in demo service, which speaks `provider`'s dialect (its endpoint
     * a demo one, submit-target.ts): the viewer names it as the task list does (service-id.ts).
     */
    demo: z.literal(true).optional(),
  }),
);
export type GalleryItem = z.infer<ReturnType<typeof galleryItemSchema>>;

/** The gallery's orders: newest task first (the default), oldest first, or by prompt A to Z. */
export const GALLERY_SORTS = ['newest', 'oldest', 'prompt'] as const;
export const gallerySortSchema = lazySchema(() => z.enum(GALLERY_SORTS));
export type GallerySort = (typeof GALLERY_SORTS)[number];

export function galleryItemOf(record: TaskRecord, image: ImageRecord): GalleryItem {
  const { prompt, model, size, quality } = record.request;
  return {
    localId: record.localId,
    taskId: record.taskId,
    index: image.index,
    image,
    prompt,
    ...(model === undefined ? {} : { model }),
    ...(record.reportedModel === undefined ? {} : { reportedModel: record.reportedModel }),
    ...(size === undefined ? {} : { size }),
    ...(quality === undefined ? {} : { quality }),
    createdAt: record.createdAt,
    ...(record.listedAt === undefined ? {} : { listedAt: record.listedAt }),
    ...(record.provider === undefined ? {} : { provider: record.provider }),
    ...(isDemoEndpoint(record.endpoint) ? { demo: true as const } : {}),
  };
}
