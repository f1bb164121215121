/**
 * The compare view's keys: ←/→ (mirrored in a right-to-left window) and Tab move between cells,
 * P picks, X rejects, 1–5 rate (the triage meanings), Enter opens, Ctrl/Cmd+Enter keeps the
 * winner and rejects the rest, Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z undo and redo, Esc closes.
 */
import { logicalArrow, type Direction } from '../../lib/direction';
import { isUndoKey } from '../../lib/undo-key';

export type CompareKeyAction =
  | { readonly kind: 'move'; readonly to: number }
  | { readonly kind: 'flag'; readonly flag: 'pick' | 'reject' }
  | { readonly kind: 'rate'; readonly rating: number }
  | { readonly kind: 'open' | 'keepWinner' | 'close' | 'undo' | 'redo' };

interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

/** Where the focus is (`at` of `count` cells) and the window's direction. */
interface CellPlace {
  readonly at: number;
  readonly count: number;
  readonly direction: Direction;
}

/** What `event` asks for on the focused cell; null: a key the view leaves alone. */
export function compareKeyAction(event: KeyLike, place: CellPlace): CompareKeyAction | null {
  const command = event.ctrlKey || event.metaKey;
  if (isUndoKey(event)) return { kind: 'undo' };
  if (command && event.shiftKey && event.key.toLowerCase() === 'z') return { kind: 'redo' };
  if (event.key === 'Escape') return { kind: 'close' };
  if (event.key === 'Enter') return { kind: command ? 'keepWinner' : 'open' };
  if (command || event.altKey) return null;
  return moveOf(event, place) ?? triageOf(event.key);
}

function moveOf(event: KeyLike, { at, count, direction }: CellPlace): CompareKeyAction | null {
  const key = logicalArrow(event.key, direction);
  const by =
    key === 'ArrowRight' || (key === 'Tab' && !event.shiftKey)
      ? 1
      : key === 'ArrowLeft' || (key === 'Tab' && event.shiftKey)
        ? -1
        : 0;
  if (by === 0) return null;
  const to = at + by;
  // Tab past the last cell (or Shift+Tab before the first) leaves the cells as Tab does.
  if (to < 0 || to >= count) return key === 'Tab' ? null : { kind: 'move', to: at };
  return { kind: 'move', to };
}

function triageOf(key: string): CompareKeyAction | null {
  if (key === 'p' || key === 'P') return { kind: 'flag', flag: 'pick' };
  if (key === 'x' || key === 'X') return { kind: 'flag', flag: 'reject' };
  if (/^[1-5]$/.test(key)) return { kind: 'rate', rating: Number(key) };
  return null;
}
