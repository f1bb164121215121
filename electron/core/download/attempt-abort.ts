/**
 * One download attempt's cancellation: its own timeout plus the caller's signal, remembering
 * which one fired so the user is told the right reason.
 */
import { sentence } from '../../../shared/i18n/sentence';
import { retry, type FailedOutcome } from './download-outcome';
import { errorCode } from '../fs';
import { ServiceError } from '../service';

export class AttemptAbort {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private timedOut = false;
  private readonly onCallerAbort = (): void => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly caller?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('The image download timed out.'));
    }, timeoutMs);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Stops the timer and lets go of the caller's signal; the attempt's network part is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }

  /**
   * The retry outcome for an error thrown by fetch or by the body stream.
   * @param during `connecting` (no answer yet) or `receiving` (the body was cut).
   */
  failure(error: unknown, during: 'connecting' | 'receiving'): FailedOutcome {
    if (this.timedOut)
      return retry(
        sentence('error.gallery.downloadTimeout', { seconds: Math.round(this.timeoutMs / 1000) }),
      );
    if (this.caller?.aborted) return retry(sentence('error.gallery.downloadStopped'));
    // A refusal before connecting (another user's loopback server) keeps its own words.
    if (error instanceof ServiceError && error.sentence) return retry(error.sentence);
    const code = errorCode(error);
    if (during === 'connecting') {
      return retry(
        code
          ? sentence('error.gallery.downloadUnreachableCode', { code })
          : sentence('error.gallery.downloadUnreachable'),
      );
    }
    return retry(
      code
        ? sentence('error.gallery.downloadDroppedCode', { code })
        : sentence('error.gallery.downloadDropped'),
    );
  }
}
