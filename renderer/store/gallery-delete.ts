/**
 * The gallery's delete with Undo, as a job (trash-job.ts) with one status entry from its first
 * moment. Ctrl/Cmd+Z, or the entry's Undo, while the delete runs stops it: no more chunks are
 * sent, and main stops the one under way and brings back what it had moved (core/trash); after
 * it ended, Undo asks back what main deleted. The viewer moves on before its image goes, and the
 * grid is given the images that came back (or itself) to focus.
 */
import type { StoreApi } from 'zustand';
import type { RequestOutput } from '../../shared/ipc/contract';
import { errorText, t } from '../i18n';
import { call, failure } from '../lib/api';
import type { AppState } from './app-state';
import { hasActiveFilters, itemKey } from './gallery-list-model';
import type { Words } from './status-slice';
import { applyTaskChanges } from './task-changes';
import { startUndo, TrashJob } from './trash-job';
import { refOf, type ImageRef } from './image-ref';

export { refOf, type ImageRef } from './image-ref';

/** What a batch action did: how many images it changed and how many it could not. */
export interface BatchResult {
  readonly done: number;
  readonly failed: number;
  /** Why the first failure failed, in a sentence from main (worded in the language shown). */
  readonly problem?: () => string;
  /** A delete an Undo stopped before its end (its Undo says what came back). */
  readonly canceled?: boolean;
}

type Store = Pick<StoreApi<AppState>, 'getState' | 'setState' | 'subscribe'>;

/** Main takes at most this many images per request (MAX_IMAGES_PER_BATCH). */
const CHUNK = 500;

/** How a chunked request goes: its steps, whether to stop, what it sends. */
export interface ChunkOptions {
  readonly step?: (done: number) => void;
  /** Asked before each chunk: true sends no more. */
  readonly stopped?: () => boolean;
  readonly sending?: (chunk: readonly ImageRef[]) => void;
}

/**
 * Sends the refs in chunks, applies the records main changed to the loaded list, and sums what
 * it did; `states` says what state each image now has in those records (by itemKey).
 */
async function inChunks(
  store: Store,
  send: (images: ImageRef[]) => Promise<RequestOutput<'gallery:deleteImages'>>,
  refs: readonly ImageRef[],
  options: ChunkOptions = {},
): Promise<BatchResult & { states: Map<string, string> }> {
  let failed = 0;
  let sent = 0;
  let problem: (() => string) | undefined;
  const states = new Map<string, string>();
  for (let at = 0; at < refs.length && !options.stopped?.(); at += CHUNK) {
    const images = refs.slice(at, at + CHUNK).map(refOf);
    options.sending?.(images);
    const outcome = await send(images);
    sent += images.length;
    options.step?.(sent);
    for (const { record } of outcome.items) {
      for (const image of record.images) states.set(itemKey({ ...record, ...image }), image.state);
    }
    // The records main answered with go to every list at once, as its task messages do: what
    // the page shows next (the viewer on a restored image) must not wait for the message that
    // carries the same change, which may come before or after this answer.
    if (outcome.items.length > 0) {
      applyTaskChanges(
        store,
        outcome.items.map((item) => ({ change: 'task' as const, ...item })),
      );
    }
    failed += outcome.failed;
    // Which answered images a filtered gallery holds is main's to say: it lists them again.
    if (outcome.items.length > 0) refreshFiltered(store);
    // main's sentence, in the window's language when shown (the English text when it has none)
    const { problem: message, problemSentence: sentence } = outcome;
    if (message !== undefined) problem ??= () => errorText({ message, sentence });
  }
  return { done: sent - failed, failed, ...(problem ? { problem } : {}), states };
}

/** A filtered gallery read again from main (images it may hold again: a restore, an Undo). */
function refreshFiltered(store: Store): void {
  const state = store.getState();
  if (hasActiveFilters(state.galleryFilters)) void state.galleryRefresh();
}

/** One delete: its images, its entry, what was sent and what main deleted. */
interface DeleteJob {
  readonly refs: readonly ImageRef[];
  readonly trash: TrashJob;
  /** Sent to main so far: what an Undo while it runs asks back. */
  readonly sent: ImageRef[];
  /** What main said it deleted: what an Undo after it ended asks back. */
  deleted: ImageRef[];
  /** An Undo stopped it: no more chunks go. */
  stopped: boolean;
}

/** Each delete by its refs (the array Undo is given back). */
const jobs = new WeakMap<readonly ImageRef[], DeleteJob>();

/** Counts the deletes and Undos under way: the grid may be between two states meanwhile. */
function busy(store: Store, step: 1 | -1): void {
  store.setState((state) => ({ galleryTrashBusy: Math.max(0, state.galleryTrashBusy + step) }));
}

/** The viewer moves on to the next image (or the previous one) before this one goes; undone. */
function moveViewerOn(store: Store, refs: readonly ImageRef[]): () => void {
  const gone = new Set(refs.map(itemKey));
  const { galleryRefs: list, galleryViewerKey: open } = store.getState();
  if (open === null || !gone.has(open)) return () => undefined;
  const at = list.findIndex((candidate) => itemKey(candidate) === open);
  const after = list.slice(at + 1).find((candidate) => !gone.has(itemKey(candidate)));
  const before = list
    .slice(0, Math.max(0, at))
    .reverse()
    .find((candidate) => !gone.has(itemKey(candidate)));
  const neighbour = after ?? before;
  store.setState({ galleryViewerKey: neighbour ? itemKey(neighbour) : null });
  return () => store.setState({ galleryViewerKey: open });
}

