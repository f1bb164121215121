/**
 * What the gallery's grid is given: its images, the tile holding the tab stop, the selection and
 * the callbacks. Apart from the grid so its rows, keys and loading hook take it without a circle.
 */
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import type { ClickModifiers, Selection } from '../../lib/selection';
import type { TriageKey } from '../../lib/triage-keys';
import type { GalleryJump } from '../../store/gallery-browse';
import type { MenuRequest } from './gallery-context-menu';
import type { FocusRequest } from './use-grid-focus';

export interface GalleryGridProps {
  readonly items: readonly GalleryItem[];
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  /** The tile that holds the grid's one tab stop. */
  readonly activeKey: string | null;
  readonly onActiveChange: (key: string) => void;
  readonly focusRequest: FocusRequest | null;
  readonly onOpen: (key: string) => void;
  readonly onDelete: (item: GalleryItem) => void;
  /** A triage key on a tile; answers whether the focus moves on to the next one. */
  readonly onTriage?: (item: GalleryItem, key: TriageKey) => boolean;
  readonly onRetry: (item: GalleryItem) => void;
  readonly onStartDrag: (item: GalleryItem) => void;
  readonly onLoadMore: () => void;
  readonly describedBy?: string;
  /** How many images the filters match (the scrollbar spans them all), when known. */
  readonly total?: number | null;
  /** Images loaded by position, far below the ones loaded from the top. */
  readonly jump?: GalleryJump | null;
  /** Position a page is being loaded at, or null. */
  readonly jumpLoading?: number | null;
  /**
   * Loads `limit` images from `offset` (the rows in view and a margin around them); `keep`: the
   * active tile's image, kept at its place when the page before had it and the new one does not
   * reach it (store/gallery-kept.ts), so the focus on it stays.
   */
  readonly onLoadAt?: (offset: number, limit: number, keep: string | null) => void;
  /** Narrowest a tile may get (the thumbnail size). */
  readonly minTile?: number;
  /** Tiles show the whole image instead of filling the square. */
  readonly uncropped?: boolean;
  /** Asks for the tile's actions menu (right click, Shift+F10, the Menu key). */
  readonly onMenu?: (request: MenuRequest) => void;
  /** The selected images (gallery-selection.tsx): some by key, or the whole filtered set. */
  readonly selection?: Selection<string>;
  /** A tile clicked with Ctrl/Cmd or Shift, its check, or Space (Shift+Space) on it. */
  readonly onSelect?: (key: string, modifiers: ClickModifiers) => void;
  /** Shift with a key that moves: the selection from the anchor to the place `toIndex`. */
  readonly onExtend?: (from: string, toIndex: number, add: boolean) => void;
}
