import { useCallback, useMemo, useState } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { announce } from '../../components/live-region';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { failure, problemOf, type Problem } from '../../lib/api';
import { fileLocation } from '../../lib/file-location';
import type { ImageRef } from '../../store/gallery-trash-slice';
import type { Words } from '../../store/status-slice';

/** What can be done to one image, from a tile or from the viewer. */
export interface ImageActions {
  retry(item: GalleryItem): void;
  copyImage(item: GalleryItem): void;
  saveAs(item: GalleryItem): void;
  reveal(item: GalleryItem): void;
  startDrag(item: GalleryItem): void;
  copyTaskId(item: GalleryItem): void;
  /**
   * Fills the compose form with the image's task's request, as "Use this prompt" of its row (its
   * options, seed and template too), and shows the tasks screen.
   */
  reuse(item: GalleryItem): void;
  /** Submits the image's task again as one new task on its own service (the tasks' "Rerun"). */
  rerun(item: GalleryItem): void;
  /** The image's task's request again with a new seed (its details' "Vary"; lib/can-vary.ts). */
  vary(item: GalleryItem): void;
  /** Moves the image to the trash (the caller has asked the user already), with Undo. */
  remove(item: GalleryItem): Promise<boolean>;
}

export interface ImageActionsState {
  readonly actions: ImageActions;
  /** The last action that failed, as a sentence with details. */
  readonly problem: Problem | null;
  readonly dismissProblem: () => void;
}

/** Runs an action: what it did is said in the status area, a failure kept as the problem. */
function useActionRunner() {
  const [problem, setProblem] = useState<Problem | null>(null);
  const run = useCallback(async (action: () => Promise<Words | null>): Promise<boolean> => {
    setProblem(null);
    try {
      const sentence = await action();
      // Shown in the status area, whose polite region also says it to screen readers.
      if (sentence) useAppStore.getState().confirm(sentence);
      return true;
    } catch (error) {
      setProblem(problemOf(error, () => t('gallery.actionFailed')));
      return false;
    }
  }, []);
  return { problem, setProblem, run };
}

/**
 * The gallery's actions with their feedback: success is said in the status area, failure becomes a
 * {@link Problem} the screen shows until dismissed or the next action.
 */
export function useImageActions(): ImageActionsState {
  const { problem, setProblem, run } = useActionRunner();

  const actions = useMemo<ImageActions>(() => {
    const store = useAppStore.getState;
    return {
      retry: (item) =>
        void run(async () => {
          await store().galleryRetry(item);
          return () => t('gallery.announce.retrying');
        }),
      copyImage: (item) =>
        void run(async () => {
          await store().galleryCopyImage(item);
          return () => t('viewer.imageCopied');
        }),
      saveAs: (item) =>
        void run(async () => {
          const path = await store().gallerySaveAs(item);
          return path === null ? null : () => t('toasts.savedAs', { ...fileLocation(path) });
        }),
      reveal: (item) => void run(async () => (await store().galleryReveal(item), null)),
      startDrag: (item) => void run(async () => (await store().galleryStartDrag(item), null)),
      copyTaskId: (item) =>
        void run(async () => {
          await store().galleryCopyTaskId(item);
          return () => t('viewer.taskIdCopied');
        }),
      reuse: (item) =>
        void run(async () => {
          // The task's record, not the image's few fields: an image lists no options nor seed.
          if (!(await store().reuseTaskOf(item.localId)))
            throw failure(() => t('gallery.actionFailed'));
          const state = store();
          state.galleryCloseViewer();
          state.setView('tasks');
          state.requestFocus('prompt');
          return null;
        }),
      rerun: (item) =>
        void store()
          .tasksResend([item.localId], 'each')
          .then((sent) => sent && announce(t('tasks.rerunSent'))),
      vary: (item) => void store().tasksVary(item),
      remove: (item) => run(() => deleteWithUndo([item])),
    };
  }, [run]);

  const dismissProblem = useCallback(() => setProblem(null), []);
  return { actions, problem, dismissProblem };
}

/**
 * Deletes the images, with Undo from the first moment (the delete's entry in the status area
 * says how far it is, then what it did; the window's Ctrl/Cmd+Z asks for them too, even while it
 * runs). Throws when none could be deleted, with main's own sentence.
 */
export async function deleteWithUndo(items: readonly ImageRef[]): Promise<null> {
  const result = await useAppStore.getState().galleryDeleteImages(items);
  if (result.done === 0 && result.failed > 0 && !result.canceled) {
    throw failure(result.problem ?? (() => t('gallery.actionFailed')));
  }
  return null;
}
