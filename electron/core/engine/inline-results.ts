/**
 * The engine's side of images a service sent inline (core/service/inline-answer.ts decoded them;
 * core/download/inline-spool.ts keeps them): they are on disk before the task is recorded
 * completed, and their spool file goes once the image no longer needs it.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import { inlineTokenHash } from '../../../shared/service/inline-token';
import type { CompletedTask } from '../../../shared/service/wire';
import { diskParams, errorCode } from '../fs';
import type { EngineContext } from './engine-context';
import { InlineNotKeptError, type EngineGallery } from './engine-types';

/**
 * `record` with its folder set, once the images `task` carries inline are kept in it (synced):
 * only then may the task be recorded completed with their tokens, so a kill at any moment either
 * leaves the task to be asked again or finds the bytes on disk. `null` when the task is no longer
 * this engine's to record (stopped, taken over: the answer is read again and the same spool files
 * written; deleted: its spool files go).
 * @throws InlineNotKeptError when they could not be kept (the answer is asked for again).
 */
export async function keepInlineResults(
  ctx: EngineContext,
  gallery: EngineGallery,
  record: TaskRecord,
  task: CompletedTask,
): Promise<TaskRecord | null> {
  const images = Object.values(task.inlineImages ?? {});
  const placed = { ...record, folder: record.folder ?? gallery.folderFor(record) };
  try {
    await gallery.keepInline(placed, images);
  } catch (error) {
    throw new InlineNotKeptError(sentence('error.gallery.inlineNotKept', diskParams(error)), {
      detail: `The inline images could not be written (${errorCode(error) ?? 'no code'}).`,
      cause: error,
    });
  }
  if (ctx.isStopped() || !ctx.owns(record.localId)) return null;
  if (ctx.get(record.localId)?.status !== 'processing') {
    for (const image of images) await gallery.dropInline(placed, image.sha256);
    return null;
  }
  return placed;
}

/** An image the service sent inline has no link to expire: its spool waits for the next try. */
export function sentInline(image: ImageRecord): boolean {
  return inlineTokenHash(image.url) !== null;
}

/**
 * The spool file image `index` of `record` no longer needs, now that its state is final (saved,
 * or refused): none while it may still be tried (pending, expired: Retry reads the spool again),
 * and none while another image of the task names the same bytes and may still be tried.
 */
export function spoolToDrop(record: TaskRecord, index: number): string | null {
  const image = record.images[index];
  const sha = inlineTokenHash(image?.url);
  if (!image || sha === null) return null;
  const open = (state: string): boolean => state === 'pending' || state === 'expired';
  if (open(image.state)) return null;
  const shared = record.images.some(
    (other) => other.index !== index && other.url === image.url && open(other.state),
  );
  return shared ? null : sha;
}
