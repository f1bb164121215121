/**
 * A header button that opens a panel of controls under the header (a disclosure, as the filter
 * popovers of photo libraries are): the gallery's "Display" and, in a window too small for them
 * side by side (lib/use-header-fold.ts), the "Filters" of the gallery and of Tasks, with how many
 * are in use on the button. The panel is laid out under the header's end, within its width, so
 * no control of it lies outside the window whatever the language, direction or zoom.
 *
 * Escape closes it and gives the focus back to the button; so does the button. A click outside
 * closes it, and so does the focus leaving it for another control (Tab past its last one): it
 * covers what is under it. A text field in it that reads its value on leaving (the date filters)
 * is left first, so what was typed there is applied, never lost with the panel.
 */
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Button } from './button';
import type { IconName } from './icon';

export interface HeaderPanelProps {
  /** The button's words ("Filters", "Display"), also the panel's name. */
  readonly label: string;
  /** The button's accessible name when it says more than its words ("Filters, 2 in use"). */
  readonly accessibleLabel?: string;
  /** A number shown on the button (filters in use); none when 0 or absent. */
  readonly badge?: number;
  readonly icon?: IconName;
  /** The button's own class (its place in the header). */
  readonly className?: string;
  readonly panelClassName?: string;
  readonly children: ReactNode;
}

/** Closes the panel on a press outside it, after leaving the field inside that has the focus. */
function useOutsidePress(open: boolean, root: HTMLElement | null, close: () => void): void {
  useEffect(() => {
    if (!open || root === null) return undefined;
    const onPress = (event: PointerEvent): void => {
      if (event.target instanceof Node && root.contains(event.target)) return;
      const focused = root.ownerDocument.activeElement;
      if (focused instanceof HTMLElement && root.contains(focused)) focused.blur();
      close();
    };
    root.ownerDocument.addEventListener('pointerdown', onPress, true);
    return () => root.ownerDocument.removeEventListener('pointerdown', onPress, true);
  }, [open, root, close]);
}

export function HeaderPanel(props: HeaderPanelProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const close = useCallback(() => setOpen(false), []);
  useOutsidePress(open, root, close);
  const onKeyDown = (event: KeyboardEvent): void => {
    if (!open || event.key !== 'Escape') return;
    // The panel's own Escape: not the screen's (which would clear a selection).
    event.preventDefault();
    event.stopPropagation();
    button.current?.focus();
    setOpen(false);
  };
  const onBlur = (event: FocusEvent): void => {
    const to = event.relatedTarget;
    // Focus going nowhere (a click on the panel's background, another window) keeps it open.
    if (to instanceof Node && !event.currentTarget.contains(to)) setOpen(false);
  };
  const badge = props.badge ?? 0;
  return (
    <div ref={setRoot} className="header-panel" onKeyDown={onKeyDown} onBlur={onBlur}>
      <Button
        ref={button}
        size="small"
        variant="ghost"
        icon={props.icon}
        className={props.className}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={props.accessibleLabel}
        onClick={() => setOpen(!open)}
      >
        {props.label}
        {badge > 0 ? (
          <span className="count-badge header-panel__badge" aria-hidden="true">
            {badge}
          </span>
        ) : null}
      </Button>
      {open ? (
        <div
          id={id}
          role="group"
          aria-label={props.label}
          className={['header-panel__panel', props.panelClassName].filter(Boolean).join(' ')}
        >
          {props.children}
        </div>
      ) : null}
    </div>
  );
}
