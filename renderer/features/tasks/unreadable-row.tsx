/**
 * A task the window cannot show: its record is outside the record limits (a compromised main
 * process or an old build could send one), or drawing it threw. It keeps its place and size in
 * the list and says so, with the technical detail one click away; the other rows stay usable.
 */
import type { CSSProperties } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';

export interface UnreadableRowProps {
  index: number;
  total: number;
  current: boolean;
  top: number;
  height: number;
  /** What was wrong, for the "Details" disclosure. */
  detail: string;
}

export function UnreadableRow({ index, total, current, top, height, detail }: UnreadableRowProps) {
  const style: CSSProperties = { height, transform: `translateY(${top}px)` };
  return (
    <article
      className="task-row task-row--unreadable"
      style={style}
      data-index={index}
      tabIndex={current ? 0 : -1}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-label={t('tasks.unreadable.label')}
    >
      <ErrorMessage role="none" tone="warning" message={t('tasks.unreadable')} detail={detail} />
    </article>
  );
}
