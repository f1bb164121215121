/**
 * The Triage view (Ctrl/Cmd+Shift+T): one image large with its rating, flag and tags, and a
 * filmstrip of the images the gallery's filter shows. The triage keys act on the image shown
 * (with Shift, or Auto-advance, the next one comes up), ← and → follow the reading direction,
 * Ctrl+Delete (⌘⌫) purges the rejects the view shows (its filter's: what the question counts is
 * what moves), ? shows the keys, and Escape goes back
 * to the grid on the image last shown.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { flagOf, ratingOf } from '../../../shared/domain/triage';
import { Button } from '../../components/button';
import { IconButton } from '../../components/icon-button';
import { Icon } from '../../components/icon';
import { t } from '../../i18n';
import { imageUrl } from '../../lib/api';
import { logicalArrow } from '../../lib/direction';
import { useKeptFocus } from '../../lib/focus-trap';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';
import { triageKeyOf } from '../../lib/triage-keys';
import { filmstripName } from './filmstrip-name';
import { positionOf } from './gallery-viewer';
import { matchingCount, type MatchingCount } from './matching-count';
import { triageIn } from './triage-run';
import { usePurgeRejects, type PurgeRejects } from './use-purge-rejects';
import './triage-view.css';

const store = useAppStore.getState;

/** Ctrl+Delete, or ⌘⌫ on a Mac: purge the rejects. */
const isPurgeKey = (event: KeyboardEvent): boolean =>
  ((event.ctrlKey && event.key === 'Delete') || (event.metaKey && event.key === 'Backspace')) &&
  !event.altKey &&
  !event.shiftKey;

export interface TriageViewProps {
  readonly items: readonly GalleryItem[];
  /** Hands the focus back to the grid, on this image's tile. */
  readonly onClosed: (key: string | null) => void;
}

/** What the image carries: its stars, its flag and its tags. */
function TriageFacts({ item }: { item: GalleryItem }) {
  const rating = ratingOf(item.image);
  const flag = flagOf(item.image);
  const tags = item.image.tags ?? [];
  return (
    <div className="triage-view__facts" aria-live="polite">
      <span
        className="triage-view__stars"
        role="img"
        aria-label={t('triage.rating.label', { stars: rating })}
      >
        {'★'.repeat(rating)}
        <span className="triage-view__unstarred" aria-hidden="true">
          {'☆'.repeat(5 - rating)}
        </span>
      </span>
      <span className={`triage-view__flag triage-view__flag--${flag}`}>
        {flag === 'none' ? null : (
          <Icon name={flag === 'pick' ? 'flag' : 'reject'} filled={flag === 'pick'} />
        )}
        {flag === 'none'
          ? t('triage.view.unflagged')
          : t(flag === 'pick' ? 'triage.flag.pick' : 'triage.flag.reject')}
      </span>
      <span className="triage-view__tags">
        {tags.length === 0 ? t('triage.view.noTags') : tags.join(' · ')}
      </span>
    </div>
  );
}

/**
 * The filmstrip: every loaded image of the filter, the one shown marked and kept in view, each
 * named by what it is, then its place (filmstrip-name.ts).
 */
