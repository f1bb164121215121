import type { ReactNode } from 'react';
import { Icon } from '../../components/icon';
import { t } from '../../i18n';
import { ChevronIcon, MinusIcon, PlusIcon } from './gallery-icons';
import type { ViewerZoom } from './use-viewer-zoom';
import { FIT, ZOOM_STEP, actualSize } from './zoom-pan';

/** Previous and next among the images the viewer moves through. */
export interface ViewerNav {
  readonly canPrevious: boolean;
  readonly canNext: boolean;
  /** Moves one image back or on; does nothing where there is none. */
  readonly go: (step: -1 | 1) => void;
}

/** `onNavigate` guarded by whether there is an image that way. */
export function viewerNav(
  canPrevious: boolean,
  canNext: boolean,
  onNavigate: (step: -1 | 1) => void,
): ViewerNav {
  return {
    canPrevious,
    canNext,
    go: (step) => {
      if (step < 0 ? canPrevious : canNext) onNavigate(step);
    },
  };
}

export interface ViewerToolbarProps {
  /** "Image 3 of 200". */
  readonly position: string;
  readonly view: Pick<ViewerZoom, 'zoom' | 'setZoom' | 'zoomStep' | 'scale'>;
  readonly nav: ViewerNav;
  readonly onClose: () => void;
  /** The details panel's toggle: whether it is hidden, and the panel's id. */
  readonly details?: {
    readonly hidden: boolean;
    readonly controls: string;
    readonly onToggle: () => void;
  };
}

/** Zoom out, the percentage, zoom in, Fit and Actual size. */
function ZoomControls({ view }: ViewerToolbarProps) {
  const { zoom, setZoom: onZoom, zoomStep: onZoomStep } = view;
  const percent = Math.round(view.scale * 100);
  return (
    <div className="viewer__zoom" role="group" aria-label={t('viewer.zoomControls')}>
      <ToolButton label={t('viewer.zoomOut')} onClick={() => onZoomStep(1 / ZOOM_STEP)}>
        <MinusIcon />
      </ToolButton>
      <output className="viewer__percent">{t('viewer.zoomLevel', { percent })}</output>
      <ToolButton label={t('viewer.zoomIn')} onClick={() => onZoomStep(ZOOM_STEP)}>
        <PlusIcon />
      </ToolButton>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-pressed={zoom.mode === 'fit'}
        onClick={() => onZoom(FIT)}
      >
        {t('viewer.fit')}
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        aria-pressed={zoom.mode === 'scale' && zoom.scale === 1}
        onClick={() => onZoom(actualSize())}
      >
        {t('viewer.actualSize')}
      </button>
    </div>
  );
}

/** The viewer's top bar: where the image is in the gallery, zoom, previous/next and close. */
export function ViewerToolbar(props: ViewerToolbarProps) {
  const { nav } = props;
  return (
    <div className="viewer__bar">
      <span className="viewer__position">{props.position}</span>
      <ZoomControls {...props} />
      <div className="viewer__nav">
        {props.details ? (
          <button
            type="button"
            className="button button--ghost button--small"
            aria-expanded={!props.details.hidden}
            aria-controls={props.details.controls}
            aria-keyshortcuts="I"
            onClick={props.details.onToggle}
          >
            {t(props.details.hidden ? 'viewer.details.show' : 'viewer.details.hide')}
          </button>
        ) : null}
        <ToolButton
          label={t('viewer.previous')}
          disabled={!nav.canPrevious}
          onClick={() => nav.go(-1)}
        >
          <ChevronIcon direction="left" />
        </ToolButton>
        <ToolButton label={t('viewer.next')} disabled={!nav.canNext} onClick={() => nav.go(1)}>
          <ChevronIcon direction="right" />
        </ToolButton>
        <ToolButton label={t('viewer.close')} onClick={props.onClose}>
          <Icon name="close" />
        </ToolButton>
      </div>
    </div>
  );
}

function ToolButton(props: {
  readonly label: string;
  readonly onClick: () => void;
  readonly disabled?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={props.label}
      title={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}
