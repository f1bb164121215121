/**
 * One task of a batch, as a cell of the batch card's grid: its result in a square (a click opens
 * it; with Ctrl/Cmd or Shift it selects, as in the gallery), its checkbox, star and state in the
 * corners, the Content Credentials mark when its image carries them, and its own small buttons
 * (details, cancel on the service, remove) along the bottom on hover or when the keyboard is in
 * it. The state is an icon in the corner, its words the tile's description (and its tooltip);
 * while the task has no picture, the empty square also shows its state, how far it is (its
 * running time following the clock) and its prompt (tile-words.tsx), cut to the square. Each tile stays an article of the feed, named by the
 * batch's prompt with its own position in the history; a tile of a template's batch (one prompt
 * per combination, the head naming the template) is named by its own.
 */
import { memo, useId, type MouseEvent, type ReactNode } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { CredentialsMark } from '../../components/content-credentials';
import { Icon, type IconName } from '../../components/icon';
import { useAppStore } from '../../store/app-store';
import { statusText } from './task-message';
import { FavouriteButton, TaskIconButtons } from './task-row-actions';
import { useStatusView } from './task-row';
import type { StatusTone } from './task-status';
import { SelectBox, useSelected, useSelectHandlers } from './task-select';
import { TaskThumbnails } from './task-thumbnails';
import { TileWords } from './tile-words';

export interface BatchTileProps {
  readonly item: TaskItem;
  /** The task's position in the history. */
  readonly index: number;
  readonly total: number;
  /** The task in the feed's tab order. */
  readonly current: boolean;
  /** The batch's prompt: the tile's name. */
  readonly promptId: string;
  /**
   * The text of that prompt, as the card's head shows it; null when the head names no prompt (a
   * template's batch: its name and number of prompts), so each tile is named by its own.
   */
  readonly batchPrompt: string | null;
  readonly onRemove: (record: TaskRecord) => void;
}

/**
 * The state's mark in the tile's corner; nothing once it has its pictures. A busy task's mark
 * stands still: a batch's card turns one spinner for all its busy tasks (task-batch-row.tsx), as
 * a page of busy tiles each turning its own keeps the page redrawing them every frame.
 */
const STATE_ICON: Partial<Record<StatusTone, IconName>> = {
  busy: 'hourglass',
  warning: 'clock',
  danger: 'error',
  neutral: 'info',
};

/**
 * The state as an icon on the square, and in words as the tile's description (and tooltip). A
 * task at work follows the window's one clock every second, on the square and in the description
 * alike, pointed at or not: a running batch says how long each task has run without a hover.
 */
function TileState(props: {
  item: TaskItem;
  id: string;
  /** What else sits in the corner (the star). */
  children: ReactNode;
}) {
  const { item, id } = props;
  const status = useStatusView(item);
  const words = statusText(status);
  const icon = STATE_ICON[status.tone];
  return (
    <>
      {item.record.images.length === 0 ? <TileWords item={item} status={status} /> : null}
      <span className="task-tile__corner">
        {icon ? (
          <span
            className={`task-tile__state tone--${status.tone}`}
            title={`${status.label}: ${words}`}
            aria-hidden="true"
          >
            <Icon name={icon} />
          </span>
        ) : null}
        {props.children}
      </span>
      <span id={id} className="visually-hidden">
        <span>{status.label}</span> <span>{words}</span>
      </span>
    </>
  );
}

/** Ctrl/Cmd- or Shift-click on the picture selects the task instead of opening it. */
function useModifiedClick(localId: string) {
  const selectClick = useAppStore((state) => state.tasksSelectClick);
  return (event: MouseEvent<HTMLElement>): void => {
    if (!(event.ctrlKey || event.metaKey || event.shiftKey)) return;
    if (!(event.target as HTMLElement).closest('.thumbs__cell--open')) return;
    event.preventDefault();
    event.stopPropagation();
    selectClick(localId, event);
  };
}

export const BatchTile = memo(function BatchTile({
  item,
  index,
  total,
  current,
  promptId,
  batchPrompt,
  onRemove,
}: BatchTileProps) {
  const statusId = useId();
  const { record } = item;
  const selected = useSelected(record.localId);
  const handlers = useSelectHandlers(record.localId);
  const onClickCapture = useModifiedClick(record.localId);
  return (
    <article
      className={`task-tile${selected ? ' task-tile--selected' : ''}`}
      data-index={index}
      data-local-id={record.localId}
      tabIndex={current ? 0 : -1}
      aria-posinset={index + 1}
      aria-setsize={total}
      {...(record.request.prompt === batchPrompt
        ? { 'aria-labelledby': promptId }
        : { 'aria-label': record.request.prompt })}
      aria-describedby={statusId}
      onClickCapture={onClickCapture}
      {...handlers}
    >
      <TaskThumbnails record={record} max={1} still />
      <CredentialsMark credentials={record.images[0]?.contentCredentials} corner />
      <span className="task-tile__check">
        <SelectBox localId={record.localId} />
      </span>
      <TileState item={item} id={statusId}>
        <FavouriteButton
          record={record}
          className={`task-tile__pick${record.favourite ? ' task-tile__pick--on' : ''}`}
        />
      </TileState>
      <div className="task-tile__tools">
        <TaskIconButtons
          record={record}
          onRemove={onRemove}
          withCopy={false}
          withFavourite={false}
        />
      </div>
    </article>
  );
});
