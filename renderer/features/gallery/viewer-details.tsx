import { imageServiceLabel } from '../../lib/service-label';
import type { ReactNode } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { ImageRecord } from '../../../shared/domain/task-record';
import { flagOf } from '../../../shared/domain/triage';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { CredentialsSummary } from '../../components/content-credentials';
import { IsolatedName } from '../../components/isolated-name';
import {
  formatBytes,
  formatDateTime,
  formatDimensions,
  formatSize,
  sentenceShown,
  t,
} from '../../i18n';
import { KEY_REMOVED_LABEL, keyRemovedSentence } from '../../../shared/i18n/key-removed';
import { canVary } from '../../lib/can-vary';
import { qualityLabel } from '../../lib/request-options';
import { useAppStore } from '../../store/app-store';
import { refOf } from '../../store/gallery-delete';
import type { ImageActions } from './use-image-actions';
import { ViewerSeed } from './viewer-seed';

export interface ViewerDetailsProps {
  readonly item: GalleryItem;
  readonly actions: ImageActions;
  readonly onDelete: (item: GalleryItem) => void;
  readonly titleId: string;
}

function Row({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div className="viewer-details__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** What Pictor left out of the image's metadata because it carried a held key, if anything. */
function KeyRemovedRow({ removed }: { readonly removed: ImageRecord['keyRemoved'] }) {
  if (!removed) return null;
  return (
    <Row label={sentenceShown(KEY_REMOVED_LABEL)}>{sentenceShown(keyRemovedSentence(removed))}</Row>
  );
}

/** The prompt, the parameters and the file's facts, then what can be done with the image. */
/** What was asked, what came back, and the task it came from. */
function DetailsFacts({ item, actions }: Pick<ViewerDetailsProps, 'item' | 'actions'>) {
  const { image } = item;
  const dimensions =
    image.width !== undefined && image.height !== undefined
      ? t('viewer.dimensionsValue', { size: formatDimensions(image.width, image.height) })
      : t('viewer.unknown');
  return (
    <dl className="viewer-details__facts">
      <Row label={t('viewer.service')}>{imageServiceLabel(item)}</Row>
      <Row label={t('viewer.modelAsked')}>
        <IsolatedName name={item.model} fallback={t('viewer.serviceDefault')} />
      </Row>
      <Row label={t('viewer.modelReported')}>
        <IsolatedName name={item.reportedModel} fallback={t('viewer.modelNotReported')} />
      </Row>
      <ViewerSeed localId={item.localId} />
      <Row label={t('viewer.size')}>
        {item.size ? formatSize(item.size) : t('viewer.serviceDefault')}
      </Row>
      <Row label={t('viewer.quality')}>
        {item.quality ? qualityLabel(item.quality) : t('viewer.serviceDefault')}
      </Row>
      <Row label={t('viewer.dimensions')}>{dimensions}</Row>
      <Row label={t('viewer.fileSize')}>
        {image.bytes === undefined ? t('viewer.unknown') : formatBytes(image.bytes)}
      </Row>
      <Row label={t('viewer.date')}>{formatDateTime(item.createdAt)}</Row>
      {image.contentCredentials ? (
        <Row label={t('common.credentials.title')}>
          <CredentialsSummary credentials={image.contentCredentials} />
        </Row>
      ) : null}
      <KeyRemovedRow removed={image.keyRemoved} />
      <Row label={t('viewer.taskId')}>
        {item.taskId === null ? (
          t('viewer.taskIdNone')
        ) : (
          <span className="viewer-details__task-id">
            <code>{item.taskId}</code>
            <IconButton
              icon="copy"
              size="small"
              label={t('viewer.copyTaskId')}
              onClick={() => actions.copyTaskId(item)}
            />
          </span>
        )}
      </Row>
    </dl>
  );
}

/**
 * Pick or Reject as a toggle (pressed: the image has that flag; again: unflagged), a triage change
 * with Undo on the window's list.
 */
function FlagButton({ item, flag }: { item: GalleryItem; flag: 'pick' | 'reject' }) {
  const pressed = flagOf(item.image) === flag;
  const next = pressed ? 'none' : flag;
  return (
    <Button
      icon={flag === 'pick' ? 'flag' : 'reject'}
      aria-pressed={pressed}
      className={`viewer-details__${flag}`}
      onClick={() =>
        void useAppStore.getState().triageApply([refOf(item)], { kind: 'flag', flag: next }, [item])
      }
    >
      {t(flag === 'pick' ? 'viewer.favourite' : 'gallery.menu.reject')}
    </Button>
  );
}

/**
 * Reuse, run again, vary (where its task can be varied: lib/can-vary.ts, as Task details asks),
 * pick, reject, copy, save as, show in folder, delete.
 */
function DetailsActions({
  item,
  actions,
  onDelete,
  saved,
}: Omit<ViewerDetailsProps, 'titleId'> & { saved: boolean }) {
  return (
    <div className="viewer-details__actions" role="group" aria-label={t('viewer.actions')}>
      <Button
        icon="send"
        variant="primary"
        className="viewer-details__wide"
        onClick={() => actions.reuse(item)}
      >
        {/* The task row's own action, by its name (seed-slice.ts reuseTask). */}
        {t('tasks.action.reuse')}
      </Button>
      <Button icon="retry" className="viewer-details__wide" onClick={() => actions.rerun(item)}>
        {t('viewer.rerun')}
      </Button>
      {canVary(item) ? (
        <Button
          icon="retry"
          className="viewer-details__wide"
          title={t('tasks.action.vary.hint')}
          onClick={() => actions.vary(item)}
        >
          {t('tasks.action.vary')}
        </Button>
      ) : null}
      <FlagButton item={item} flag="pick" />
      <FlagButton item={item} flag="reject" />
      <Button icon="copy" disabled={!saved} onClick={() => actions.copyImage(item)}>
        {t('viewer.copyImage')}
      </Button>
      <Button icon="image" disabled={!saved} onClick={() => actions.saveAs(item)}>
        {t('viewer.saveAs')}
      </Button>
      <Button icon="folder" disabled={!saved} onClick={() => actions.reveal(item)}>
        {t('viewer.reveal')}
      </Button>
      <Button
        icon="trash"
        variant="danger"
        className="viewer-details__wide"
        disabled={!saved}
        onClick={() => onDelete(item)}
      >
        {t('viewer.delete')}
      </Button>
    </div>
  );
}

export function ViewerDetails({ item, actions, onDelete, titleId }: ViewerDetailsProps) {
  const { image } = item;
  const saved = image.state === 'saved' && image.file !== undefined;
  return (
    <aside className="viewer-details" aria-labelledby={titleId}>
      <h2 id={titleId} className="viewer-details__heading">
        {t('viewer.prompt')}
      </h2>
      <p className="viewer-details__prompt">{item.prompt}</p>
      <DetailsFacts item={item} actions={actions} />
      <DetailsActions item={item} actions={actions} onDelete={onDelete} saved={saved} />
      {saved ? <p className="viewer-details__hint">{t('viewer.dragHint')}</p> : null}
    </aside>
  );
}
