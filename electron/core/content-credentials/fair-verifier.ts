/**
 * Content Credentials verified fairly between the sources of the images: the core wraps the host's
 * verifier (the image renderer's, or the worker-thread one) in this, so that one hostile service
 * can delay only its own images. Before and around the verifier:
 *
 * - the pre-count (store-census.ts): a store beyond `MAX_STORE_ASSERTIONS` assertions,
 *   `MAX_STORE_BOXES` boxes or `MAX_STORE_DEPTH` levels is `unreadable` at once, without waiting
 *   or running;
 * - lanes (fair-queue.ts): stores take turns by service (`CredentialRequest.owner`), one store of
 *   a service at a time, `parallel` services at once, so a service's slow stores hold up only
 *   the stores of that service;
 * - a budget per task: the stores of one task share {@link TASK_VERIFY_BUDGET_MS} of
 *   verification, and one store runs at most {@link STORE_VERIFY_LIMIT_MS} and never past what
 *   its task has left. A store cut off at its limit ends its task's budget: the task's remaining
 *   stores are `unreadable` without running.
 *
 * Time is the clock port's: a cut aborts the verifier's work (it ends its worker or its job) and
 * answers `unreadable` then, whatever the verifier does with the abort.
 */
import type { CredentialVerdict } from '../../../shared/domain/content-credentials';
import type { Clock } from '../../ports/clock';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
} from '../../ports/content-credential-verifier';
import { silentLogger, type Logger } from '../../ports/logger';
import { VerifierUnavailableError } from './c2pa-verifier';
import { FairQueue } from './fair-queue';
import { storeExcess } from './store-census';

/** The verification time the stores of one task share. */
export const TASK_VERIFY_BUDGET_MS = 30_000;
/** The most one store may take (the verifiers' own limit is the same, as a backstop). */
export const STORE_VERIFY_LIMIT_MS = 20_000;
/** Services whose stores are verified at once (the image renderer runs two jobs at a time). */
const PARALLEL_SERVICES = 2;
/** Budgets remembered; the task heard from least recently is forgotten first. */
const REMEMBERED_TASKS = 1_000;

export interface FairVerifierOptions {
  readonly clock: Clock;
  /** Default {@link PARALLEL_SERVICES}. */
  readonly parallel?: number;
  /** Default {@link TASK_VERIFY_BUDGET_MS}. */
  readonly taskBudgetMs?: number;
  /** Default {@link STORE_VERIFY_LIMIT_MS}. */
  readonly storeLimitMs?: number;
  readonly logger?: Logger;
  /** {@link FairVerifier.dispose} ends `inner` too (it was made for this one). Default false. */
  readonly ownsInner?: boolean;
}

interface Budget {
  spentMs: number;
  /** Used up, or a store overran: the task's other stores are not verified. */
  over: boolean;
}

const UNREADABLE: CredentialVerdict = { state: 'unreadable' };

export class FairVerifier implements ContentCredentialVerifier {
  private readonly queue: FairQueue;
  private readonly budgets = new Map<string, Budget>();
  private readonly clock: Clock;
  private readonly taskBudgetMs: number;
  private readonly storeLimitMs: number;
  private readonly logger: Logger;
  private readonly ownsInner: boolean;

  /** `inner` stays its owner's unless `options.ownsInner`. */
  constructor(
    private readonly inner: ContentCredentialVerifier,
    options: FairVerifierOptions,
  ) {
    this.queue = new FairQueue(Math.max(1, options.parallel ?? PARALLEL_SERVICES));
    this.clock = options.clock;
    this.taskBudgetMs = options.taskBudgetMs ?? TASK_VERIFY_BUDGET_MS;
    this.storeLimitMs = options.storeLimitMs ?? STORE_VERIFY_LIMIT_MS;
    this.logger = options.logger ?? silentLogger;
    this.ownsInner = options.ownsInner ?? false;
  }

  /** See the port, and the file's comment for what is added. */
  async verify(request: CredentialRequest): Promise<CredentialVerdict> {
    request.signal?.throwIfAborted();
    const excess = storeExcess(request.bytes, request.format);
    if (excess) {
      this.logger.warn('Content Credentials not verified: the store is beyond the limits.', {
        excess,
      });
      return UNREADABLE;
    }
    const { owner } = request;
    const budget = owner ? this.budgetOf(`${owner.service}\n${owner.task}`) : fresh();
    return this.queue.run(owner?.service ?? '', () => this.run(request, budget), request.signal);
  }

  /** Stops taking stores (those waiting reject: the verifier was stopped); ends an owned `inner`. */
  async dispose(): Promise<void> {
    this.queue.close(new VerifierUnavailableError('The verifier was stopped.'));
    if (this.ownsInner) await this.inner.dispose();
  }

  private async run(request: CredentialRequest, budget: Budget): Promise<CredentialVerdict> {
    if (budget.over) return UNREADABLE;
    const limit = Math.min(this.storeLimitMs, this.taskBudgetMs - budget.spentMs);
    // On the clock nobody sets, as the limit's timer runs: a wall clock set forward during a store
    // (NTP, the user) spent no budget.
    const started = this.clock.monotonic();
    const cut = new AbortController();
    const onAbort = () => cut.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let overrun = (): void => undefined;
    const overran = new Promise<'overran'>((resolve) => {
      overrun = () => resolve('overran');
    });
    const timer = this.clock.setTimeout(() => overrun(), limit);
    const verified = this.inner.verify({ ...request, signal: cut.signal });
    let over = false;
    try {
      const first = await Promise.race([verified, overran]);
      if (first !== 'overran') return first;
      // The verifier's work is ended; whatever it answers now is not waited for.
      over = true;
      cut.abort(new Error('The store overran its time.'));
      verified.catch(() => undefined);
      return UNREADABLE;
    } finally {
      this.clock.clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      this.spend(budget, Math.max(0, this.clock.monotonic() - started), over);
    }
  }

  /** Counts `tookMs` against the task; `overran`: the store was cut off at its limit. */
  private spend(budget: Budget, tookMs: number, overran: boolean): void {
    if (budget.over) return;
    budget.spentMs += tookMs;
    // A store the verifier ended at its own limit (the same as this one) overran as well.
    const over = overran || tookMs >= this.storeLimitMs || budget.spentMs >= this.taskBudgetMs;
    if (!over) return;
    budget.over = true;
    this.logger.warn('A task’s Content Credentials used up their time: the rest are not read.', {
      spentMs: budget.spentMs,
    });
  }

  private budgetOf(task: string): Budget {
    const known = this.budgets.get(task);
    this.budgets.delete(task);
    const budget = known ?? fresh();
    this.budgets.set(task, budget);
    if (this.budgets.size > REMEMBERED_TASKS) {
      const oldest = this.budgets.keys().next().value;
      if (oldest !== undefined) this.budgets.delete(oldest);
    }
    return budget;
  }
}

function fresh(): Budget {
  return { spentMs: 0, over: false };
}
