/**
 * The triage keys of the grid, the viewer, the Triage view and the compare view, read by `KeyboardEvent.code` (the
 * key's place, not its letter), so AZERTY's digits (typed with Shift there) and QWERTZ's letters
 * work: 1–5 rate and 0 clears (the rating an image has already clears it), P or F pick, X
 * reject, U unflag, B adds to or takes from the target board, Ctrl/Cmd+B chooses the target, T
 * opens the tag editor, Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes (Ctrl/Cmd+Z is the window's).
 * Shift with a change applies it and moves to the next image. Never in a text field, a select or an editor.
 */
import type { TriageChangeInput } from '../../shared/ipc/triage-contract';

/** What a triage key asks for. */
export type TriageCommand =
  | { readonly kind: 'change'; readonly change: TriageChangeInput }
  | { readonly kind: 'board' }
  | { readonly kind: 'chooseBoard' }
  | { readonly kind: 'tags' }
  | { readonly kind: 'redo' };

export interface TriageKey {
  readonly command: TriageCommand;
  /** Shift was held: after the change, move to the next image. */
  readonly advance: boolean;
}

interface KeyLike {
  readonly code: string;
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly target: EventTarget | null;
}

/** Whether the key's target keeps its own keys: a text field, a select, an editor. */
export function inEditor(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target.closest('input, select, textarea, [contenteditable="true"], [role="combobox"]') !== null
  );
}

const FLAG_CODES: Readonly<Record<string, 'pick' | 'reject' | 'none'>> = {
  KeyP: 'pick',
  KeyF: 'pick',
  KeyX: 'reject',
  KeyU: 'none',
};

/** The digit a key's place is (Digit0–5 or Numpad0–5), or null. */
function digitOf(code: string): number | null {
  const match = /^(?:Digit|Numpad)([0-5])$/.exec(code);
  return match ? Number(match[1]) : null;
}

/**
 * With Ctrl or Cmd: redo, choose the target board. Ctrl/Cmd+Z alone is the window's Undo
 * (shell/undo-key.ts), whatever the focus.
 */
function commandKey(event: KeyLike): TriageCommand | null {
  if (event.altKey) return null;
  const letter = event.key.toLowerCase();
  // Redo follows the letter the layout writes (Z is Y's place on QWERTZ), as every app does.
  if (letter === 'z') return event.shiftKey ? { kind: 'redo' } : null;
  if (letter === 'y' && !event.shiftKey && !event.metaKey) return { kind: 'redo' };
  if (event.code === 'KeyB' && !event.shiftKey) return { kind: 'chooseBoard' };
  return null;
}

/** The triage key `event` is, or null. */
export function triageKeyOf(event: KeyLike): TriageKey | null {
  if (inEditor(event.target)) return null;
  if (event.ctrlKey || event.metaKey) {
    const command = commandKey(event);
    return command ? { command, advance: false } : null;
  }
  if (event.altKey) return null;
  const advance = event.shiftKey;
  const digit = digitOf(event.code);
  if (digit !== null) {
    return { command: { kind: 'change', change: { kind: 'rating', rating: digit } }, advance };
  }
  const flag = FLAG_CODES[event.code];
  if (flag !== undefined)
    return { command: { kind: 'change', change: { kind: 'flag', flag } }, advance };
  if (event.code === 'KeyB') return { command: { kind: 'board' }, advance };
  if (event.code === 'KeyT' && !advance) return { command: { kind: 'tags' }, advance: false };
  return null;
}
