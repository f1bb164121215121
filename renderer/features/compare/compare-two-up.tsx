/**
 * 2-up: two cells' images side by side, zoomed and panned together (one transform for both: the
 * wheel or the buttons zoom, a drag pans), or stacked with an A/B divider the user drags (a
 * range input, so the keys move it too) to show the left image up to it and the right one after.
 */
import { useState, type PointerEvent, type WheelEvent } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { imageUrl } from '../../lib/api';
import { savedImages } from '../../lib/saved-images';
import { compareTargetName } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';

interface View {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

const FIT: View = { scale: 1, x: 0, y: 0 };
const MAX_SCALE = 16;

/** `view` zoomed by `factor`, within 1× and 16×. */
function zoomed(view: View, factor: number): View {
  const scale = Math.min(MAX_SCALE, Math.max(1, view.scale * factor));
  return scale === 1 ? FIT : { ...view, scale };
}

/** One zoom and pan for both panes: the wheel zooms, a drag pans. */
function useSyncedView() {
  const [view, setView] = useState<View>(FIT);
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const stage = {
    onWheel: (event: WheelEvent) => setView((now) => zoomed(now, event.deltaY < 0 ? 1.1 : 1 / 1.1)),
    onPointerDown: (event: PointerEvent) => setDrag({ x: event.clientX, y: event.clientY }),
    onPointerMove: (event: PointerEvent) => {
      if (!drag) return;
      setView((now) => ({
        ...now,
        x: now.x + event.clientX - drag.x,
        y: now.y + event.clientY - drag.y,
      }));
      setDrag({ x: event.clientX, y: event.clientY });
    },
    onPointerUp: () => setDrag(null),
    onPointerLeave: () => setDrag(null),
  };
  return { view, setView, stage };
}

interface TwoUpProps {
  readonly a: TaskRecord;
  readonly b: TaskRecord;
}

export function CompareTwoUp({ a, b }: TwoUpProps) {
  const { view, setView, stage } = useSyncedView();
  // The store's, as the view's cell and 2-up are: a new language keeps the mode and the divider.
  const mode = useAppStore((state) => state.compareShown.mode);
  const divider = useAppStore((state) => state.compareShown.divider);
  const { compareSetShown } = useAppStore.getState();
  const setMode = (next: 'side' | 'ab') => compareSetShown({ mode: next });
  const setDivider = (next: number) => compareSetShown({ divider: next });
  const transform = `translate(${String(view.x)}px, ${String(view.y)}px) scale(${String(view.scale)})`;
  const pane = (record: TaskRecord, clip?: string) => (
    <div
      className="compare-two-up__pane"
      data-testid="two-up-pane"
      style={clip ? { clipPath: clip } : undefined}
    >
      <PaneImage record={record} transform={transform} />
    </div>
  );
  return (
    <div className="compare-two-up" data-mode={mode}>
      <div className="compare-two-up__tools">
        <Button size="small" onClick={() => setMode(mode === 'side' ? 'ab' : 'side')}>
          {mode === 'side' ? t('compare.slider') : t('compare.twoUp')}
        </Button>
        <Button size="small" onClick={() => setView((now) => zoomed(now, 1.25))}>
          {t('compare.zoomIn')}
        </Button>
        <Button size="small" onClick={() => setView((now) => zoomed(now, 0.8))}>
          {t('compare.zoomOut')}
        </Button>
        <Button size="small" onClick={() => setView(FIT)}>
          {t('compare.zoomFit')}
        </Button>
      </div>
      <div className="compare-two-up__stage" {...stage}>
        {pane(a)}
        {pane(b, mode === 'ab' ? `inset(0 0 0 ${String(divider)}%)` : undefined)}
      </div>
      {mode === 'ab' ? (
        <input
          type="range"
          className="compare-two-up__divider"
          aria-label={t('compare.slider')}
          min={0}
          max={100}
          value={divider}
          onChange={(event) => setDivider(Number(event.target.value))}
        />
      ) : null}
    </div>
  );
}

function PaneImage({ record, transform }: { record: TaskRecord; transform: string }) {
  const image = savedImages(record)[0];
  if (!image?.file) return <span className="compare-cell__none">{t('compare.noImage')}</span>;
  return (
    <img
      src={imageUrl(image.file)}
      alt={record.compare ? compareTargetName(record) : record.request.prompt}
      style={{ transform }}
      draggable={false}
    />
  );
}
