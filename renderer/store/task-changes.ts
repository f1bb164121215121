/**
 * The page's side of `tasks:updated` (shared/ipc/task-changes.ts): a batch of task changes is
 * applied in one store update, so the window draws it once: each record written once into the
 * records table (records-slice.ts), and the ids of the task list, the compare view and the
 * gallery's images moved as main says (`views`);
 * then what it says aloud (a task completed, failed) and what it gives back to the form (a
 * refused submit) follow.
 */
import type { TaskRecord, TaskStatus } from '../../shared/domain/task-record';
import type { TaskChange, TaskItem } from '../../shared/ipc/contract';
import { announce } from '../components/live-region';
import { errorText, t } from '../i18n';
import type { AppState } from './app-state';
import { compareAfterTaskChanges } from './compare-slice';
import { galleryChanges } from './gallery-batch';
import type { ImageRef } from './image-ref';
import {
  heldInGallery,
  readBatch,
  recordsAfterBatch,
  tasksAfterBatch,
  type TaskBatch,
} from './task-batch';

/** What a batch needs of the store: one `setState` per batch. */
interface Store {
  getState(): AppState;
  setState(patch: Partial<AppState>): void;
}

/** The sentence to announce when a task reaches a new status (null: nothing to say). */
function announcement(record: TaskRecord, before: TaskStatus): string | null {
  if (record.status === before) return null;
  switch (record.status) {
    case 'completed':
      return t('announce.completed', { prompt: record.request.prompt });
    case 'failed':
    case 'not_found':
      return t('announce.failed', {
        reason: record.error ? errorText(record.error) : t('tasks.status.failed'),
      });
    case 'submit_failed':
      return t('announce.submitFailed', { reason: record.error ? errorText(record.error) : '' });
    default:
      return null;
  }
}

/** The records the table holds of the batch's whole records, by task (before it is applied). */
function knownBefore(state: AppState, batch: TaskBatch): Map<string, TaskItem> {
  const known = new Map<string, TaskItem>();
  for (const localId of batch.items.keys()) {
    const item = state.records.get(localId);
    if (item) known.set(localId, item);
  }
  return known;
}

/** A cost reported (or an estimate made, or a task not billed) changes what caps have spent. */
function costsMoved(batch: TaskBatch, known: ReadonlyMap<string, TaskItem>): boolean {
  return [...batch.items.values()].some(({ record }) => {
    const cost = record.cost;
    const before = known.get(record.localId)?.record.cost;
    return cost !== undefined && JSON.stringify(cost) !== JSON.stringify(before);
  });
}

/** Whether the batch holds an edit's result with a saved image, which joins its source's stack. */
function savesEditResult(records: readonly TaskRecord[]): boolean {
  return records.some(
    (record) =>
      record.request.inputs !== undefined && record.images.some((image) => image.state === 'saved'),
  );
}

/** What the form does with the batch: a refused submit's draft comes back, a banner says why. */
function answerForm(store: Store, batch: TaskBatch): void {
  for (const { record } of batch.items.values()) {
    const state = store.getState();
    if (record.status === 'submit_failed') state.composeRestoreRefused(record.localId);
    else if (record.status === 'processing' && state.composeRefusal) state.composeDismissRefusal();
  }
  for (const refusal of batch.refusals) {
    const first = store.getState().composeRefusal === null;
    store.getState().composeApplyRefusal(refusal);
    if (first) announce(t(`banner.refused.${refusal.kind}`));
  }
}

/**
 * The tasks of the gallery's images after a batch (whose records the table takes), read only when
 * a record of the batch is not in the table yet: a star on a loaded image reads none of them.
 */
function* refIds(refs: readonly ImageRef[] | undefined): Generator<string> {
  for (const ref of refs ?? []) yield ref.localId;
}

/** Applies one `tasks:updated` batch: one store update for the lists, then the words. */
export function applyTaskChanges(store: Store, changes: readonly TaskChange[]): void {
  const state = store.getState();
  const batch = readBatch(changes, state.records);
  const known = knownBefore(state, batch);
  const records = [...batch.items.values()].map((item) => item.record);
  const list = tasksAfterBatch(state, batch);
  const compare = compareAfterTaskChanges(state, [...batch.items.values()], batch.removed);
  const gallery = state.galleryAfterTaskChanges(
    galleryChanges(records, batch.removed, heldInGallery(batch)),
  );
  // Each changed record is written once, into the one table every view reads.
  const joined = (function* () {
    yield* list.joined;
    yield* compare.joined;
    yield* refIds(gallery.galleryRefs);
    yield* refIds(gallery.galleryJump?.refs);
  })();
  const table = recordsAfterBatch(state.records, batch, joined);
  const patch = {
    ...list.patch,
    ...(table === state.records ? {} : { records: table }),
    ...gallery,
    ...compare.patch,
    ...(savesEditResult(records) ? { editResultsSeen: state.editResultsSeen + 1 } : {}),
  };
  // A batch about nothing loaded (live parts of tasks on pages not read) draws nothing.
  if (Object.keys(patch).length > 0) store.setState(patch);
  if (costsMoved(batch, known)) store.getState().costsNoteLedgerChange();
  for (const record of records) {
    const before = known.get(record.localId);
    const sentence = before ? announcement(record, before.record.status) : null;
    if (sentence) announce(sentence);
  }
  answerForm(store, batch);
}
