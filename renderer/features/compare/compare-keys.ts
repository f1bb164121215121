/**
 * The compare view's keys, on a cell: ←/→ (mirrored in a right-to-left window) and Tab move
 * between cells, the triage keys by their place (lib/triage-keys.ts: 1–5 and 0, P or F, X, U,
 * Shift+Ctrl/Cmd+Z; Ctrl/Cmd+Z is the window's Undo) change its images, Enter opens,
 * Ctrl/Cmd+Enter keeps the winner and rejects the rest. Esc closes from anywhere in the view; on
 * its buttons and its A/B divider every other key is theirs.
 */
import type { TriageChangeInput } from '../../../shared/ipc/triage-contract';
import { logicalArrow, type Direction } from '../../lib/direction';
import { triageKeyOf } from '../../lib/triage-keys';

export type CompareKeyAction =
  | { readonly kind: 'move'; readonly to: number }
  | { readonly kind: 'change'; readonly change: TriageChangeInput }
  | { readonly kind: 'open' | 'keepWinner' | 'close' | 'redo' };

interface KeyLike {
  readonly key: string;
  readonly code: string;
  readonly target: EventTarget | null;
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
  if (event.key === 'Escape') return { kind: 'close' };
  const onCell = event.target instanceof Element && event.target.closest('[role="gridcell"]');
  if (!onCell) return null;
  const command = event.ctrlKey || event.metaKey;
  if (event.key === 'Enter' && !event.altKey) return { kind: command ? 'keepWinner' : 'open' };
  if (!command && !event.altKey) {
    const move = moveOf(event, place);
    if (move) return move;
  }
  const triage = triageKeyOf(event)?.command;
  if (triage?.kind === 'change') return { kind: 'change', change: triage.change };
  if (triage?.kind === 'redo') return { kind: triage.kind };
  return null;
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
