import { useEffect, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { Problem } from '../../lib/api';
import type { ListStatus } from '../../store/paged-list';

export interface GalleryBodyProps {
  readonly status: ListStatus;
  readonly error: Problem | null;
  readonly empty: boolean;
  /**
   * Nothing to show, but the library holds images (its count says so) or a delete or an Undo is
   * under way: the list is between two states, never the first run's "No images yet".
   */
  readonly updating: boolean;
  readonly filtered: boolean;
  readonly onRetryLoad: () => void;
  readonly children: ReactNode;
}

/** No image yet: the way to the prompt that makes one. */
function EmptyGallery() {
  const setView = useAppStore((s) => s.setView);
  const requestFocus = useAppStore((s) => s.requestFocus);
  return (
    <EmptyState
      icon="image"
      title={t('gallery.empty.title')}
      body={t('gallery.empty.body')}
      action={
        <Button
          variant="primary"
          onClick={() => {
            setView('tasks');
            requestFocus('prompt');
          }}
        >
          {t('gallery.empty.action')}
        </Button>
      }
    />
  );
}

/**
 * Said above the grid while it has nothing to show but the library is not empty (a delete or an
 * Undo under way, the list behind the count): the grid stays, and the focus on it.
 */
function Updating() {
  const busy = useAppStore((s) => s.galleryTrashBusy > 0);
  useEffect(() => {
    // The count and the list disagree with no delete under way: the list is read again.
    if (!busy) void useAppStore.getState().galleryRefresh();
  }, [busy]);
  return (
    <div className="gallery__more">
      <Spinner /> {t('gallery.updating')}
    </div>
  );
}

/**
 * What stands in the grid's place, centred where it would be: loading, a read error, no image
 * the filters match, or an empty gallery; null while the grid shows (or is between two states).
 */
function standIn({
  status,
  error,
  empty,
  updating,
  filtered,
  onRetryLoad,
}: Omit<GalleryBodyProps, 'children'>): ReactNode {
  if (status === 'idle' || (status === 'loading' && empty)) {
    return <Spinner size="large" label={t('gallery.loading')} />;
  }
  if (status === 'error') {
    return (
      <ErrorMessage
        message={error?.message ?? t('gallery.loadError')}
        detail={error?.detail}
        actions={<Button onClick={onRetryLoad}>{t('gallery.loadAgain')}</Button>}
      />
    );
  }
  if (updating || !empty) return null;
  if (!filtered) return <EmptyGallery />;
  return (
    <EmptyState icon="search" title={t('gallery.noMatch.title')} body={t('gallery.noMatch.body')} />
  );
}

/** The grid, or what stands in its place (one placeholder box for each). */
export function GalleryBody(props: GalleryBodyProps) {
  const placeholder = standIn(props);
  if (placeholder !== null) return <div className="gallery__placeholder">{placeholder}</div>;
  if (props.updating) {
    return (
      <>
        <Updating />
        {props.children}
      </>
    );
  }
  return <>{props.children}</>;
}
