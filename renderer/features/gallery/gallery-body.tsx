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
    <div className="gallery__placeholder">
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
    </div>
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

/** The grid, or what stands in its place: loading, a read error, or an empty gallery. */
export function GalleryBody({
  status,
  error,
  empty,
  updating,
  filtered,
  onRetryLoad,
  children,
}: GalleryBodyProps) {
  if (status === 'idle' || (status === 'loading' && empty)) {
    return (
      <div className="gallery__placeholder">
        <Spinner size="large" label={t('gallery.loading')} />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div className="gallery__placeholder">
        <ErrorMessage
          message={error?.message ?? t('gallery.loadError')}
          detail={error?.detail}
          actions={<Button onClick={onRetryLoad}>{t('gallery.loadAgain')}</Button>}
        />
      </div>
    );
  }
  if (updating) {
    return (
      <>
        <Updating />
        {children}
      </>
    );
  }
  if (empty && filtered) {
    return (
      <div className="gallery__placeholder">
        <EmptyState
          icon="search"
          title={t('gallery.noMatch.title')}
          body={t('gallery.noMatch.body')}
        />
      </div>
    );
  }
  if (empty) return <EmptyGallery />;
  return <>{children}</>;
}
