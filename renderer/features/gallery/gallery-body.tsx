import type { ReactNode } from 'react';
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
  readonly filtered: boolean;
  readonly onRetryLoad: () => void;
  readonly children: ReactNode;
}

/** The grid, or what stands in its place: loading, a read error, or an empty gallery. */
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

export function GalleryBody({
  status,
  error,
  empty,
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
