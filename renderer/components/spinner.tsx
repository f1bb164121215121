/**
 * A small busy indicator. Its ring turns only while it is on screen: the page keeps every running
 * CSS animation current on each frame it draws (a style recalculation per animation, even when the
 * compositor turns it), so a spinner scrolled out of view, or kept in a list's overscan, is paused
 * by one IntersectionObserver shared by all of them.
 */
import { useCallback } from 'react';
import { VisuallyHidden } from './visually-hidden';

/** The attribute the stylesheet pauses the ring on (components.css). */
const OFFSCREEN_ATTRIBUTE = 'data-offscreen';

let observer: IntersectionObserver | null = null;

function offscreenObserver(): IntersectionObserver | null {
  if (typeof IntersectionObserver === 'undefined') return null;
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries)
      entry.target.toggleAttribute(OFFSCREEN_ATTRIBUTE, !entry.isIntersecting);
  });
  return observer;
}

/** Pauses the element's animation while it is out of view (as a ref callback). */
function usePausedOffscreen(): (element: HTMLElement | null) => (() => void) | undefined {
  return useCallback((element: HTMLElement | null) => {
    const watching = element ? offscreenObserver() : null;
    if (!element || !watching) return undefined;
    watching.observe(element);
    return () => watching.unobserve(element);
  }, []);
}

/** A small busy indicator; `label` is read by screen readers (omit it inside labelled text). */
export function Spinner({ label, size = 'small' }: { label?: string; size?: 'small' | 'large' }) {
  const ref = usePausedOffscreen();
  return (
    <span className={`spinner spinner--${size}`} ref={ref}>
      <span className="spinner__ring" aria-hidden="true" />
      {label ? <VisuallyHidden>{label}</VisuallyHidden> : null}
    </span>
  );
}
