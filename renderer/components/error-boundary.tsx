/**
 * Error boundaries: a part of the window that throws while rendering (a record no formatter can
 * show, a bug) is replaced by its fallback instead of taking the whole window down with it.
 * One per view (a message with "Try again") and one per list row or grid tile (that one item
 * says it is unreadable, the rest stay usable).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../i18n';
import { Button } from './button';
import { ErrorMessage } from './error-message';

export interface ErrorBoundaryProps {
  /** What to show instead of the children once they threw; `reset` renders them again. */
  fallback: (error: Error, reset: () => void) => ReactNode;
  /** A new value (e.g. a fresh copy of the record) renders the children again. */
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(thrown: unknown): Partial<State> {
    return { error: asError(thrown) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: State): Partial<State> | null {
    // New data may render fine: try again with it.
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The console is where the window's own problems go (the main process collects it).
    console.error('A part of the window could not be shown.', asError(error), info.componentStack);
  }

  private readonly reset = (): void => this.setState({ error: null });

  override render(): ReactNode {
    const { error } = this.state;
    return error ? this.props.fallback(error, this.reset) : this.props.children;
  }
}

/** Technical detail of a render error, for the "Details" disclosure. */
export function errorDetail(error: Error): string {
  return error.message ? `${error.name}: ${error.message}` : error.name;
}

/** A whole view that failed: a sentence, the detail on demand, and a way to try again. */
export function ViewErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={(error, reset) => (
        <div className="view-error">
          <ErrorMessage
            message={t('error.view')}
            detail={errorDetail(error)}
            actions={<Button onClick={reset}>{t('common.tryAgain')}</Button>}
          />
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
