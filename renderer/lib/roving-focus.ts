import { useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { logicalArrow } from './direction';

const ITEMS = 'button:not([disabled]), input:not([disabled]), select:not([disabled])';

/**
 * A toolbar's one tab stop (the ARIA toolbar pattern): Tab reaches the control last used (the
 * first at first), the arrow keys (mirrored right to left), Home and End move between its
 * controls. Returns the toolbar's keydown handler; `ref` is the toolbar.
 *
 * A select in the toolbar keeps Up and Down (and typing) to choose; Left and Right move on, as
 * from any other control (the handler takes the key before the select's own default action).
 */
export function useRovingFocus(ref: RefObject<HTMLElement | null>): (event: KeyboardEvent) => void {
  const current = useRef(0);
  const items = (): HTMLElement[] => [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
  const oneStop = () => {
    const all = items();
    const focused = all.findIndex((item) => item === document.activeElement);
    if (focused >= 0) current.current = focused;
    current.current = Math.min(current.current, Math.max(0, all.length - 1));
    all.forEach((item, index) => {
      item.tabIndex = index === current.current ? 0 : -1;
    });
  };
  // After every render: the controls may have come or gone (a "Clear" shown, a chip disabled).
  useLayoutEffect(oneStop);
  // And when a control inside draws itself without the toolbar (a count's "Select all" shown when
  // the count arrives, a filter's options loaded): else that control was a Tab stop of its own
  // until something drew the toolbar again.
  useLayoutEffect(() => {
    const toolbar = ref.current;
    if (!toolbar) return undefined;
    const observer = new MutationObserver(oneStop);
    observer.observe(toolbar, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['disabled'],
    });
    return () => observer.disconnect();
    // oneStop reads only refs and the DOM: the toolbar's element is all it depends on.
  }, [ref]);
  return (event) => {
    const all = items();
    const at = all.findIndex((item) => item === event.target);
    if (at < 0) return;
    const key = logicalArrow(event.key);
    const next =
      key === 'ArrowRight'
        ? (at + 1) % all.length
        : key === 'ArrowLeft'
          ? (at - 1 + all.length) % all.length
          : key === 'Home'
            ? 0
            : key === 'End'
              ? all.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    all.forEach((item, index) => {
      item.tabIndex = index === next ? 0 : -1;
    });
    current.current = next;
    all[next]?.focus();
  };
}
