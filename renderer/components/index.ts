/** The shared UI pieces (both renderer helpers use them). */
export { Button, type ButtonProps, type ButtonVariant } from './button';
export { ConfirmDialog, Dialog, type ConfirmDialogProps, type DialogProps } from './dialog';
export {
  ErrorBoundary,
  ViewErrorBoundary,
  errorDetail,
  type ErrorBoundaryProps,
} from './error-boundary';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { ErrorMessage, type ErrorMessageProps } from './error-message';
export { Field, type FieldControl, type FieldProblem, type FieldProps } from './field';
export { Icon, type IconName } from './icon';
export { IconButton, type IconButtonProps } from './icon-button';
export { LiveRegion, announce } from './live-region';
export { Spinner } from './spinner';
export { VisuallyHidden } from './visually-hidden';
