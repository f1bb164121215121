import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
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
 * How the gallery is shown, behind one "Display" button: chosen once and seldom changed, these
 * three controls would otherwise be three more Tab stops between the filters and the images.
 * Escape closes them and gives the focus back to the button.
 */
export function GalleryDisplayOptions() {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="gallery-display">
      <Button
        ref={button}
        size="small"
        variant="ghost"
        aria-expanded={open}
        aria-controls={open ? `${id}-display` : undefined}
        onClick={() => setOpen(!open)}
      >
        {t('gallery.display.label')}
      </Button>
      {open ? <DisplayChoices id={`${id}-display`} onKeyDown={onKeyDown} /> : null}
    </div>
  );
}

/**
 * The gallery's order, the thumbnail size (a three-step slider), and whether tiles show the
 * whole image. Each choice is kept for the next start (store/gallery-display.ts).
 */
function DisplayChoices(props: { id: string; onKeyDown: (event: KeyboardEvent) => void }) {
  const id = props.id;
  const display = useAppStore((s) => s.galleryDisplay);
  const setDisplay = useAppStore((s) => s.gallerySetDisplay);
  const sizeStep = THUMBNAIL_SIZES.indexOf(display.thumbnailSize);
  return (
    <div
      id={id}
      className="gallery-display__choices"
      role="group"
      aria-label={t('gallery.display.label')}
      onKeyDown={props.onKeyDown}
    >
      <SelectField
        className="gallery-display__field"
        label={t('gallery.sort.label')}
        value={display.sort}
        options={gallerySortSchema.options.map((sort) => ({
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
    </div>
  );
}
