import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { useAppStore } from '../../store/app-store';
import { t } from '../../i18n';
import { useGalleryHeaderFold, useHeaderFold } from '../../lib/use-header-fold';
import type { ListStatus } from '../../store/paged-list';
import { GalleryDisplayOptions } from './gallery-display-options';
import { GalleryFiltersBar, type GalleryFiltersBarProps } from './gallery-filters';
import type { GallerySelectionState } from './gallery-selection-state';
import { matchingCount } from './matching-count';

interface GalleryHeaderProps {
  readonly titleId: string;
  readonly status: ListStatus;
  /** Images loaded so far. */
  readonly loaded: number;
  readonly total: number | null;
  readonly hasMore: boolean;
  readonly selection: Pick<GallerySelectionState, 'whole' | 'selectAll'>;
  readonly filters: GalleryFiltersBarProps['filters'];
  readonly models: GalleryFiltersBarProps['models'];
  readonly onFiltersChange: GalleryFiltersBarProps['onChange'];
  /** The gallery is the screen shown. */
  readonly shown: boolean;
}

/** The count of images: the whole gallery's when known, else what is loaded ("100+"). */
function countText({ status, loaded, total, hasMore }: GalleryHeaderProps): string | null {
  if (status !== 'ready') return null;
  const { count, more } = matchingCount(loaded, total, hasMore);
  return t(more ? 'gallery.countMore' : 'gallery.count', { count });
}

/**
 * "Edit a file…": its words where the header has room for them, else its icon, named (and its
 * tooltip) by the same words. Either way it says what it does.
 */
function EditFromFile() {
  const small = useHeaderFold();
  const open = () => void useAppStore.getState().editOpenFromFile();
  if (small) {
    return (
      <IconButton
        icon="image"
        size="small"
        label={t('edit.fromFile')}
        data-testid="edit-from-file"
        onClick={open}
      />
    );
  }
  return (
    <Button size="small" variant="ghost" icon="image" data-testid="edit-from-file" onClick={open}>
      {t('edit.fromFile')}
    </Button>
  );
}

/**
 * The gallery's title, count, Select all, filters and display options, on one row: the filters
 * but the search fold behind a "Filters" button (that counts those in use) in any window but a
 * very large one, so the header leaves the images their rows and every control stays in the
 * window.
 */
export function GalleryHeader(props: GalleryHeaderProps) {
  const { titleId, status, loaded, selection } = props;
  // Also while a new filter's list loads over the images shown: the search applies as the focus
  // leaves its field for this button, and the button must not vanish under the press.
  const selectable = (status === 'ready' || status === 'loading') && loaded > 0 && !selection.whole;
  const folded = useGalleryHeaderFold();
  return (
    <header className="gallery__header">
      <div className="gallery__heading">
        <h1 id={titleId} className="gallery__title">
          {t('gallery.title')}
        </h1>
        {/* Always in place, so the header keeps its layout while the count comes and goes. */}
        <span className="gallery__count">{countText(props)}</span>
        {/* Kept in place while there is nothing to select (hidden, and no Tab stop), so the
            filters never move. */}
        <Button
          size="small"
          variant="ghost"
          aria-keyshortcuts="Control+A"
          className={selectable ? undefined : 'gallery__select-all--idle'}
          tabIndex={selectable ? undefined : -1}
          aria-hidden={selectable ? undefined : true}
          onClick={selection.selectAll}
        >
          {t('gallery.selection.selectAll')}
        </Button>
        <EditFromFile />
      </div>
      <GalleryFiltersBar
        filters={props.filters}
        models={props.models}
        onChange={props.onFiltersChange}
        active={props.shown}
        folded={folded}
      />
      <GalleryDisplayOptions />
    </header>
  );
}
