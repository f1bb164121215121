/**
 * What other processes changed in the history. Every task row written (by any process) appends
 * its local id to `task_changes` (triggers, schema v2); a quarter-second timer asks SQLite's
 * `data_version` whether another connection committed since the last look (no file read when
 * nothing did) and, when one did, reads the new entries. This process's own writes are skipped:
 * its engine announced them already.
 */
import type { Clock, TimerHandle } from '../../ports/clock';
import { toDisposable } from '../../ports/disposable';
import { Emitter, type Event } from '../../ports/event';
import type { Logger } from '../../ports/logger';
import { messageOf } from '../errors';
import type { SqliteConnection } from './sqlite-connection';

/** Tasks another process wrote (or deleted); `overflow` when more changed than the log keeps. */
export interface HistoryChanges {
  readonly localIds: readonly string[];
  /** The log was pruned past the last look: anything may have changed; reload what is shown. */
  readonly overflow: boolean;
}

/** How often the feed looks by default: well inside the one second the app promises. */
const CHANGE_POLL_MS = 250;
const MAX_READ = 10_000;
/** The change log's last entry: what a write of this store's own reads first (takeOwn). */
export const MAX_SEQ = 'SELECT max(seq) AS seq FROM task_changes';

/** The feed's timers: a clock's, or by default real ones that let a finished CLI command exit. */
export type FeedTimers = Pick<Clock, 'setTimeout' | 'clearTimeout'>;
const UNREF_TIMERS: FeedTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class ChangeFeed {
  private readonly changed: Emitter<HistoryChanges>;
  private timer: TimerHandle | null = null;
  private lastSeen = 0;
  private lastVersion = -1;
  /** Log entries this process wrote that the feed has not passed yet: [from, to] inclusive. */
  private ownRanges: [number, number][] = [];
  /** Writes of the history worker under way for this process ({@link holdLooks}). */
  private held = 0;
  /** This process's log entries kept for {@link takeOwn} (null until it is first called). */
  private kept: [number, number][] | null = null;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly logger: Logger,
    /** How often it looks while anyone listens. */
    private readonly intervalMs = CHANGE_POLL_MS,
    private readonly timers: FeedTimers = UNREF_TIMERS,
  ) {
    this.changed = new Emitter({ name: 'history changed elsewhere', logger });
  }

  /**
   * Other processes' changes from now on, until the subscription is disposed: the first listener
   * starts the timer, the last one gone stops it.
   */
  readonly onDidChange: Event<HistoryChanges> = (listener) => {
    if (!this.changed.hasListeners()) {
      this.lastSeen = this.maxSeq();
      this.lastVersion = this.connection.dataVersion();
      this.ownRanges = [];
      this.schedule();
    }
    const subscription = this.changed.event(listener);
    return toDisposable(() => {
      subscription.dispose();
      if (!this.changed.hasListeners()) this.stopTimer();
    });
  };

  /** Ends every watch (the store is closing). */
  stop(): void {
    this.stopTimer();
    this.changed.dispose();
  }

  /**
   * Runs this process's write (inside its transaction) and remembers the log entries it made,
   * so the feed does not report them back. Free while nobody watches and nothing keeps them.
   */
  own<T>(write: () => T): T {
    const watched = this.changed.hasListeners();
    if (!watched && this.kept === null) return write();
    const before = this.maxSeq();
    const result = write();
    const after = this.maxSeq();
    if (after > before && watched) this.passOwn(before, after);
    if (after > before) this.kept?.push([before + 1, after]);
    return result;
  }

  /**
   * This process's entries `before + 1 … after`, written inside its own write transaction (no
   * other connection's entry among them). When every entry up to `before` was seen, the feed
   * passes them at once; otherwise it remembers them until a look passes them. Only another
   * connection's commit changes `data_version`, so while no other process writes no look reads
   * the log: remembered, the ranges piled up (four per task, for the process's life, each look
   * of another's write searching them all), and once this process alone wrote more entries than
   * the log keeps, another's next write read as an overflow (everything reloaded).
   */
  private passOwn(before: number, after: number): void {
    if (before === this.lastSeen) this.lastSeen = after;
    else this.ownRanges.push([before + 1, after]);
  }

  /**
   * The log entries this process's writes made since the last call ([first, last] seq), which
   * from the first call on are kept: the history worker hands them to main
   * ({@link ownElsewhere}).
   */
  takeOwn(): [number, number][] {
    const kept = this.kept ?? [];
    this.kept = [];
    return kept;
  }

  /**
   * A write the history worker runs for this process is under way: the feed does not look until
   * `release` (called once the worker answered and {@link ownElsewhere} has its entries), so it
   * never reads the worker's committed entries before it knows them as this process's.
   */
  holdLooks(): () => void {
    this.held += 1;
    let released = false;
    return () => {
      if (!released) this.held -= 1;
      released = true;
    };
  }

  /** Log entries written for this process by another thread (its history worker): not reported. */
  ownElsewhere(ranges: readonly (readonly [number, number])[]): void {
    if (!this.changed.hasListeners()) return;
    for (const [from, to] of ranges) if (to > this.lastSeen) this.ownRanges.push([from, to]);
  }

  /** Reads the entries another process committed since the last look. Exposed for tests. */
  look(): void {
    if (!this.connection.isOpen) return this.stop();
    if (this.held > 0) return;
    try {
      const version = this.connection.dataVersion();
      if (version === this.lastVersion) return;
      const rows = this.connection.all(
        'SELECT seq, local_id FROM task_changes WHERE seq > ? ORDER BY seq LIMIT ?',
        [this.lastSeen, MAX_READ],
      );
      if (rows.length === 0) {
        this.lastVersion = version;
        return;
      }
      const first = Number(rows[0]?.['seq']);
      const overflow = first > this.lastSeen + 1 || rows.length === MAX_READ;
      const localIds = new Set<string>();
      for (const row of rows) {
        const seq = Number(row['seq']);
        if (!this.isOwn(seq)) localIds.add(String(row['local_id']));
      }
      this.lastSeen = overflow ? this.maxSeq() : Number(rows.at(-1)?.['seq']);
      this.ownRanges = this.ownRanges.filter(([, to]) => to > this.lastSeen);
      // Only now: a failed read is tried again at the next look.
      this.lastVersion = version;
      if (localIds.size === 0 && !overflow) return;
      this.changed.fire({ localIds: [...localIds], overflow });
    } catch (error) {
      // Busy for longer than the timeout, or a disk problem: the next look tries again.
      this.logger.warn('Could not read what other Pictor processes changed.', {
        reason: messageOf(error),
      });
    }
  }

  /** The next look, one interval from now, for as long as anyone listens. */
  private schedule(): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.look();
      if (this.timer === null && this.changed.hasListeners() && this.connection.isOpen)
        this.schedule();
    }, this.intervalMs);
  }

  private stopTimer(): void {
    if (this.timer) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private isOwn(seq: number): boolean {
    return this.ownRanges.some(([from, to]) => seq >= from && seq <= to);
  }

  private maxSeq(): number {
    return Number(this.connection.get(MAX_SEQ, [])?.['seq'] ?? 0);
  }
}
