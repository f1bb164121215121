/**
 * Whether the machine is online, from noisy samples (`net.isOnline()` polled, and read again
 * on wake). A change is reported only once the new value has held for a while, so a flapping
 * Wi-Fi link does not flood the renderer with banners or the engine with wake-ups. Coming back
 * is confirmed quickly (work waits for it); going offline waits longer (a blip costs nothing).
 */
import type { Clock, TimerHandle } from '../../ports/clock';

export interface OnlineStateOptions {
  readonly clock: Clock;
  /** The state before the first sample (the app asks `net.isOnline()` once at start). */
  readonly initial: boolean;
  /** Called with the new value when a change has held long enough. */
  readonly onChange: (online: boolean) => void;
  /** How long `online` must hold before it is reported. Default 2 s. */
  readonly onlineAfterMs?: number;
  /** How long `offline` must hold before it is reported. Default 8 s. */
  readonly offlineAfterMs?: number;
}

const DEFAULT_ONLINE_AFTER_MS = 2_000;
const DEFAULT_OFFLINE_AFTER_MS = 8_000;

export class OnlineState {
  private current: boolean;
  private pending: { readonly value: boolean; readonly timer: TimerHandle } | null = null;

  constructor(private readonly options: OnlineStateOptions) {
    this.current = options.initial;
  }

  /** The last reported value. */
  get online(): boolean {
    return this.current;
  }

  /** One sample. Confirms, starts or cancels a pending change. */
  sample(online: boolean): void {
    if (this.pending?.value === online) return;
    this.cancel();
    if (online === this.current) return;
    const delay = online
      ? (this.options.onlineAfterMs ?? DEFAULT_ONLINE_AFTER_MS)
      : (this.options.offlineAfterMs ?? DEFAULT_OFFLINE_AFTER_MS);
    const timer = this.options.clock.setTimeout(() => {
      this.pending = null;
      this.current = online;
      this.options.onChange(online);
    }, delay);
    this.pending = { value: online, timer };
  }

  /** Stops a pending change (on quit). */
  dispose(): void {
    this.cancel();
  }

  private cancel(): void {
    if (!this.pending) return;
    this.options.clock.clearTimeout(this.pending.timer);
    this.pending = null;
  }
}
