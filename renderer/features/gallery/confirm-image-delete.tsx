/** Asks before an image goes to the trash: the Gallery and the viewer over Tasks ask alike. */
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ConfirmDialog } from '../../components/dialog';
import { t } from '../../i18n';

export function ConfirmImageDelete({
  target,
  onDone,
  remove,
}: {
  /** The image to delete; nothing is shown while null. */
  target: GalleryItem | null;
  /** Called when the question is answered either way. */
  onDone: () => void;
  remove: (item: GalleryItem) => Promise<unknown>;
}) {
  if (!target) return null;
  return (
    <ConfirmDialog
      title={t('gallery.confirmDelete.title')}
      body={t('gallery.confirmDelete.body')}
      confirmLabel={t('gallery.confirmDelete.confirm')}
      danger
      onConfirm={() => {
        onDone();
        void remove(target);
      }}
      onCancel={onDone}
    />
  );
}
