/**
 * "Compare with original": the original and a later version of it in one frame at the same
 * displayed size, the original shown up to a divider the user moves with the pointer or the
 * keys (←/→ by 5 %, Home/End to the ends), a slider with its name and value.
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Dialog } from '../../components/dialog';
import { t } from '../../i18n';

interface BeforeAfterProps {
  readonly before: string;
  readonly after: string;
  readonly onClose: () => void;
}

const STEP = 5;
const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

/** The divider's new place after `key`; null for a key it does not take. */
function keyed(key: string, now: number): number | null {
  if (key === 'ArrowLeft' || key === 'ArrowDown') return clamp(now - STEP);
  if (key === 'ArrowRight' || key === 'ArrowUp') return clamp(now + STEP);
  if (key === 'Home') return 0;
  if (key === 'End') return 100;
  return null;
}

export function BeforeAfter({ before, after, onClose }: BeforeAfterProps) {
  const [divider, setDivider] = useState(50);
  const frame = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const follow = (event: PointerEvent) => {
    const box = frame.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setDivider(clamp(((event.clientX - box.left) / box.width) * 100));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const next = keyed(event.key, divider);
    if (next === null) return;
    event.preventDefault();
    // The viewer under the dialog takes the arrows for the previous and next image.
    event.stopPropagation();
    setDivider(next);
  };
  return (
    <Dialog title={t('edit.compareTitle')} onClose={onClose} size="large">
      <div
        ref={frame}
        className="before-after"
        onPointerDown={(event) => {
          setDragging(true);
          follow(event);
        }}
        onPointerMove={(event) => dragging && follow(event)}
        onPointerUp={() => setDragging(false)}
        onPointerLeave={() => setDragging(false)}
      >
        <img className="before-after__image" src={after} alt={t('edit.after')} draggable={false} />
        <img
          className="before-after__image"
          src={before}
          alt={t('edit.before')}
          draggable={false}
          style={{ clipPath: `inset(0 ${String(100 - divider)}% 0 0)` }}
        />
        <div
          className="before-after__divider"
          role="slider"
          tabIndex={0}
          data-autofocus
          aria-label={t('edit.divider')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={divider}
          aria-valuetext={t('edit.dividerValue', { percent: divider })}
          aria-orientation="horizontal"
          style={{ insetInlineStart: `${String(divider)}%` }}
          onKeyDown={onKeyDown}
        />
      </div>
    </Dialog>
  );
}
