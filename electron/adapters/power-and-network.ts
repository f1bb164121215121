/**
 * Wake-ups and connectivity: the machine resuming from sleep or being unlocked, and the
 * network going away and coming back. `net.isOnline()` has no change event, so it is polled
 * (and read again on every wake); app/os/online-state.ts smooths the samples.
 */
import { net, powerMonitor } from 'electron';
import type { Clock, TimerHandle } from '../ports/clock';
import { OnlineState } from '../app/os/online-state';
import { systemClock } from './system-clock';

export type WakeReason = 'resume' | 'unlock-screen' | 'online';

export interface PowerAndNetworkOptions {
  /** Poll now (main calls `engine.wake()`): after sleep, an unlock, or the network coming back. */
  readonly onWake: (reason: WakeReason) => void;
  /** The smoothed online state changed (main emits `network:changed`). */
  readonly onOnlineChanged: (online: boolean) => void;
  /** Default 5,000 ms. */
  readonly pollMs?: number;
  readonly clock?: Clock;
  readonly onlineAfterMs?: number;
  readonly offlineAfterMs?: number;
}

export interface PowerAndNetworkWatch {
  /** The current smoothed state (for `app:getInfo`). */
  online(): boolean;
  /** Removes the listeners and stops polling. */
  dispose(): void;
}

const DEFAULT_ONLINE_POLL_MS = 5_000;

/** Starts watching. Call after `app` is ready (powerMonitor is not usable before). */
export function watchPowerAndNetwork(options: PowerAndNetworkOptions): PowerAndNetworkWatch {
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? DEFAULT_ONLINE_POLL_MS;
  const read = (fallback: boolean): boolean => {
    try {
      return net.isOnline();
    } catch {
      return fallback;
    }
  };
  const state = new OnlineState({
    clock,
    initial: read(true),
    ...(options.onlineAfterMs === undefined ? {} : { onlineAfterMs: options.onlineAfterMs }),
    ...(options.offlineAfterMs === undefined ? {} : { offlineAfterMs: options.offlineAfterMs }),
    onChange: (online) => {
      options.onOnlineChanged(online);
      if (online) options.onWake('online');
    },
  });
  const sample = () => state.sample(read(state.online));
  let timer: TimerHandle | null = null;
  let disposed = false;
  const schedule = () => {
    if (disposed) return;
    timer = clock.setTimeout(() => {
      sample();
      schedule();
    }, pollMs);
  };
  const onResume = () => {
    options.onWake('resume');
    sample();
  };
  const onUnlock = () => {
    options.onWake('unlock-screen');
    sample();
  };
  powerMonitor.on('resume', onResume);
  powerMonitor.on('unlock-screen', onUnlock);
  schedule();
  return {
    online: () => state.online,
    dispose() {
      disposed = true;
      if (timer) clock.clearTimeout(timer);
      timer = null;
      state.dispose();
      powerMonitor.removeListener('resume', onResume);
      powerMonitor.removeListener('unlock-screen', onUnlock);
    },
  };
}
