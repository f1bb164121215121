/** The icons the gallery needs beyond the shared set: inline SVG, coloured by `currentColor`, hidden from AT. */
import type { ReactNode } from 'react';

function Icon({
  children,
  mirrored = false,
}: {
  readonly children: ReactNode;
  /** Points along the reading direction: flipped in a right-to-left window. */
  readonly mirrored?: boolean;
}) {
  return (
    <svg
      className={mirrored ? 'gallery-icon gallery-icon--mirrored' : 'gallery-icon'}
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

/** `left` and `right` as in a left-to-right window (previous, next); mirrored in right-to-left. */
export function ChevronIcon({ direction }: { readonly direction: 'left' | 'right' }) {
  return (
    <Icon mirrored>
      {direction === 'left' ? <path d="M15 5l-7 7 7 7" /> : <path d="M9 5l7 7-7 7" />}
    </Icon>
  );
}

export function PlusIcon() {
  return (
    <Icon>
      <path d="M12 5v14M5 12h14" />
    </Icon>
  );
}

export function MinusIcon() {
  return (
    <Icon>
      <path d="M5 12h14" />
    </Icon>
  );
}
