import { useId } from 'react';
import { gallerySortSchema, type GallerySort } from '../../../shared/domain/gallery-item';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { THUMBNAIL_SIZES } from '../../store/gallery-display';
import './gallery-basics.css';

const SORT_LABEL: Record<GallerySort, MessageKey> = {
  newest: 'gallery.sort.newest',
  oldest: 'gallery.sort.oldest',
  prompt: 'gallery.sort.prompt',
};

const SIZE_LABEL: Record<(typeof THUMBNAIL_SIZES)[number], MessageKey> = {
  small: 'gallery.size.small',
  medium: 'gallery.size.medium',
  large: 'gallery.size.large',
};

/**
 * How the gallery is shown: its order, the thumbnail size (a three-step slider), and whether
 * tiles show the whole image. Each choice is kept for the next start (store/gallery-display.ts).
 */
export function GalleryDisplayOptions() {
  const id = useId();
  const display = useAppStore((s) => s.galleryDisplay);
  const setDisplay = useAppStore((s) => s.gallerySetDisplay);
  const sizeStep = THUMBNAIL_SIZES.indexOf(display.thumbnailSize);
  return (
    <div className="gallery-display" role="group" aria-label={t('gallery.display.label')}>
      <div className="gallery-display__field">
        <label htmlFor={`${id}-sort`}>{t('gallery.sort.label')}</label>
        <select
          id={`${id}-sort`}
          className="select"
          value={display.sort}
          onChange={(event) => {
            const sort = gallerySortSchema.safeParse(event.target.value);
            if (sort.success) setDisplay({ sort: sort.data });
          }}
        >
          {gallerySortSchema.options.map((sort) => (
            <option key={sort} value={sort}>
              {t(SORT_LABEL[sort])}
            </option>
          ))}
        </select>
      </div>
      <div className="gallery-display__field">
        <label htmlFor={`${id}-size`}>{t('gallery.size.label')}</label>
        <input
          id={`${id}-size`}
          type="range"
          className="gallery-display__size"
          min={0}
          max={THUMBNAIL_SIZES.length - 1}
          step={1}
          value={sizeStep}
          aria-valuetext={t(SIZE_LABEL[display.thumbnailSize])}
          onChange={(event) => {
            const size = THUMBNAIL_SIZES[Number(event.target.value)];
            if (size) setDisplay({ thumbnailSize: size });
          }}
        />
      </div>
      <label className="checkbox gallery-display__check">
        <input
          type="checkbox"
          checked={display.uncropped}
          onChange={(event) => setDisplay({ uncropped: event.target.checked })}
        />
        {t('gallery.uncropped.label')}
      </label>
    </div>
  );
}
