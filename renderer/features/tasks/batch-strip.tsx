/**
 * A batch's results side by side: the strip scrolls sideways when they do not fit, and says so
 * with buttons at its ends (a scrollbar in a row this short is a hairline, or none at all with
 * overlay scrollbars): each moves the strip by most of its width, towards the line's end or its
 * start, in either direction of writing. Focus moving into a tile brings it into view too.
 */
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';

interface Reach {
  /** The strip holds more than it shows. */
  readonly overflows: boolean;
  readonly atStart: boolean;
  readonly atEnd: boolean;
}

const NO_OVERFLOW: Reach = { overflows: false, atStart: true, atEnd: true };

function reachOf(strip: HTMLElement): Reach {
  const hidden = strip.scrollWidth - strip.clientWidth;
  if (hidden <= 1) return NO_OVERFLOW;
  // Right-to-left strips scroll to negative positions; their distance from the start is the same.
  const from = Math.abs(strip.scrollLeft);
  return { overflows: true, atStart: from <= 1, atEnd: from >= hidden - 1 };
}

export function BatchStrip({ children }: { children: ReactNode }) {
  const strip = useRef<HTMLDivElement>(null);
  const [reach, setReach] = useState<Reach>(NO_OVERFLOW);
  const measure = useCallback(() => {
    if (strip.current) setReach(reachOf(strip.current));
  }, []);
  useLayoutEffect(() => {
    measure();
    const element = strip.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure]);
  const move = (towardsEnd: boolean): void => {
    const element = strip.current;
    if (!element) return;
    const rtl = getComputedStyle(element).direction === 'rtl';
    const step = Math.max(80, element.clientWidth * 0.8) * (towardsEnd ? 1 : -1) * (rtl ? -1 : 1);
    element.scrollBy({ left: step, behavior: 'smooth' });
  };
  const button = (towardsEnd: boolean) =>
    reach.overflows ? (
      <IconButton
        icon={towardsEnd ? 'forward' : 'back'}
        size="small"
        className="batch-strip__move icon-button--mirror"
        label={t(towardsEnd ? 'tasks.batch.later' : 'tasks.batch.earlier')}
        disabled={towardsEnd ? reach.atEnd : reach.atStart}
        onClick={() => move(towardsEnd)}
      />
    ) : null;
  return (
    <div className={reach.overflows ? 'batch-strip batch-strip--overflows' : 'batch-strip'}>
      {button(false)}
      <div ref={strip} className="task-batch__tiles" onScroll={measure}>
        {children}
      </div>
      {button(true)}
    </div>
  );
}