function Filmstrip(props: {
  items: readonly GalleryItem[];
  index: number;
  matching: MatchingCount;
  onPick: (index: number) => void;
}) {
  const current = useRef<HTMLButtonElement>(null);
  // A block, not an arrow's value: scrollIntoView answers a promise in newer Chromium, which React
  // would take for the effect's cleanup.
  useEffect(() => {
    current.current?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [props.index]);
  return (
    <ol className="triage-view__strip" aria-label={t('triage.view.filmstrip')}>
      {props.items.map((item, at) => {
        const source = item.image.thumbnail ?? item.image.file;
        return (
          <li key={itemKey(item)}>
            <button
              ref={at === props.index ? current : undefined}
              type="button"
              tabIndex={-1}
              className="triage-view__thumb"
              aria-current={at === props.index ? 'true' : undefined}
              aria-label={filmstripName(item, positionOf(at, props.matching))}
              onClick={() => props.onPick(at)}
            >
              {source ? <img src={imageUrl(source)} alt="" loading="lazy" /> : null}
              {flagOf(item.image) === 'reject' ? (
                <span className="triage-view__thumb-reject">
                  <Icon name="reject" />
                </span>
              ) : null}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * No image left in the view (a purge of the rejects shown, or every image changed out of the
 * filter): says so, with the Undo of the newest step and the way back to the grid.
 */
function EmptyView({ onClose }: { onClose: () => void }) {
  const canUndo = useAppStore((s) => s.undoEntries.length > 0);
  return (
    <div className="triage-view__empty" role="status">
      <p>{t('triage.view.empty')}</p>
      <div className="triage-view__empty-actions">
        {canUndo ? (
          <Button onClick={() => void store().undoRun()}>{t('gallery.undo')}</Button>
        ) : null}
        <Button variant="ghost" onClick={onClose}>
          {t('triage.view.close')}
        </Button>
      </div>
    </div>
  );
}

/** What the view's keys need: the image shown, how to move and close, the purge's question. */
interface ViewKeys {
  readonly item: GalleryItem | undefined;
  readonly index: number;
  readonly purge: PurgeRejects;
  go(at: number): void;
  close(): void;
}

/** A key in the view (see the file's comment). */
function onViewKey(event: KeyboardEvent<HTMLDivElement>, keys: ViewKeys): void {
  // A modal view: the gallery under it takes none of its keys.
  event.stopPropagation();
  const { item, index, purge } = keys;
  if (event.key === 'Escape' && !purge.asking) {
    event.preventDefault();
    return keys.close();
  }
  if (purge.asking) return;
  if (!item) return;
  const triage = triageKeyOf(event);
  const handled = isPurgeKey(event) || triage !== null || event.key === '?';
  if (handled) event.preventDefault();
  if (isPurgeKey(event)) void purge.ask('view');
  else if (triage) triageIn(item, () => keys.go(index + 1))(triage);
  else if (event.key === '?') store().triageShowHelp(true);
  if (handled) return;
  const arrow = logicalArrow(event.key);
  if (arrow === 'ArrowLeft' || arrow === 'ArrowRight') {
    event.preventDefault();
    keys.go(index + (arrow === 'ArrowLeft' ? -1 : 1));
  }
}

export function TriageView({ items, onClosed }: TriageViewProps) {
  const key = useAppStore((s) => s.triageViewKey);
  // The library's count for the filter, as the grid's header says it: never the loaded page.
  const total = useAppStore((s) => s.galleryTotal);
  const hasMore = useAppStore((s) => s.galleryNextCursor !== null);
  const matching = matchingCount(items.length, total, hasMore);
  const dialog = useRef<HTMLDivElement>(null);
  const purge = usePurgeRejects();
  const index = Math.max(
    0,
    items.findIndex((item) => itemKey(item) === key),
  );
  const item = items[index];
  useEffect(() => {
    dialog.current?.focus();
  }, []);
  useKeptFocus(dialog);
  const go = (at: number) => {
    const next = items[at];
    if (next) store().triageShowView(itemKey(next));
    if (at + 2 >= items.length) void store().galleryLoadMore();
  };
  const close = () => {
    store().triageCloseView();
    onClosed(item ? itemKey(item) : null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    onViewKey(event, { item, index, purge, go, close });
  return (
    <div
      className="triage-view"
      role="dialog"
      aria-modal="true"
      aria-label={t('triage.view.label')}
      ref={dialog}
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <header className="triage-view__bar">
        <h2 className="triage-view__title">{t('triage.view.label')}</h2>
        <span className="triage-view__position">{item ? positionOf(index, matching) : null}</span>
        <IconButton icon="close" label={t('triage.view.close')} onClick={close} />
      </header>
      {item ? (
        <>
          <figure className="triage-view__stage">
            {item.image.file ? <img src={imageUrl(item.image.file)} alt={item.prompt} /> : null}
            <figcaption className="triage-view__prompt">{item.prompt}</figcaption>
          </figure>
          <TriageFacts item={item} />
        </>
      ) : (
        <EmptyView onClose={close} />
      )}
      <Filmstrip items={items} index={index} matching={matching} onPick={go} />
      {purge.dialog}
    </div>
  );
}
