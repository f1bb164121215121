/** Errors from actions, as sentences with details on demand, until dismissed. */
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

export function Toasts() {
  const toasts = useAppStore((state) => state.toasts);
  const dismiss = useAppStore((state) => state.dismissToast);
  return (
    <section className="toasts" aria-label={t('toasts.label')}>
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
  );
}
