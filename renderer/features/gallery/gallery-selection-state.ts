/**
 * The gallery's multi-selection as its hook hands it out (gallery-selection.tsx), apart from the
 * hook so the actions on the selection (triage, delete, metadata, flags) take it without a circle.
 */
import type { KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { ImageState } from '../../../shared/domain/task-record';
import type { ClickModifiers, Selection } from '../../lib/selection';
import type { ImageRef } from '../../store/gallery-trash-slice';

export interface GallerySelectionState {
  readonly selection: Selection<string>;
  /** How many are selected: the whole set's count, or the images picked. */
  readonly count: number;
  /** The whole filtered set is selected ("Select all"). */
  readonly whole: boolean;
  /** The selected images that are loaded, in the grid's order. */
  readonly items: readonly GalleryItem[];
  readonly onSelect: (key: string, modifiers: ClickModifiers) => void;
  /** Shift+arrow from the tile `from` to the place `toIndex`; `add` keeps what was selected. */
  readonly onExtend: (from: string, toIndex: number, add: boolean) => void;
  readonly clear: () => void;
  readonly selectAll: () => void;
  /** The selected images (in `states` only, when given), loaded or not: main names the whole set. */
  readonly refs: (states?: readonly ImageState[]) => Promise<ImageRef[]>;
  /** Keys in the gallery: Ctrl/Cmd+A and Escape on the grid, triage keys outside text fields. */
  readonly onKeyDown: (event: KeyboardEvent) => void;
}
