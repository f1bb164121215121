import { useId } from 'react';
import { HeaderPanel } from '../../components/header-panel';
import { SelectField } from '../../components/select-field';
import { GALLERY_SORTS, type GallerySort } from '../../../shared/domain/gallery-item';
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
 * How the gallery is shown, behind one "Display" button: chosen once and seldom changed, these
 * three controls would otherwise be three more Tab stops between the filters and the images. They
 * open in a panel under the header (components/header-panel.tsx), so they fit any window; Escape
 * closes them and gives the focus back to the button.
 */
export function GalleryDisplayOptions() {
  return (
    <HeaderPanel label={t('gallery.display.label')} panelClassName="gallery-display__choices">
      <DisplayChoices />
    </HeaderPanel>
  );
}

/**
 * The gallery's order, the thumbnail size (a three-step slider), and whether tiles show the
 * whole image. Each choice is kept for the next start (store/gallery-display.ts).
 */
function DisplayChoices() {
  const id = useId();
  const display = useAppStore((s) => s.galleryDisplay);
  const setDisplay = useAppStore((s) => s.gallerySetDisplay);
  const sizeStep = THUMBNAIL_SIZES.indexOf(display.thumbnailSize);
  return (
    <>
      <SelectField
        className="gallery-display__field"
        label={t('gallery.sort.label')}
        value={display.sort}
        options={GALLERY_SORTS.map((sort) => ({
          value: sort,
          label: t(SORT_LABEL[sort]),
        }))}
        onChange={(sort) => setDisplay({ sort })}
      />
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
    </>
  );
}
