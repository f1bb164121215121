/**
 * Arrow keys in a right-to-left window. A grid or a row of images is mirrored there (the first
 * item on the right), so "next" is to the left: ArrowLeft means what ArrowRight means in a
 * left-to-right window. Up, down and everything else are the same in both.
 */
export type Direction = 'ltr' | 'rtl';

/** The window's text direction, as `<html dir>` says. */
export function documentDirection(): Direction {
  return typeof document !== 'undefined' && document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr';
}

/** The key as a left-to-right list would read it: in rtl, ArrowLeft and ArrowRight swap. */
export function logicalArrow(key: string, direction: Direction = documentDirection()): string {
  if (direction !== 'rtl') return key;
  if (key === 'ArrowLeft') return 'ArrowRight';
  if (key === 'ArrowRight') return 'ArrowLeft';
  return key;
}
