import type { ButtonHTMLAttributes, Ref } from 'react';
import { Icon, type IconName } from './icon';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'normal' | 'small';
  /** An icon before the text (decorative: the text is the label). */
  icon?: IconName;
  ref?: Ref<HTMLButtonElement>;
}

/** The app's button: always `type="button"` unless told otherwise, focus ring from the tokens. */
export function Button({
  variant = 'secondary',
  size = 'normal',
  icon,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  const classes = ['button', `button--${variant}`, `button--${size}`, className]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}
