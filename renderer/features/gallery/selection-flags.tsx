/**
 * The selection bar's flags: Pick (Unflag when every loaded selected image is picked already) and
 * Reject, for every selected image, loaded or not. A flag, never a star: stars are the rating's.
 */
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { failure } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { Words } from '../../store/status-slice';
import type { GallerySelectionState } from './gallery-selection-state';

interface SelectionFlagsProps {
  readonly selection: Pick<GallerySelectionState, 'refs' | 'items'>;
  readonly run: (action: () => Promise<Words | null>) => Promise<void>;
}

export function SelectionFlags({ selection, run }: SelectionFlagsProps) {
  const { items } = selection;
  // The loaded part tells: all of it picked already, the button takes the flags off.
  const allPicked = items.length > 0 && items.every((item) => item.image.favourite);
  const pick = () =>
    void run(async () => {
      const result = await useAppStore
        .getState()
        .gallerySetFavourites(await selection.refs(), !allPicked);
      if (result.done === 0 && result.failed > 0)
        throw failure(result.problem ?? (() => t('gallery.actionFailed')));
      return () => t(allPicked ? 'triage.unflagged' : 'triage.picked', { count: result.done });
    });
  // A triage change (with Undo), which says what it did itself.
  const reject = () =>
    void run(async () => {
      const refs = await selection.refs();
      await useAppStore.getState().triageApply(refs, { kind: 'flag', flag: 'reject' }, items);
      return null;
    });
  return (
    <>
      <Button icon="flag" size="small" onClick={pick}>
        {t(allPicked ? 'gallery.selection.unfavourite' : 'gallery.selection.favourite')}
      </Button>
      <Button icon="reject" size="small" onClick={reject}>
        {t('gallery.selection.reject')}
      </Button>
    </>
  );
}
