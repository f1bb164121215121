/**
 * Keeping the focus inside a modal view (the dialogs, the viewer, the Triage and compare views):
 * Tab and Shift+Tab wrap at its ends, and focus that lands outside it (a click on the page
 * behind, a script) comes back to it. A dialog or menu opened over the view keeps its own focus.
 */
import { useEffect, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';

/** What Tab can reach inside a view. */
export const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches in `root`, in order (none inside a hidden part). */
function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.closest('[hidden]') === null,
  );
}

/** Keeps Tab inside `root`: past its last stop to its first, and back. */
export function trapTab(event: ReactKeyboardEvent | KeyboardEvent, root: HTMLElement | null): void {
  if (event.key !== 'Tab' || !root) return;
  const items = tabStops(root);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === root)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Brings focus that lands outside `view` back to it while it is open. */
export function useKeptFocus(view: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onFocusIn = (event: FocusEvent): void => {
      const target = event.target as HTMLElement | null;
      const root = view.current;
      if (!root || !target || root.contains(target)) return;
      if (target.closest('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      root.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [view]);
}

/** Gives the focus back to what had it when the view opened, when the view closes. */
export function useFocusReturn(): void {
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    return () => opener?.focus?.();
  }, []);
}
