/**
 * A task's images side by side, each in a fixed square large enough to judge the picture, so
 * rows never change size as images arrive (at most four; a badge says how many more). Thumbnails come through the gallery protocol; alt text is the prompt. A saved
 * image is a button that opens it in the image viewer, over the Tasks screen.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { imageUrl } from '../../lib/api';
import { Icon, type IconName } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { OpenImageButton } from './open-image-button';
import { isViewable } from '../../lib/saved-images';

const MAX_CELLS = 4;

function StateCell({ icon, label }: { icon: IconName; label: string }) {
  return (
    <span className="thumbs__cell thumbs__cell--state" title={label}>
      <Icon name={icon} />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

function ImageCell({ image, record }: { image: ImageRecord; record: TaskRecord }) {
  const source = image.thumbnail ?? image.file;
  if (image.state === 'pending') {
    return (
      <span className="thumbs__cell thumbs__cell--state">
        <Spinner label={t('tasks.image.pending')} />
      </span>
    );
  }
  if (isViewable(image) && source) {
    return (
      <OpenImageButton record={record} image={image} className="thumbs__cell thumbs__cell--open">
        <img
          src={imageUrl(source)}
          alt={record.request.prompt}
          loading="lazy"
          decoding="async"
          draggable={false}
        />
      </OpenImageButton>
    );
  }
  if (image.state === 'deleted') return <StateCell icon="trash" label={t('tasks.image.deleted')} />;
  return (
    <StateCell
      icon="warning"
      label={t(image.state === 'expired' ? 'tasks.image.expired' : 'tasks.image.invalid')}
    />
  );
}

function placeholderIcon(record: TaskRecord): IconName {
  switch (record.status) {
    case 'failed':
    case 'submit_failed':
    case 'not_found':
      return 'error';
    case 'submit_unknown':
      return 'warning';
    case 'completed':
      return 'image';
    default:
      return record.hold ? 'clock' : 'image';
  }
}

/** The task's results, `max` of them at most (four in a row; one on a batch's tile). */
export function TaskThumbnails({ record, max = MAX_CELLS }: { record: TaskRecord; max?: number }) {
  const busy = record.status === 'submitting' || (record.status === 'processing' && !record.hold);
  if (record.images.length === 0) {
    return (
      <div className="thumbs" aria-hidden="true">
        <span className="thumbs__cell thumbs__cell--state">
          {busy ? <Spinner /> : <Icon name={placeholderIcon(record)} />}
        </span>
      </div>
    );
  }
  const shown = record.images.slice(0, max);
  const hidden = record.images.length - shown.length;
  return (
    <div className="thumbs">
      {shown.map((image) => (
        <ImageCell key={image.index} image={image} record={record} />
      ))}
      {hidden > 0 ? (
        <span className="thumbs__more">
          <span aria-hidden="true">{t('tasks.image.moreShort', { count: hidden })}</span>
          <span className="visually-hidden">{t('tasks.image.more', { count: hidden })}</span>
        </span>
      ) : null}
    </div>
  );
}
