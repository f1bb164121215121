import { VisuallyHidden } from './visually-hidden';

/** A small busy indicator; `label` is read by screen readers (omit it inside labelled text). */
export function Spinner({ label, size = 'small' }: { label?: string; size?: 'small' | 'large' }) {
  return (
    <span className={`spinner spinner--${size}`}>
      <span className="spinner__ring" aria-hidden="true" />
      {label ? <VisuallyHidden>{label}</VisuallyHidden> : null}
    </span>
  );
}
