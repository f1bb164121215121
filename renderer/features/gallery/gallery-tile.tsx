import { flagOf, ratingOf } from '../../../shared/domain/triage';
import { memo, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { imageUrl } from '../../lib/api';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { t, type MessageKey } from '../../i18n';
import { canRetry } from '../../store/gallery-list-model';
import { useAheadFetch, useInViewLoading } from './urgent-thumbnails';
import { Icon } from '../../components/icon';
import { CredentialsMark } from '../../components/content-credentials';
import type { ClickModifiers } from '../../lib/selection';

/** A transparent pixel (the CSP allows data: images): the tile's image until it fetches. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** What a tile shows instead of a picture, or null when it shows the thumbnail. */
export type TileState =
  'downloading' | 'failed' | 'expired' | 'invalid' | 'missing' | 'thumbnailPending' | null;

const STATE_LABEL: Record<Exclude<TileState, null>, MessageKey> = {
  downloading: 'gallery.tile.downloading',
  failed: 'gallery.tile.failed',
  expired: 'gallery.tile.expired',
  invalid: 'gallery.tile.invalid',
  missing: 'gallery.tile.missing',
  thumbnailPending: 'gallery.tile.thumbnailPending',
};

/** The tile's state from the image record (a file that failed to load is `missing`). */
export function tileState(item: GalleryItem, loadFailed = false): TileState {
  const { state, error, thumbnail, file, thumbnailPending } = item.image;
  if (state === 'pending') return error === undefined ? 'downloading' : 'failed';
  if (state === 'expired' || state === 'invalid') return state;
  // Saved by a host with no image decoder: a placeholder until the main process makes the
  // thumbnail (never the full image, decoded whole in this page for a tile).
  if (thumbnailPending && thumbnail === undefined && file !== undefined) return 'thumbnailPending';
  if (loadFailed || (thumbnail ?? file) === undefined) return 'missing';
  return null;
}

/** States that are on their way to a picture: a pulse, not a warning. */
const COMING: ReadonlySet<TileState> = new Set(['downloading', 'thumbnailPending']);

function tileStateLabel(state: Exclude<TileState, null>): string {
  return t(STATE_LABEL[state]);
}

export interface GalleryTileProps {
  readonly item: GalleryItem;
  /** The tile's key, also its `data-key` (the grid finds tiles by it). */
  readonly itemKey: string;
  readonly column: number;
  readonly size: number;
  readonly tabbable: boolean;
  /** Position in the whole gallery (`data-index`: the grid finds a tile's image by it). */
  readonly index?: number;
  /** Shows the whole image, letterboxed, instead of filling the square. */
  readonly uncropped?: boolean;
  /** In view (not a row drawn ahead): its thumbnail is fetched before those of the rows around. */
  readonly urgent?: boolean;
  /** The view moves more than a screen a frame (view-motion.ts): no thumbnail asked for yet. */
  readonly held?: boolean;
  readonly onActivate: (key: string) => void;
  readonly onOpen: (key: string) => void;
  readonly onRetry: (item: GalleryItem) => void;
  readonly onStartDrag: (item: GalleryItem) => void;
  /** In the selection (gallery-selection.tsx). */
  readonly selected?: boolean;
  /** Something is selected: a plain click then selects too, as in a photo library. */
  readonly selecting?: boolean;
  /** Ctrl/Cmd- or Shift-click, a click while selecting, or the tile's check. */
  readonly onSelect?: (key: string, modifiers: ClickModifiers) => void;
}

/**
 * The thumbnail: fetched now when in view, once the window is idle when drawn ahead, not while
 * the view moves a screen a frame (urgent-thumbnails.ts).
 */
function TileImage(props: {
  item: GalleryItem;
  source: string;
  size: number;
  /** Whether its row is in view (`urgent`), and whether the view moves too fast (`held`). */
  fetch: { urgent: boolean; held: boolean | undefined };
  onDragStart: (event: DragEvent) => void;
  onError: () => void;
}) {
  const { item, size } = props;
  const { urgent, held } = props.fetch;
  const image = useRef<HTMLImageElement>(null);
  const now = useAheadFetch(!urgent, held);
  const src = now ? imageUrl(props.source) : BLANK;
  const settled = useInViewLoading(urgent && now ? src : null, image);
  return (
    <img
      ref={image}
      className="gallery-tile__image"
      src={src}
      alt={item.prompt}
      width={size}
      height={size}
      // The grid draws only the tiles in view and a row or two around them: each is wanted now
      // (lazy loading held the first screen back by a layout pass and a lower priority).
      decoding="async"
      fetchPriority={urgent ? 'high' : 'low'}
      draggable
      onDragStart={props.onDragStart}
      onLoad={settled}
      onError={() => {
        settled();
        props.onError();
      }}
    />
  );
}

/** What became of an image that shows no picture: on its way, failed, gone; Retry when it can. */
function TileStatus(props: {
  item: GalleryItem;
  state: TileState;
  tabbable: boolean;
  retry: boolean;
  onRetry: (item: GalleryItem) => void;
}) {
  const { item, state } = props;
  return (
    <div className={`gallery-tile__state gallery-tile__state--${state ?? 'missing'}`}>
      {COMING.has(state) ? (
        <span className="gallery-tile__pulse" aria-hidden="true" />
      ) : (
        <Icon name="warning" className="gallery-tile__icon" />
      )}
      <span className="gallery-tile__label">{tileStateLabel(state ?? 'missing')}</span>
      <span className="gallery-tile__prompt">{item.prompt}</span>
      {props.retry ? (
        <button
          type="button"
          className="gallery-tile__retry"
          tabIndex={props.tabbable ? 0 : -1}
          aria-label={t('gallery.tile.retryLabel', { prompt: shortPrompt(item.prompt) })}
          onClick={() => props.onRetry(item)}
        >
          {t('gallery.tile.retry')}
        </button>
      ) : null}
    </div>
  );
}

/** The tile's check: shown while something is selected, pressed when the tile is. */
function TileCheck(props: {
  item: GalleryItem;
  selected: boolean;
  selecting: boolean;
  onCheck: (event: MouseEvent) => void;
}) {
  return (
    <button
      type="button"
      className={
        props.selecting ? 'gallery-tile__check gallery-tile__check--shown' : 'gallery-tile__check'
      }
      tabIndex={-1}
      aria-pressed={props.selected}
      aria-label={t('gallery.tile.select', { prompt: shortPrompt(props.item.prompt) })}
      onClick={props.onCheck}
    >
      <Icon name="check" />
    </button>
  );
}

/**
 * What makes an image's element a cell of the gallery grid: its column, its key and position
 * (the grid's focus and keys find a cell by them), and whether Tab reaches it.
 */
function gridCell({
  itemKey,
  column,
  tabbable,
  index,
}: Pick<GalleryTileProps, 'itemKey' | 'column' | 'tabbable' | 'index'>) {
  return {
    role: 'gridcell',
    'aria-colindex': column + 1,
    tabIndex: tabbable ? 0 : -1,
    'data-key': itemKey,
    'data-index': index,
  } as const;
}

/** The tile's classes: whole image or square, selected, rejected. */
function tileClass(item: GalleryItem, uncropped: boolean, selected: boolean): string {
  return [
    'gallery-tile',
    uncropped ? 'gallery-tile--uncropped' : '',
    selected ? 'gallery-tile--selected' : '',
    flagOf(item.image) === 'reject' ? 'gallery-tile--rejected' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** One cell of the gallery grid: the thumbnail in a fixed square, or what became of it. */
export const GalleryTile = memo(function GalleryTile({
  item,
  itemKey,
  column,
  size,
  tabbable,
  index,
  uncropped = false,
  urgent = true,
  held,
  onActivate,
  onOpen,
  onRetry,
  onStartDrag,
  selected = false,
  selecting = false,
  onSelect,
}: GalleryTileProps) {
  // Remembered per source, so a re-downloaded image gets a fresh try.
  const [failedSource, setFailedSource] = useState<string | null>(null);
  const source = item.image.thumbnail ?? item.image.file;
  const state = tileState(item, source !== undefined && failedSource === source);
  const retry = canRetry(item);

  const onClick = (event: MouseEvent): void => {
    if ((event.target as HTMLElement).closest('button')) return;
    onActivate(itemKey);
    const modified = event.shiftKey || event.ctrlKey || event.metaKey;
    if (onSelect && (modified || selecting))
      onSelect(itemKey, modified ? event : { ctrlKey: true });
    else onOpen(itemKey);
  };
  const onDragStart = (event: DragEvent): void => {
    // The OS drag carries the real file; the page's own drag would carry a URL.
    event.preventDefault();
    onStartDrag(item);
  };

  return (
    <div
      {...gridCell({ itemKey, column, tabbable, index })}
      aria-selected={onSelect ? selected : undefined}
      className={tileClass(item, uncropped, selected)}
      style={{ width: size, height: size }}
      // The prompt on hover: a tile shows only the picture.
      title={item.prompt}
      onClick={onClick}
      onFocus={() => onActivate(itemKey)}
    >
      {state === null && source !== undefined ? (
        <TileImage
          item={item}
          source={source}
          size={size}
          fetch={{ urgent, held }}
          onDragStart={onDragStart}
          onError={() => setFailedSource(source)}
        />
      ) : (
        <TileStatus item={item} state={state} tabbable={tabbable} retry={retry} onRetry={onRetry} />
      )}
      {onSelect ? (
        <TileCheck
          item={item}
          selected={selected}
          selecting={selecting}
          onCheck={(event) => {
            onActivate(itemKey);
            onSelect(itemKey, event.shiftKey ? event : { ctrlKey: true });
          }}
        />
      ) : null}
      <TileMarks item={item} />
    </div>
  );
});

/**
 * What the tile says of its image at a glance: its flag (a pick's flag, a reject's struck-through
 * one: flags, never stars, which are the rating's), the rating, the Content Credentials mark.
 */
function TileMarks({ item }: { item: GalleryItem }) {
  const flag = flagOf(item.image);
  const rating = ratingOf(item.image);
  return (
    <>
      {flag === 'none' ? null : (
        <span
          className={`gallery-tile__flag gallery-tile__flag--${flag}`}
          role="img"
          aria-label={t(flag === 'pick' ? 'triage.flag.pick' : 'triage.flag.reject')}
        >
          <Icon name={flag === 'pick' ? 'flag' : 'reject'} filled={flag === 'pick'} />
        </span>
      )}
      {rating > 0 ? (
        <span
          className="gallery-tile__rating"
          role="img"
          aria-label={t('triage.rating.label', { stars: rating })}
          data-rating={rating}
        >
          {'★'.repeat(rating)}
        </span>
      ) : null}
      <CredentialsMark credentials={item.image.contentCredentials} corner />
    </>
  );
}

/** A tile whose drawing threw (a damaged record): it says so and keeps its place in the grid. */
export function UnreadableTile({
  itemKey,
  column,
  size,
  tabbable,
  index,
  detail,
}: Pick<GalleryTileProps, 'itemKey' | 'column' | 'size' | 'tabbable' | 'index'> & {
  detail: string;
}) {
  return (
    <div
      {...gridCell({ itemKey, column, tabbable, index })}
      className="gallery-tile"
      style={{ width: size, height: size }}
      title={detail}
    >
      <div className="gallery-tile__state gallery-tile__state--invalid">
        <Icon name="warning" className="gallery-tile__icon" />
        <span className="gallery-tile__label">{t('gallery.tile.unreadable')}</span>
      </div>
    </div>
  );
}

/** The place of an image not loaded yet (the scrollbar was dragged past the loaded pages). */
export function PlaceholderTile({ column, size }: { column: number; size: number }) {
  return (
    <div
      role="gridcell"
      aria-colindex={column + 1}
      aria-busy="true"
      aria-label={t('gallery.tile.loading')}
      className="gallery-tile gallery-tile--placeholder"
      style={{ width: size, height: size }}
    />
  );
}

/** Prompts can be pages long; a label needs only enough to tell tiles apart. */
function shortPrompt(prompt: string, max = 80): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
