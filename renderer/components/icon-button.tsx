import type { ButtonHTMLAttributes, Ref } from 'react';
import { Icon, type IconName } from './icon';

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** What the button does: its accessible name and tooltip. */
  label: string;
  icon: IconName;
  /** For toggles (a pick): `aria-pressed`; a pressed flag or star is drawn filled. */
  pressed?: boolean;
  size?: 'normal' | 'small';
  ref?: Ref<HTMLButtonElement>;
}

/** A button showing only an icon; the label is its accessible name and its tooltip. */
export function IconButton({
  label,
  icon,
  pressed,
  size = 'normal',
  className,
  type = 'button',
  ...rest
}: IconButtonProps) {
  const classes = ['icon-button', `icon-button--${size}`, className].filter(Boolean).join(' ');
  return (
    <button
      type={type}
      className={classes}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      {...rest}
    >
      <Icon name={icon} filled={pressed === true && (icon === 'flag' || icon === 'star')} />
    </button>
  );
}
