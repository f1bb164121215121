import type { ReactNode } from 'react';

/** Text for assistive technology only (still read, never seen). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span className="visually-hidden">{children}</span>;
}