/** What a delete did, in a sentence with the real count. */
function deleteWords(result: BatchResult, asked: number): Words {
  const { done, failed } = result;
  if (failed === 0) {
    return asked === 1
      ? () => t('gallery.announce.deleted')
      : () => t('gallery.announce.deletedMany', { count: done });
  }
  return () =>
    t('gallery.announce.partly', { done, count: done + failed, problem: result.problem?.() ?? '' });
}

/** What an Undo did. */
function restoreWords(result: BatchResult): Words {
  const { done, failed } = result;
  if (failed === 0) return () => t('gallery.announce.restored', { count: done });
  return () =>
    t('gallery.announce.partly', { done, count: done + failed, problem: result.problem?.() ?? '' });
}

/** Moves the images to the trash (the caller asked the user) as a job with Undo from the start. */
export async function deleteImages(store: Store, items: readonly ImageRef[]): Promise<BatchResult> {
  const refs = items.map(refOf);
  const putViewerBack = moveViewerOn(store, refs);
  // A step of the window's Undo from the first moment; its entry's Undo runs the same step.
  const step = store
    .getState()
    .undoPush(deleteWords({ done: refs.length, failed: 0 }, refs.length), async () => {
      await store.getState().galleryUndoDelete(refs);
      return true;
    });
  const job: DeleteJob = {
    refs,
    sent: [],
    deleted: [],
    stopped: false,
    trash: new TrashJob(store, 'images', refs.length, () => void store.getState().undoRun(step)),
  };
  jobs.set(refs, job);
  store.setState({ galleryUndoable: refs });
  busy(store, 1);
  const unstep = (): void => {
    store.getState().undoForget(step);
    if (store.getState().galleryUndoable === refs) store.setState({ galleryUndoable: null });
  };
  const forget = (): void => {
    putViewerBack();
    job.trash.drop();
    unstep();
  };
  try {
    const { states, ...result } = await inChunks(
      store,
      (images) => call('gallery:deleteImages', { images }),
      refs,
      {
        step: (done) => job.trash.reached(done),
        stopped: () => job.stopped,
        sending: (chunk) => job.sent.push(...chunk),
      },
    );
    if (job.stopped) return { ...result, canceled: true };
    job.deleted = refs.filter((ref) => states.get(itemKey(ref)) === 'deleted');
    // None moved: the caller shows main's sentence instead (deleteWithUndo).
    if (result.done === 0) forget();
    else {
      job.trash.finish(deleteWords(result, refs.length), job.deleted.length > 0);
      if (job.deleted.length === 0) unstep();
    }
    return result;
  } catch (error) {
    forget();
    throw error;
  } finally {
    busy(store, -1);
  }
}

/** The grid (or the viewer) shows the images that came back, the first one focused. */
function showRestored(store: Store, back: readonly ImageRef[]): void {
  const state = store.getState();
  const keys = back.map(itemKey);
  const first = back[0];
  if (state.galleryViewerKey !== null && first)
    store.setState({ galleryViewerKey: itemKey(first) });
  else if (state.tasksViewer !== null && first) state.tasksOpenViewer(refOf(first));
  else store.setState({ galleryRestored: { keys, seq: (state.galleryRestored?.seq ?? 0) + 1 } });
}

/**
 * Brings back the images of one delete (its step on the window's Undo stack), by default the last
 * one: a delete still running is stopped (main brings back what it moved); after it ended, what
 * main deleted is asked back. Null when there is nothing (more) to undo; none back throws main's
 * sentence (the Undo stack says it, and keeps the step).
 */
export async function undoDelete(
  store: Store,
  asked?: readonly ImageRef[],
): Promise<BatchResult | null> {
  const last = store.getState().galleryUndoable;
  const forget = () => store.setState({ galleryUndoable: null });
  const undo = startUndo(store, { asked, last, forget }, jobs, (job) => job.deleted);
  if (undo === null) return null;
  const { job, running, asking } = undo;
  // The Undo button that had the focus is gone: the grid takes it (where nothing else has it).
  store.setState((state) => ({
    galleryRestored: { keys: [], seq: (state.galleryRestored?.seq ?? 0) + 1 },
  }));
  busy(store, 1);
  try {
    const { states, ...answer } = await inChunks(
      store,
      (images) => call('gallery:undoDelete', { images }),
      asking,
    );
    // Images a stopped delete never sent stayed where they were: back as well.
    const sent = new Set(asking.map(itemKey));
    const whole = running && job ? job.refs : asking;
    const back = whole.filter(
      (ref) => !sent.has(itemKey(ref)) || states.get(itemKey(ref)) === 'saved',
    );
    const result: BatchResult = {
      done: whole.length - answer.failed,
      failed: answer.failed,
      ...(answer.problem ? { problem: answer.problem } : {}),
    };
    if (back.length > 0) showRestored(store, back);
    if (result.done === 0) {
      // Main's own sentence when it gave one, not a generic one with it hidden in the details.
      throw failure(answer.problem ?? (() => t('gallery.actionFailed')));
    }
    undo.undone(restoreWords(result));
    return result;
  } catch (error) {
    // The delete stands: the window's Undo keeps its step, to be asked again.
    undo.failed();
    throw error;
  } finally {
    busy(store, -1);
  }
}
