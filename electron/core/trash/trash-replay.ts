/**
 * The trash journal at start-up (or when a gallery is opened): what the last run left is
 * finished, for the current gallery.
 * 1. An Undo under way is completed: each image it names whose folder is still held comes back
 *    (its files placed, its record `saved`), each task it names not in the history is put back.
 *    Its file goes only when every entry is done; until then no entry it names goes anywhere else.
 * 2. A delete cut short before its record said so is taken back: the image's files return.
 * 3. Everything else held goes on, as when the app quits: images to the system trash, tasks stay
 *    removed.
 * 4. What the trash folder holds with no journal entry (an earlier Pictor kept none) goes to the
 *    system trash, as it always did.
 */
import { resolve } from 'node:path';
import type { Logger } from '../../ports/logger';
import { messageOf } from '../errors';
import type { GalleryTrash } from './gallery-trash';
import { bringBack, imageOf } from './image-entries';
import type { TrashEngine } from './trash-options';
import type { Batch, Restore, TrashJournal } from './trash-journal';

export interface ReplayDeps {
  readonly journal: TrashJournal;
  readonly records: Pick<TrashEngine, 'get' | 'editImageFiles' | 'reinstate'>;
  /** The current gallery's trash. */
  readonly trash: GalleryTrash;
  readonly logger: Logger;
}

export async function replayJournal(deps: ReplayDeps): Promise<void> {
  const { batches, restores } = await deps.journal.load();
  const byId = new Map(batches.map((batch) => [batch.id, batch]));
  const ours = (batch: Batch): boolean =>
    batch.kind === 'tasks' || resolve(batch.root) === resolve(deps.trash.root);
  /** Entries an Undo that could not finish still names: never sent anywhere else. */
  const promised = new Set<string>();
  for (const restore of restores) {
    if (!(await finishRestore(deps, restore, byId, ours))) {
      for (const { entry } of restore.entries) promised.add(entry);
    }
  }
  const known = new Set<string>();
  for (const batch of batches) {
    if (batch.kind === 'images') batch.entries.forEach((entry) => known.add(entry.id));
    if (!ours(batch)) continue;
    if (batch.kind === 'tasks') {
      if (!batch.entries.some((entry) => promised.has(entry.id)))
        await deps.journal.dropBatch(batch.id);
      continue;
    }
    if (await settleImages(deps, batch, promised)) await deps.journal.dropBatch(batch.id);
  }
  const sent = await deps.trash.recoverUnknown(known);
  if (sent > 0) deps.logger.info('images an earlier run left went to the system trash', { sent });
}

/** Completes one Undo; true when every entry it names is done (its file is then removed). */
async function finishRestore(
  deps: ReplayDeps,
  restore: Restore,
  byId: ReadonlyMap<string, Batch>,
  ours: (batch: Batch) => boolean,
): Promise<boolean> {
  let complete = true;
  for (const { batch: batchId, entry: entryId } of restore.entries) {
    const batch = byId.get(batchId);
    if (!batch) continue;
    if (!ours(batch)) {
      complete = false;
      continue;
    }
    try {
      if (batch.kind === 'images') {
        const entry = batch.entries.find((candidate) => candidate.id === entryId);
        if (entry && (await deps.trash.holds(entry.id))) await bringBack(deps, entry);
      } else {
        const entry = batch.entries.find((candidate) => candidate.id === entryId);
        if (entry && !deps.records.get(entry.record.localId)) {
          await deps.records.reinstate(entry.record);
        }
      }
    } catch (error) {
      complete = false;
      deps.logger.warn('an interrupted Undo could not bring an item back yet', {
        detail: messageOf(error),
      });
    }
  }
  if (complete) await deps.journal.dropRestore(restore.id);
  return complete;
}

/**
 * The held images of a batch from an earlier run: a delete cut short comes back, the rest goes
 * to the system trash. True when nothing of the batch is held any more.
 */
async function settleImages(
  deps: ReplayDeps,
  batch: Extract<Batch, { kind: 'images' }>,
  promised: ReadonlySet<string>,
): Promise<boolean> {
  let left = false;
  for (const entry of batch.entries) {
    if (promised.has(entry.id)) {
      left = true;
      continue;
    }
    if (!(await deps.trash.holds(entry.id))) continue;
    const found = imageOf(deps.records, entry);
    try {
      if (found && found.image.state !== 'deleted') await bringBack(deps, entry);
      else if (!(await deps.trash.toSystemTrash(entry.id, entry.files))) left = true;
    } catch (error) {
      left = true;
      deps.logger.warn('a held image from an earlier run could not be settled yet', {
        detail: messageOf(error),
      });
    }
  }
  return !left;
}
