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

interface CellProps {
  readonly image: ImageRecord;
  readonly record: TaskRecord;
  readonly still: boolean;
}

function ImageCell({ image, record, still }: CellProps) {
  const source = image.thumbnail ?? image.file;
  if (image.state === 'pending') {
    const label = t('tasks.image.pending');
    return (
      <span className="thumbs__cell thumbs__cell--state">
        {still ? (
          <>
            <Icon name="image" />
            <span className="visually-hidden">{label}</span>
          </>
        ) : (
          <Spinner label={label} />
        )}
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

export interface TaskThumbnailsProps {
  readonly record: TaskRecord;
  /** Results shown at most (four in a row; one on a batch's tile). */
  readonly max?: number;
  /**
   * No spinner: whoever shows the results says the task is busy once, elsewhere (a batch's tile
   * in its corner, batch-tile.tsx).
   */
  readonly still?: boolean;
}

/** The task's results, `max` of them at most. */
export function TaskThumbnails({ record, max = MAX_CELLS, still = false }: TaskThumbnailsProps) {
  const busy =
    !still && (record.status === 'submitting' || (record.status === 'processing' && !record.hold));
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
        <ImageCell key={image.index} image={image} record={record} still={still} />
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
