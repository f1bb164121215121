/**
 * The main process's one event type (VS Code's `Event`/`Emitter`). An owner keeps an
 * {@link Emitter} private and hands out its {@link Emitter.event}; whoever subscribes gets a
 * {@link Disposable} that ends the subscription. A listener that throws is the listener's fault:
 * {@link Emitter.fire} logs it and goes on to the next one, so no observer (a window, a log, a
 * notification) can break the engine path that announced the change.
 */
import { toDisposable, type Disposable } from './disposable';
import type { Logger } from './logger';

/** Subscribes `listener` to an event; dispose the result to unsubscribe. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** One subscription, its own object: one function subscribed twice is two subscriptions. */
interface Subscription<T> {
  readonly listener: (value: T) => void;
}

export interface EmitterOptions {
  /** What the event is, for the log line of a listener that threw (`settings changed`…). */
  readonly name: string;
  /** Where a listener's failure goes. */
  readonly logger: Logger;
}

export class Emitter<T> implements Disposable {
  private readonly subscriptions = new Set<Subscription<T>>();
  private disposed = false;

  constructor(private readonly options: EmitterOptions) {}

  /** Subscribes a listener (the same function twice is two subscriptions). */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    const subscription = { listener };
    this.subscriptions.add(subscription);
    return toDisposable(() => this.subscriptions.delete(subscription));
  };

  /** Whether anyone listens now (an owner may skip work nobody hears of). */
  hasListeners(): boolean {
    return this.subscriptions.size > 0;
  }

  /**
   * Calls every listener subscribed when the call began and still subscribed when its turn comes,
   * in the order they subscribed. A listener that throws is logged and skipped; the rest still run
   * and `fire` never throws.
   */
  fire(value: T): void {
    for (const subscription of [...this.subscriptions]) {
      if (!this.subscriptions.has(subscription)) continue;
      try {
        subscription.listener(value);
      } catch (error) {
        this.options.logger.error('an event listener failed', {
          event: this.options.name,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        });
      }
    }
  }

  /** Ends every subscription; later subscriptions are ended at once and `fire` reaches no one. */
  dispose(): void {
    this.disposed = true;
    this.subscriptions.clear();
  }
}
