/**
 * A task's picture as a button that opens the image viewer over the Tasks screen (the store's
 * `tasksViewer`; the window shows the gallery's viewer for it, gallery/task-image-viewer.tsx).
 */
import type { ReactNode } from 'react';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { t } from '../../i18n';
import { savedImages } from '../../lib/saved-images';
import { useAppStore } from '../../store/app-store';

/** The accessible name of a thumbnail that opens the viewer ("Open image 2 of 3"). */
function openImageLabel(record: TaskRecord, image: ImageRecord): string {
  const saved = savedImages(record);
  const position = saved.findIndex((candidate) => candidate.index === image.index);
  return t('tasks.image.open', { index: position + 1, count: saved.length });
}

/** A task's picture as a button that opens it in the viewer (row thumbnails, Task details). */
export function OpenImageButton({
  record,
  image,
  className,
  children,
}: {
  record: TaskRecord;
  image: ImageRecord;
  className: string;
  children: ReactNode;
}) {
  const openViewer = useAppStore((state) => state.tasksOpenViewer);
  const label = openImageLabel(record, image);
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      title={label}
      onClick={() => openViewer({ localId: record.localId, index: image.index })}
    >
      {children}
    </button>
  );
}
