/**
 * A toolbar with one tab stop (the ARIA toolbar pattern, lib/roving-focus.ts): Tab reaches the
 * control last used, the arrow keys, Home and End move between its controls. The gallery's
 * filters and Tasks' filter chips are each one.
 */
import { useRef, type ReactNode, type RefObject } from 'react';
import { useRovingFocus } from '../lib/roving-focus';

export interface ToolbarProps {
  readonly className: string;
  /** Its accessible name. */
  readonly label: string;
  readonly children: ReactNode;
  /** The toolbar's element, for a caller that moves the focus into it. */
  readonly toolbarRef?: RefObject<HTMLDivElement | null>;
}

export function Toolbar({ className, label, children, toolbarRef }: ToolbarProps) {
  const own = useRef<HTMLDivElement>(null);
  const ref = toolbarRef ?? own;
  const onKeyDown = useRovingFocus(ref);
  return (
    <div ref={ref} className={className} role="toolbar" aria-label={label} onKeyDown={onKeyDown}>
      {children}
    </div>
  );
}
