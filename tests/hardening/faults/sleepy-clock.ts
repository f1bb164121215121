/**
 * A real-time clock that can "sleep" like a laptop with its lid closed: while asleep no timer
 * fires; on waking, wall time has jumped forward and every timer that fell due meanwhile fires
 * at once, late. The demo service reads the same `now()`, so the world moved on while we slept.
 */
import type { Clock, TimerHandle } from '../../../electron/ports/clock';

interface HeldTimer {
  readonly at: number;
  readonly callback: () => void;
  real: NodeJS.Timeout | null;
}

export class SleepyClock implements Clock {
  private offset = 0;
  private asleep = false;
  private readonly timers = new Map<object, HeldTimer>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = {};
    const timer: HeldTimer = { at: this.now() + Math.max(0, ms), callback, real: null };
    this.timers.set(handle, timer);
    if (!this.asleep) this.arm(handle, timer);
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    const timer = this.timers.get(handle);
    if (timer?.real) clearTimeout(timer.real);
    this.timers.delete(handle);
  }

  /** The lid closes: nothing fires until {@link wake}. */
  sleep(): void {
    this.asleep = true;
    for (const timer of this.timers.values()) {
      if (timer.real) clearTimeout(timer.real);
      timer.real = null;
    }
  }

  /** The lid opens `jumpMs` later than the real time that passed: overdue timers fire now. */
  wake(jumpMs: number): void {
    this.offset += jumpMs;
    this.asleep = false;
    for (const [handle, timer] of this.timers) this.arm(handle, timer);
  }

  private arm(handle: object, timer: HeldTimer): void {
    timer.real = setTimeout(
      () => {
        this.timers.delete(handle);
        timer.callback();
      },
      Math.max(0, timer.at - this.now()),
    );
  }
}
