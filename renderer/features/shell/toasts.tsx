/**
 * The toast corner: confirmations of actions that worked, for a few seconds, in a polite live
 * region (which is how screen readers hear them too); errors from actions, as sentences with
 * details on demand, until dismissed.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { Icon } from '../../components/icon';
import { IconButton } from '../../components/icon-button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { Confirmation } from '../../store/confirmations-slice';
import { TrashProgress } from './trash-progress';

/** How long a confirmation stays: long enough to read two lines, short enough not to pile up. */
const CONFIRMATION_MS = 6_000;
/** One with a way back (Undo) stays longer, and not while the pointer or the focus is on it. */
const ACTION_MS = 12_000;

function ConfirmationToast({ confirmation }: { confirmation: Confirmation }) {
  const dismiss = useAppStore((state) => state.dismissConfirmation);
  const [held, setHeld] = useState(false);
  const { action } = confirmation;
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => dismiss(confirmation.id), action ? ACTION_MS : CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [confirmation.id, dismiss, held, action]);
  return (
    <div
      className="toast message message--success"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <Icon name="check" className="message__icon" />
      <p className="message__body message__text">{confirmation.message}</p>
      {action ? (
        <Button
          size="small"
          onClick={() => {
            dismiss(confirmation.id);
            action.run();
          }}
        >
          {action.label}
        </Button>
      ) : null}
      <IconButton
        icon="close"
        size="small"
        label={t('common.dismiss')}
        onClick={() => dismiss(confirmation.id)}
      />
    </div>
  );
}

export function Toasts() {
  const toasts = useAppStore((state) => state.toasts);
  const dismiss = useAppStore((state) => state.dismissToast);
  const confirmations = useAppStore((state) => state.confirmations);
  return (
    <div className="toasts">
      <TrashProgress />
      <div
        className="toasts__group"
        role="status"
        aria-live="polite"
        aria-label={t('toasts.confirmationsLabel')}
      >
        {confirmations.map((confirmation) => (
          <ConfirmationToast key={confirmation.id} confirmation={confirmation} />
        ))}
      </div>
      <section className="toasts__group" aria-label={t('toasts.label')}>
        {toasts.map((toast) => (
          <div className="toast" key={toast.id}>
            <ErrorMessage
              message={toast.message}
              detail={toast.detail}
              onDismiss={() => dismiss(toast.id)}
            />
          </div>
        ))}
      </section>
    </div>
  );
}
