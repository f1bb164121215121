/**
 * The slowest an installer download may go before it is given up, on the Clock port. Electron's
 * `net.request` has no timeout of its own, and builder-util-runtime's (60 s without a byte) waits
 * for a `socket` event that Electron's ClientRequest never emits, so in the app a feed that sends
 * its headers and then nothing, or a byte a minute, would hold the download open for ever — and
 * with it every later check, which waits for the one running (update-service.ts). As curl's
 * `--speed-limit`/`--speed-time` do: fewer than {@link MIN_BYTES_PER_WINDOW} bytes in any
 * {@link PACE_WINDOW_MS}, counted from the request, gives the download up as a network fault.
 */
import type { Clock, TimerHandle } from '../ports/clock';

export const PACE_WINDOW_MS = 60_000;
/** About 1 KiB/s: a 100 MB installer still arrives over the slowest link anyone updates on. */
export const MIN_BYTES_PER_WINDOW = 64 * 1024;

export class DownloadPace {
  private total = 0;
  private windowStart = 0;
  private timer: TimerHandle | null;
  private reject: (error: Error) => void = () => undefined;
  /** Rejects with an `ETIMEDOUT` error when the pace falls below the floor; never resolves. */
  readonly stalled: Promise<never>;

  /**
   * @param size the bytes the download is to bring (a last window needs only what is left).
   * @param onStall stops the request and its streams before {@link stalled} rejects.
   */
  constructor(
    private readonly clock: Clock,
    private readonly size: number,
    private readonly onStall: (error: Error) => void,
  ) {
    this.stalled = new Promise<never>((_resolve, reject) => {
      this.reject = reject;
    });
    this.timer = this.arm();
  }

  /** Bytes of the body that arrived (redirects' bodies are not counted: they bring nothing). */
  count(bytes: number): void {
    this.total += bytes;
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): TimerHandle {
    return this.clock.setTimeout(() => {
      const needed = Math.min(MIN_BYTES_PER_WINDOW, Math.max(1, this.size - this.windowStart));
      if (this.total - this.windowStart < needed) {
        this.timer = null;
        const seconds = String(PACE_WINDOW_MS / 1000);
        const error = Object.assign(
          new Error(`The installer download brought under ${needed} bytes in ${seconds} s.`),
          { code: 'ETIMEDOUT' },
        );
        this.onStall(error);
        this.reject(error);
        return;
      }
      this.windowStart = this.total;
      this.timer = this.arm();
    }, PACE_WINDOW_MS);
  }
}
