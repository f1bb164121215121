import type { ReactNode } from 'react';
import { t } from '../i18n';
import { IconButton } from './icon-button';
import { Icon } from './icon';

export interface ErrorMessageProps {
  /** What happened and what to do, as a sentence (with quoted words in it, at most). */
  message: ReactNode;
  /** Technical detail, shown on demand. */
  detail?: string | undefined;
  /** `alert` for errors that just happened; `none` for a standing state in a list row. */
  role?: 'alert' | 'none';
  onDismiss?: () => void;
  /** Buttons after the sentence (e.g. "Try again"). */
  actions?: ReactNode;
  tone?: 'error' | 'warning';
  id?: string;
}

/** An error as a sentence, with a "Details" disclosure for the technical part. */
export function ErrorMessage({
  message,
  detail,
  role = 'alert',
  onDismiss,
  actions,
  tone = 'error',
  id,
}: ErrorMessageProps) {
  return (
    <div className={`message message--${tone}`} role={role === 'none' ? undefined : role} id={id}>
      <Icon name={tone === 'error' ? 'error' : 'warning'} className="message__icon" />
      <div className="message__body">
        <p className="message__text">{message}</p>
        {detail ? (
          <details className="message__details">
            <summary>{t('common.details')}</summary>
            <pre>{detail}</pre>
          </details>
        ) : null}
        {actions ? <div className="message__actions">{actions}</div> : null}
      </div>
      {onDismiss ? (
        <IconButton icon="close" size="small" label={t('common.dismiss')} onClick={onDismiss} />
      ) : null}
    </div>
  );
}
