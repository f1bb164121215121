/**
 * The keys on a tile of the gallery grid: the menu key opens its actions, arrows (and Page Up/Down,
 * Home, End) move, with Shift they extend the selection there too, Space selects, Enter opens,
 * Delete deletes, and the triage keys (triage-keys.ts) rate, flag, tag and file.
 */
import type { KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { logicalArrow } from '../../lib/direction';
import { itemKey } from '../../store/gallery-list-model';
import { menuKey } from './gallery-context-menu';
import type { GalleryGridProps } from './gallery-grid-props';
import { moveFor } from './grid-geometry';
import { triageKeyOf } from '../../lib/triage-keys';

/** What the keys need of the grid. */
export interface GridKeyContext {
  readonly props: Pick<
    GalleryGridProps,
    'onMenu' | 'onSelect' | 'onExtend' | 'onOpen' | 'onDelete' | 'onTriage'
  >;
  readonly itemAt: (index: number) => GalleryItem | undefined;
  readonly count: number;
  readonly columns: number;
  /** Whole rows in view. */
  readonly pageRows: number;
  /** Moves the focus to the place `index` (`key` when it is loaded). */
  readonly focusIndex: (key: string | null, index: number) => void;
}

type KeyAction = 'open' | 'delete';

function keyAction(key: string): KeyAction | null {
  if (key === 'Enter' || key === ' ') return 'open';
  if (key === 'Delete' || key === 'Backspace') return 'delete';
  return null;
}

/**
 * A triage key on a tile (triage-keys.ts): the grid's owner applies it (to the selection when
 * more than one image is selected, else to this tile); with Shift, or Auto-advance, the focus
 * moves to the next tile. Undo, Redo and Ctrl/Cmd+B are the gallery's (gallery-selection.tsx).
 */
function triageKey(
  event: KeyboardEvent<HTMLElement>,
  item: GalleryItem,
  index: number,
  context: GridKeyContext,
): boolean {
  const { onTriage } = context.props;
  const key = onTriage ? triageKeyOf(event) : null;
  if (!onTriage || !key || !['change', 'board', 'tags'].includes(key.command.kind)) return false;
  event.preventDefault();
  const advance = onTriage(item, key);
  if (advance && index + 1 < context.count) {
    const next = context.itemAt(index + 1);
    context.focusIndex(next ? itemKey(next) : null, index + 1);
  }
  return true;
}

/** Space selects (Enter opens); Shift+Space selects the range from the last one. */
function selectKey(event: KeyboardEvent<HTMLElement>, item: GalleryItem, context: GridKeyContext) {
  const { onSelect } = context.props;
  if (event.key !== ' ' || !onSelect || event.altKey) return false;
  event.preventDefault();
  const { shiftKey, metaKey } = event;
  onSelect(itemKey(item), { shiftKey, metaKey, ctrlKey: event.ctrlKey || !shiftKey });
  return true;
}

/** Answers a key on a tile (a Retry button inside handles its own). */
export function onGridKey(event: KeyboardEvent<HTMLElement>, context: GridKeyContext): void {
  const cell = event.target as HTMLElement;
  if (cell.getAttribute('role') !== 'gridcell') return;
  // The keys act on the tile that has them: its own place, loaded from the top or by position.
  const index = Number(cell.dataset['index']);
  const item = Number.isInteger(index) ? context.itemAt(index) : undefined;
  if (!item) return;
  const { props, count, columns, pageRows } = context;
  if (menuKey(event)) {
    event.preventDefault();
    const box = cell.getBoundingClientRect();
    props.onMenu?.({ item, x: box.left + box.width / 2, y: box.top + box.height / 2, from: cell });
    return;
  }
  const next = moveFor(logicalArrow(event.key), { index, count, columns, pageRows });
  if (next !== null) {
    event.preventDefault();
    if (event.shiftKey && !event.altKey && props.onExtend) {
      props.onExtend(itemKey(item), next, event.ctrlKey || event.metaKey);
    }
    const target = context.itemAt(next);
    // Not loaded yet (End, a page far down): the grid scrolls there, loads it, then focuses it.
    context.focusIndex(target ? itemKey(target) : null, next);
    return;
  }
  if (selectKey(event, item, context)) return;
  if (triageKey(event, item, index, context)) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const action = keyAction(event.key);
  if (action === null) return;
  event.preventDefault();
  if (action === 'open') props.onOpen(itemKey(item));
  else props.onDelete(item);
}
