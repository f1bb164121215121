import type { ReactNode } from 'react';
import { Icon, type IconName } from './icon';

export interface EmptyStateProps {
  title: string;
  /** What to do next, in a sentence. */
  body: string;
  icon?: IconName;
  /** A button that does it. */
  action?: ReactNode;
}

/** Shown where a list has nothing yet: says why and what to do. */
export function EmptyState({ title, body, icon = 'info', action }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <Icon name={icon} className="empty-state__icon" />
      <h2 className="empty-state__title">{title}</h2>
      <p className="empty-state__body">{body}</p>
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}
