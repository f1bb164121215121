/**
 * A modal dialog: labelled by its title, focus moves in on open and back on close, Tab stays
 * inside (and so does the focus when what had it is taken away), Escape and the backdrop close it.
 */
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { t } from '../i18n';
import { FOCUSABLE, trapTab } from '../lib/focus-trap';
import { Button } from './button';
import { IconButton } from './icon-button';

/**
 * When what had the focus inside the dialog leaves the page (a form inside it closed on Save), the
 * focus would fall to the page, where Escape and Tab no longer reach the dialog: it goes to the
 * dialog itself instead. Only a focus that fell to nothing is taken back; one another dialog or a
 * menu took stays there.
 */
function useFocusKeptIn(panel: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const root = panel.current;
    if (!root) return undefined;
    const observer = new MutationObserver(() => {
      const active = document.activeElement;
      if (active === null || active === document.body) root.focus();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [panel]);
}

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom. */
  footer?: ReactNode;
  size?: 'small' | 'large';
  /** `alertdialog` for confirmations. */
  role?: 'dialog' | 'alertdialog';
}

export function Dialog({
  title,
  onClose,
  children,
  footer,
  size = 'small',
  role = 'dialog',
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const body = panel.current?.querySelector<HTMLElement>('[data-autofocus]');
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (body ?? first ?? panel.current)?.focus();
    return () => opener?.focus?.();
  }, []);
  useFocusKeptIn(panel);
  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className={`dialog dialog--${size}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          } else trapTab(event, panel.current);
        }}
      >
        <header className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          <IconButton icon="close" label={t('common.close')} onClick={onClose} />
        </header>
        <div className="dialog__body">{children}</div>
        {footer ? <footer className="dialog__footer">{footer}</footer> : null}
      </div>
    </div>
  );
}

export interface ConfirmDialogProps {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
}

/** Asks before something that cannot be undone; the safe choice has the focus. */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  onConfirm,
  onCancel,
  danger,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      role="alertdialog"
      footer={
        <>
          <Button data-autofocus onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{body}</p>
    </Dialog>
  );
}

/**
 * The usual footer: Cancel, then the one action. `go` is what the action does: a function, or
 * the id of the form it submits (a footer stands outside its dialog's form).
 */
export function CancelAndAction(props: {
  label: string;
  onCancel: () => void;
  go: (() => void) | { readonly form: string };
  disabled?: boolean;
}) {
  const { go } = props;
  const how =
    typeof go === 'function' ? { onClick: go } : { type: 'submit' as const, form: go.form };
  return (
    <>
      <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
      <Button variant="primary" disabled={props.disabled} {...how}>
        {props.label}
      </Button>
    </>
  );
}
