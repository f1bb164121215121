/**
 * One clock for the whole window: a single 1 s interval, running only while some component
 * needs it (rows with an elapsed time or a countdown). Components read it with `useNow()`.
 */
import { useSyncExternalStore } from 'react';

const TICK_MS = 1000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Date.now();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function noSubscription(): () => void {
  return () => undefined;
}

const snapshot = (): number => now;

/**
 * The current time, updated every second while `enabled` (a row that does not tick does not
 * subscribe, so it never re-renders for the clock).
 */
export function useNow(enabled = true): number {
  return useSyncExternalStore(enabled ? subscribe : noSubscription, snapshot);
}

/** How many components use the clock now (for tests: the clock stops when none does). */
export function clockSubscribers(): number {
  return listeners.size;
}
