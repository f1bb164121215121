/**
 * The viewer's keyboard: Tab stays inside; arrows pan when zoomed and change image when not; + and
 * - zoom, Ctrl/Cmd+0 fits, Ctrl/Cmd+1 is 100 %, Z toggles the two; the triage keys rate, flag,
 * tag and file the image shown (with Shift, or Auto-advance, then the next one is shown).
 */
import type { KeyboardEvent } from 'react';
import { logicalArrow } from '../../lib/direction';
import { trapTab } from '../../lib/focus-trap';
import { triageKeyOf, type TriageKey } from '../../lib/triage-keys';
import { ZOOM_STEP, panForKey } from './zoom-pan';

export interface ViewerKeyHandlers {
  readonly zoomed: boolean;
  pan(dx: number, dy: number): void;
  navigate(step: -1 | 1): void;
  zoomStep(factor: number): void;
  fit(): void;
  actual(): void;
  /** Z: 100 % when fitted, fitted otherwise. */
  toggleZoom(): void;
  remove(): void;
}

/** The viewer's keyboard: arrows pan when zoomed and change image when not. */
export function viewerKey(key: string, on: ViewerKeyHandlers): boolean {
  const pan = panForKey(key);
  if (pan && on.zoomed) {
    on.pan(pan.dx, pan.dy);
    return true;
  }
  // Panning above is physical; changing image follows the reading direction.
  switch (logicalArrow(key)) {
    case 'ArrowLeft':
      on.navigate(-1);
      return true;
    case 'ArrowRight':
      on.navigate(1);
      return true;
    case '+':
    case '=':
      on.zoomStep(ZOOM_STEP);
      return true;
    case '-':
      on.zoomStep(1 / ZOOM_STEP);
      return true;
    case 'z':
    case 'Z':
      on.toggleZoom();
      return true;
    case 'Delete':
      on.remove();
      return true;
    default:
      return false;
  }
}

/** What the viewer's dialog does with its keys, beyond {@link ViewerKeyHandlers}. */
export interface ViewerDialogKeys extends ViewerKeyHandlers {
  readonly dialog: HTMLElement | null;
  onClose(): void;
  toggleDetails(): void;
  /** A triage key on the image shown (triage-keys.ts). */
  triage(key: TriageKey): void;
}

/** Ctrl/Cmd+0 fits the image, Ctrl/Cmd+1 shows it at 100 % (the digits alone rate it). */
function zoomShortcut(event: KeyboardEvent<HTMLElement>, keys: ViewerDialogKeys): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false;
  if (event.code === 'Digit0' || event.code === 'Numpad0') keys.fit();
  else if (event.code === 'Digit1' || event.code === 'Numpad1') keys.actual();
  else return false;
  event.preventDefault();
  return true;
}

/**
 * A key in the viewer: Escape closes, Tab stays inside, I shows or hides the
 * details, the rest as {@link viewerKey} says. Text fields keep their keys; arrows on a toolbar
 * button still change image or pan.
 */
export function onViewerKey(event: KeyboardEvent<HTMLElement>, keys: ViewerDialogKeys): void {
  if (event.key === 'Escape') {
    event.stopPropagation();
    keys.onClose();
    return;
  }
  if (event.key === 'Tab') return trapTab(event, keys.dialog);
  if ((event.target as HTMLElement).closest('input, select, textarea')) return;
  if (zoomShortcut(event, keys)) return;
  const triage = triageKeyOf(event);
  if (triage) {
    event.preventDefault();
    event.stopPropagation();
    return keys.triage(triage);
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'i' || event.key === 'I') {
    event.preventDefault();
    return keys.toggleDetails();
  }
  if (viewerKey(event.key, keys)) event.preventDefault();
}
