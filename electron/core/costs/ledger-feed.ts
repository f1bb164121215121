/**
 * The ledger's change event: fired when anything the window shows of costs changed (a task's
 * reported cost or estimate, a task joining the ledger, leaving the history or coming back, its
 * thumbnail, a price, a cap), whoever changed it: this process's engine, a removed task it still
 * watches, an import, or another Pictor process (the CLI) writing the same library.
 *
 * The history keeps the ledger's version (ledger-sums-schema.ts: SQLite triggers move it with each
 * such change, in the writer's own transaction), so the feed only compares one number: while
 * anyone listens, a timer reads it every quarter second (a one-row read) and fires when it moved.
 * That also coalesces a burst: two hundred tasks reporting costs in the same second are at most
 * four events. A task's status and a poll's bookkeeping do not move it.
 */
import { processTimers } from '../base';
import type { Clock, TimerHandle } from '../../ports/clock';
import { toDisposable } from '../../ports/disposable';
import { Emitter, type Event } from '../../ports/event';
import { silentLogger, type Logger } from '../../ports/logger';
import { messageOf } from '../errors';

/** The ledger changed: its version now (the page compares it with the one it read). */
export interface LedgerChange {
  readonly version: number;
}

export interface LedgerFeedOptions {
  /** The ledger's version now; null when the history is closed. */
  readonly version: () => number | null;
  /** Timers; default the process's own (a watching CLI command still exits when done). */
  readonly timers?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** How often the version is read while someone listens; default 250 ms. */
  readonly intervalMs?: number;
  readonly logger?: Logger;
}

const LOOK_MS = 250;

export class LedgerFeed {
  private readonly changed: Emitter<LedgerChange>;
  private readonly timers: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  private timer: TimerHandle | null = null;
  private seen: number | null = null;

  constructor(private readonly options: LedgerFeedOptions) {
    const logger = options.logger ?? silentLogger;
    this.changed = new Emitter({ name: 'ledger changed', logger });
    this.timers = options.timers ?? processTimers;
  }

  /** Calls the listener with the ledger's version each time it moved, until disposed. */
  readonly onDidChange: Event<LedgerChange> = (listener) => {
    const first = !this.changed.hasListeners();
    const subscription = this.changed.event(listener);
    if (first) {
      this.seen = this.read();
      this.schedule();
    }
    return toDisposable(() => {
      subscription.dispose();
      if (!this.changed.hasListeners()) this.stop();
    });
  };

  /** Reads the version and fires when it moved since the last look. Exposed for tests. */
  look(): void {
    const version = this.read();
    if (version === null || version === this.seen) return;
    this.seen = version;
    this.changed.fire({ version });
  }

  private read(): number | null {
    try {
      return this.options.version();
    } catch (error) {
      // A busy or failing disk: the next look tries again.
      this.options.logger?.warn('Could not read whether the cost ledger changed.', {
        reason: messageOf(error),
      });
      return null;
    }
  }

  private schedule(): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.look();
      if (this.changed.hasListeners()) this.schedule();
    }, this.options.intervalMs ?? LOOK_MS);
  }

  private stop(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
