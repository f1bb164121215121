/**
 * A batch tile's words while it has no picture (running, queued, failed…): its state, how far it
 * is, and its prompt, on the empty square, so a running batch does not read as a grid of
 * hourglasses. A task at work says its clock's words (how long it has run, the next check), which
 * follow the window's one clock every second, as a row's do. They are what the tile's description
 * says (read once, from there: these are hidden from a screen reader).
 */
import type { TaskItem } from '../../../shared/ipc/contract';
import { statusText } from './task-message';
import type { StatusView } from './task-status';

export function TileWords(props: { readonly item: TaskItem; readonly status: StatusView }) {
  const { item, status } = props;
  const words = statusText(status);
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
