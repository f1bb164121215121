/**
 * A batch tile's words while it has no picture (running, queued, failed…): its state, how far it
 * is, and its prompt, on the empty square, so a running batch does not read as a grid of
 * hourglasses. They are what the tile's description says (read once, from there: these are
 * hidden from a screen reader). A task at work says its clock's words (elapsed time, next check)
 * only while the tile is engaged, when they follow the clock; otherwise the facts no clock moves
 * (its place in the queue, the percent done), as tiles stay off the 1 s clock
 * (docs/PERFORMANCE.md, Task updates under load).
 */
import type { TaskItem } from '../../../shared/ipc/contract';
import { t } from '../../i18n';
import { statusText } from './task-message';
import type { StatusView } from './task-status';

/** What a task at work has done that no clock moves: its place in the queue, its percent done. */
function clockFreeWords(item: TaskItem): string {
  const { live } = item;
  if (live?.queuePosition !== undefined)
    return t('tasks.live.queue', { ahead: live.queuePosition });
  if (live?.progress !== undefined)
    return t('tasks.live.progress', { progress: live.progress / 100 });
  return '';
}

export function TileWords(props: {
  readonly item: TaskItem;
  readonly status: StatusView;
  readonly engaged: boolean;
}) {
  const { item, status, engaged } = props;
  const words = status.ticking && !engaged ? clockFreeWords(item) : statusText(status);
  return (
    <span className={`task-tile__words tone--${status.tone}`} aria-hidden="true">
      <span className="task-tile__label">{status.label}</span>
      {words === '' ? null : <span className="task-tile__sentence">{words}</span>}
      <span className="task-tile__prompt" dir="auto">
        {item.record.request.prompt}
      </span>
    </span>
  );
}
