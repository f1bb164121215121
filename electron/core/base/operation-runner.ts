/**
 * Long operations (a library move, an export, an import, a rebuild, a batch of deletes) as core
 * objects, the same for the app and the CLI, after VS Code's `CancellationToken`: each run gets an
 * `AbortSignal` and a `report` for its progress. Runs of one kind go one at a time: a run asked
 * for while one of its kind is under way is refused with the kind's sentence, or waits its turn
 * when the kind queues; kinds kept apart (`apart`) never run side by side. Progress is passed on at most every `progressEveryMs` on the clock port,
 * and always when the run says it is the last report. Fronts (IPC handlers, CLI commands) keep no
 * slots, signals or throttles of their own: they say what to run and where progress goes.
 */
import type { Sentence } from '../../../shared/i18n/sentence';
import type { Clock } from '../../ports/clock';
import { UserFacingError } from '../errors';

/** What a run is given: its stop signal and where it reports how far it is. */
export interface Operation<P> {
  readonly signal: AbortSignal;
  /** How far the run is; `last` (the work is done) is passed on whatever the time since the one before. */
  report(progress: P, last?: boolean): void;
}

export interface RunOptions<P> {
  /** Where the run's progress goes, throttled on the clock. */
  readonly onProgress?: (progress: P) => void;
  /** Stops the run too (the CLI's Ctrl+C). */
  readonly signal?: AbortSignal;
}

/** A second run of a kind that refuses one while the first is under way. */
export class OperationBusyError extends UserFacingError {
  override readonly name = 'OperationBusyError';
}

export interface OperationRunnerOptions<K extends string> {
  /** Timers for {@link OperationRunner.settle} and the time between two progress reports. */
  readonly clock: Clock;
  /** Per kind: the sentence a second run is refused with while one runs, or `queue` to wait. */
  readonly kinds: Readonly<Record<K, Sentence | 'queue'>>;
  /**
   * Kinds that never run side by side (each pair both ways): a run of one is refused while a run
   * of the other is under way or waiting, with the other's sentence (the other must refuse, not
   * queue). A library move and an import: the import would write into the folder the move has
   * already carried, or left.
   */
  readonly apart?: readonly (readonly [K, K])[];
  /** Least time between two progress reports passed on (the last is always); default 100 ms. */
  readonly progressEveryMs?: number;
}

/** What runs of one kind share: how many are asked for, the one under way, the order. */
interface KindState {
  pending: number;
  tail: Promise<unknown>;
  controller: AbortController | null;
  progress: unknown;
}

const PROGRESS_EVERY_MS = 100;

export class OperationRunner<K extends string> {
  private readonly states = new Map<K, KindState>();

  constructor(private readonly options: OperationRunnerOptions<K>) {}

  /**
   * Runs `work` as the one operation of `kind` under way.
   * @throws OperationBusyError when the kind refuses a second run and one is under way.
   */
  run<T, P = never>(
    kind: K,
    work: (operation: Operation<P>) => Promise<T>,
    options: RunOptions<P> = {},
  ): Promise<T> {
    const state = this.state(kind);
    const policy = this.options.kinds[kind];
    if (policy !== 'queue' && state.pending > 0) {
      return Promise.reject(new OperationBusyError(policy, { code: 'failed' }));
    }
    const other = this.runningApartFrom(kind);
    if (other !== null) {
      const said = this.options.kinds[other];
      if (said === 'queue') throw new Error(`Kind ${other} is kept apart, so it must refuse.`);
      return Promise.reject(new OperationBusyError(said, { code: 'failed' }));
    }
    state.pending += 1;
    const run =
      state.pending === 1
        ? this.execute(state, work, options)
        : state.tail.then(() => this.execute(state, work, options));
    const settle = () => void (state.pending -= 1);
    state.tail = run.then(settle, settle);
    return run;
  }

  /** Stops the run of `kind` under way (its signal aborts with `reason`); false when none runs. */
  cancel(kind: K, reason?: unknown): boolean {
    const controller = this.states.get(kind)?.controller;
    if (!controller) return false;
    controller.abort(reason);
    return true;
  }

  /**
   * Whether a run of `kind` is under way or waiting, and the last progress it reported (null
   * before its first); null when none is.
   */
  inFlight<P>(kind: K): { readonly progress: P | null } | null {
    const state = this.states.get(kind);
    if (!state || state.pending === 0) return null;
    return { progress: state.progress as P | null };
  }

  /**
   * Waits for the runs of `kind` under way and waiting, at most `ms`.
   * @returns whether none is left.
   */
  async settle(kind: K, ms: number): Promise<boolean> {
    const state = this.states.get(kind);
    if (!state || state.pending === 0) return true;
    const { clock } = this.options;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = clock.setTimeout(() => resolve(false), ms);
    });
    const drained = async (): Promise<true> => {
      while (state.pending > 0) await state.tail;
      return true;
    };
    const settled = await Promise.race([drained(), timeout]);
    if (timer !== undefined) clock.clearTimeout(timer);
    return settled && state.pending === 0;
  }

  /** A kind kept apart from `kind` with a run under way or waiting, or null. */
  private runningApartFrom(kind: K): K | null {
    for (const [a, b] of this.options.apart ?? []) {
      const other = a === kind ? b : b === kind ? a : null;
      if (other !== null && (this.states.get(other)?.pending ?? 0) > 0) return other;
    }
    return null;
  }

  private state(kind: K): KindState {
    let state = this.states.get(kind);
    if (!state) {
      state = { pending: 0, tail: Promise.resolve(), controller: null, progress: null };
      this.states.set(kind, state);
    }
    return state;
  }

  private async execute<T, P>(
    state: KindState,
    work: (operation: Operation<P>) => Promise<T>,
    options: RunOptions<P>,
  ): Promise<T> {
    const controller = new AbortController();
    const stop = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    state.controller = controller;
    const passes = this.throttle();
    try {
      return await work({
        signal: controller.signal,
        report: (progress, last = false) => {
          state.progress = progress;
          if (passes(last)) options.onProgress?.(progress);
        },
      });
    } finally {
      options.signal?.removeEventListener('abort', stop);
      state.controller = null;
      state.progress = null;
    }
  }

  /** Whether a report goes on: the last one, the first, or one far enough from the one before. */
  private throttle(): (last: boolean) => boolean {
    const { clock } = this.options;
    const every = this.options.progressEveryMs ?? PROGRESS_EVERY_MS;
    let passedAt = Number.NEGATIVE_INFINITY;
    return (last) => {
      const now = clock.now();
      // A clock set back since the last report lets the next one through.
      if (!last && now >= passedAt && now - passedAt < every) return false;
      passedAt = now;
      return true;
    };
  }
}
