import { useEffect, useState, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { FIT, currentScale, zoomBy, type Size, type ZoomState } from './zoom-pan';

/** The viewer's zoom over the image it shows, and the image's size as far as it is known. */
export interface ViewerZoom {
  /** The image's identity (task and index): a new one opens at "fit". */
  readonly key: string;
  readonly zoom: ZoomState;
  readonly setZoom: (update: ZoomState | ((current: ZoomState) => ZoomState)) => void;
  /** The recorded size, else the decoded one, else null (not known yet). */
  readonly imageSize: Size | null;
  /** `imageSize`, or nothing when it is not known yet. */
  readonly size: Size;
  /** The scale the image is shown at on the stage (fit's, or the zoom's own). */
  readonly scale: number;
  readonly onImageSize: (natural: Size) => void;
  readonly zoomStep: (factor: number) => void;
}

function recordedSize(item: GalleryItem): Size | null {
  const { width, height } = item.image;
  return width !== undefined && height !== undefined ? { width, height } : null;
}

export function useViewerZoom(item: GalleryItem, stageSize: Size): ViewerZoom {
  const [zoom, setZoom] = useState<ZoomState>(FIT);
  const [loaded, setLoaded] = useState<{ key: string; size: Size } | null>(null);
  const key = `${item.localId}/${String(item.index)}`;
  const imageSize = recordedSize(item) ?? (loaded?.key === key ? loaded.size : null);
  const size = imageSize ?? { width: 0, height: 0 };
  // Every image opens at "fit".
  useEffect(() => setZoom(FIT), [key]);
  return {
    key,
    zoom,
    setZoom,
    imageSize,
    size,
    scale: currentScale(zoom, size, stageSize),
    onImageSize: (natural) => setLoaded({ key, size: natural }),
    zoomStep: (factor) => setZoom((current) => zoomBy(current, factor, size, stageSize)),
  };
}

/**
 * The focus starts on the stage, and stays in the viewer when the image changes under it
 * (deleted, restored): a button that became disabled or went away would otherwise drop it to the
 * page.
 */
export function useViewerFocus(
  dialogRef: RefObject<HTMLElement | null>,
  stageRef: RefObject<HTMLElement | null>,
  key: string,
): void {
  useEffect(() => stageRef.current?.focus({ preventScroll: true }), [stageRef]);
  useEffect(() => {
    const dialog = dialogRef.current;
    const active = document.activeElement;
    if (dialog && (active === null || active === document.body || !document.contains(active))) {
      stageRef.current?.focus({ preventScroll: true });
    }
  }, [key, dialogRef, stageRef]);
}
