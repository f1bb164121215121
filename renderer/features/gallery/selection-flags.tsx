/**
 * The selection bar's flags: Pick (Unflag when every loaded selected image is picked already) and
 * Reject, for every selected image, loaded or not, through triage like the P and X keys. A flag,
 * never a star: stars are the rating's.
 */
import { Button } from '../../components/button';
import { t } from '../../i18n';
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
  // Each a triage change (one step of the window's Undo), which says what it did itself; Pick
  // takes the flags off when every loaded selected image is picked already.
  const flag = (flag: 'pick' | 'reject') =>
    void run(async () => {
      const refs = await selection.refs();
      await useAppStore.getState().triageApply(refs, { kind: 'flag', flag }, items);
      return null;
    });
  return (
    <>
      <Button icon="flag" size="small" onClick={() => flag('pick')}>
        {t(allPicked ? 'gallery.selection.unfavourite' : 'gallery.selection.favourite')}
      </Button>
      <Button icon="reject" size="small" onClick={() => flag('reject')}>
        {t('gallery.selection.reject')}
      </Button>
    </>
  );
}
