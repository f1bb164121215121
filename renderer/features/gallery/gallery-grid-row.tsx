import { memo } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { hasSelection, isSelected } from '../../lib/selection';
import { itemKey } from '../../store/gallery-list-model';
import { imageProblem } from '../../store/unreadable-image';
import type { GalleryGridProps } from './gallery-grid-props';
import { GalleryTile, PlaceholderTile, UnreadableTile } from './gallery-tile';

/** Where a row of the grid is and what it holds. */
export interface GridRowPlace {
  /** The row's index in the grid. */
  readonly row: number;
  /** Its top, in px from the grid's. */
  readonly start: number;
  readonly columns: number;
  /** Every place in the grid, loaded or not. */
  readonly count: number;
  readonly tile: number;
  /** The place that holds the grid's one tab stop. */
  readonly tabIndex: number;
  /** The row is in view: its thumbnails are asked for first. */
  readonly urgent: boolean;
  /** The view is moving more than a screen a frame: no tile asks for its thumbnail yet. */
  readonly held: boolean;
}

type RowProps = Pick<
  GalleryGridProps,
  'uncropped' | 'selection' | 'onSelect' | 'onActiveChange' | 'onOpen' | 'onRetry' | 'onStartDrag'
>;

/** The positions of one row's tiles. */
function rowIndexes(row: number, columns: number, count: number): number[] {
  const first = row * columns;
  return Array.from({ length: Math.max(0, Math.min(columns, count - first)) }, (_, k) => first + k);
}

interface GridRowProps {
  place: GridRowPlace;
  itemAt: (index: number) => GalleryItem | undefined;
  props: RowProps;
}

/**
 * Drawn again only when its place, the images or the grid's props changed: a scroll that brings a
 * row draws that row (and the rows whose `urgent` flipped), not every row in the page with their
 * tiles (every row's tiles were compared, and their error boundaries drawn, at each row scrolled).
 */
function sameRow(before: GridRowProps, after: GridRowProps): boolean {
  if (before.itemAt !== after.itemAt || before.props !== after.props) return false;
  const keys = Object.keys(after.place) as (keyof GridRowPlace)[];
  return keys.every((key) => before.place[key] === after.place[key]);
}

/** One row of tiles; a place not loaded yet is a placeholder, a tile that throws says so. */
export const GalleryGridRow = memo(function GalleryGridRow({ place, itemAt, props }: GridRowProps) {
  const { row, columns, count, tile } = place;
  return (
    <div
      role="row"
      aria-rowindex={row + 1}
      className="gallery-grid__row"
      style={{ transform: `translateY(${String(place.start)}px)`, height: tile }}
    >
      {rowIndexes(row, columns, count).map((index, column) => {
        const item = itemAt(index);
        if (!item) return <PlaceholderTile key={`at-${index}`} column={column} size={tile} />;
        const key = itemKey(item);
        const at = { itemKey: key, column, size: tile, tabbable: index === place.tabIndex, index };
        const problem = imageProblem(item);
        if (problem !== undefined) return <UnreadableTile key={key} {...at} detail={problem} />;
        return (
          <ErrorBoundary
            key={key}
            resetKey={item}
            fallback={(error) => <UnreadableTile {...at} detail={errorDetail(error)} />}
          >
            <GalleryTile
              item={item}
              {...at}
              uncropped={props.uncropped ?? false}
              urgent={place.urgent}
              held={place.held}
              selected={props.selection ? isSelected(props.selection, key) : false}
              selecting={props.selection ? hasSelection(props.selection) : false}
              {...(props.onSelect ? { onSelect: props.onSelect } : {})}
              onActivate={props.onActiveChange}
              onOpen={props.onOpen}
              onRetry={props.onRetry}
              onStartDrag={props.onStartDrag}
            />
          </ErrorBoundary>
        );
      })}
    </div>
  );
}, sameRow);
