/**
 * The gallery's image viewer, opened in place over the Tasks screen from a row's thumbnails or
 * the pictures in Task details (tasks/open-image-button.tsx). It shows the task's saved images,
 * starting with the one clicked; closing it gives the focus back to the thumbnail that opened it.
 * The window puts it in the Tasks screen (app.tsx), so the tasks need not know the gallery.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { galleryItemOf, type GalleryItem } from '../../../shared/domain/gallery-item';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { ViewErrorBoundary } from '../../components/error-boundary';
import { useAppStore } from '../../store/app-store';
import { selectRecord } from '../../store/record-selectors';
import { savedImages } from '../../lib/saved-images';
import { ConfirmImageDelete } from './confirm-image-delete';
import { GalleryViewer } from './gallery-viewer';
import { useImageActions, type ImageActions } from './use-image-actions';

const store = useAppStore.getState;

export function TaskImageViewer() {
  const open = useAppStore((state) => state.tasksViewer);
  const record = useAppStore(
    (state) => selectRecord(state.tasksViewer?.localId ?? null)(state)?.record ?? null,
  );
  if (open === null || record === null) return null;
  return (
    <ViewErrorBoundary>
      <OpenViewer record={record} index={open.index} />
    </ViewErrorBoundary>
  );
}

/**
 * The gallery's image actions as the task viewer needs them: Reuse fills the form from the task's
 * record (as its row does) and returns to the prompt, a delete moves the viewer on (and back when
 * the trash refuses).
 */
function useViewerActions(
  record: TaskRecord,
  imageActions: ImageActions,
  items: readonly GalleryItem[],
  show: (next: GalleryItem | undefined) => void,
): ImageActions {
  return useMemo<ImageActions>(
    () => ({
      ...imageActions,
      reuse: () => {
        const state = store();
        state.reuseTask(record);
        state.tasksCloseViewer();
        state.tasksOpenDetails(null);
        state.requestFocus('prompt');
      },
      remove: async (removed) => {
        // The viewer moves on to the next image (or the previous one) before this one goes, or
        // closes after the last; if the trash refuses it, the viewer comes back to it.
        const at = items.findIndex((candidate) => candidate.index === removed.index);
        show(items[at + 1] ?? items[at - 1]);
        const done = await imageActions.remove(removed);
        if (!done && items.length > 1) show(removed);
        return done;
      },
    }),
    [record, imageActions, items, show],
  );
}

function OpenViewer({ record, index }: { record: TaskRecord; index: number }) {
  // Read while rendering: the viewer moves the focus to its stage in its own first effect.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  const [confirming, setConfirming] = useState<GalleryItem | null>(null);
  const items = useMemo(
    () => savedImages(record).map((image) => galleryItemOf(record, image)),
    [record],
  );
  const position = items.findIndex((item) => item.index === index);
  const item = items[position];
  const { actions: imageActions, problem, dismissProblem } = useImageActions();

  const close = useCallback(() => {
    store().tasksCloseViewer();
    if (opener?.isConnected) opener.focus();
  }, [opener]);
  const show = useCallback(
    (next: GalleryItem | undefined) =>
      next ? store().tasksOpenViewer({ localId: next.localId, index: next.index }) : close(),
    [close],
  );

  const actions = useViewerActions(record, imageActions, items, show);

  // The image is no longer saved (deleted or downloading again elsewhere): nothing to show.
  const gone = item === undefined;
  useEffect(() => {
    if (gone) close();
  }, [gone, close]);
  if (!item) return null;
  return (
    <>
      <GalleryViewer
        item={item}
        position={position}
        count={items.length}
        hasMore={false}
        onNavigate={(step) => {
          const next = items[position + step];
          if (next) show(next);
        }}
        onClose={close}
        onDelete={(target) => setConfirming(target)}
        actions={actions}
        problem={problem}
        onDismissProblem={dismissProblem}
      />
      <ConfirmImageDelete
        target={confirming}
        onDone={() => setConfirming(null)}
        remove={actions.remove}
      />
    </>
  );
}
