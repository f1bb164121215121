/**
 * The engine's work in the background (submits, polls, downloads): each promise is kept until it
 * settles, so a pause or a stop can wait for all of it; a failure is logged by its kind, never
 * thrown at nobody.
 */
import type { Logger } from '../../ports/logger';
import { errorKind } from './error-kind';

export class BackgroundWork {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly logger: Logger) {}

  /** Keeps `work` until it settles; returns it. */
  run<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const done = (): void => {
      this.inFlight.delete(work);
    };
    work.then(done, (error: unknown) => {
      done();
      this.logger.error('engine work failed', { reason: errorKind(error) });
    });
    return work;
  }

  /** Waits for the work under way, and for what it starts meanwhile. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
