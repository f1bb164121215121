/**
 * Main's trash as a large batch meets it on a slow disk, on a manual clock: the real trash
 * (core/trash/trash-operations.ts) of a wired main (tests/support/wired-api.ts), its journal, its
 * progress, its stop on an Undo and its take-back all main's own, with the engine's writes it
 * makes per item (a task removed, an image's files moved aside or back, a task put back) taking
 * their time: every `step`-th write waits `step × msPerItem` on `clock` (70 of 300 items after a
 * second by default). Only the time is the test's; what each write does is main's.
 */
import { vi } from 'vitest';
import type { PictorCore } from '../../electron/core/pictor-core';
import type { ManualClock } from '../fakes/manual-clock';
import { UNTIL } from './waits';

/** The engine's writes the trash makes, one per item. */
const WRITES = ['remove', 'editImageFiles', 'reinstate'] as const;

/** How far the slow writes are. */
export interface SlowDisk {
  /** Writes asked so far (all kinds). */
  readonly writes: number;
  /** Writes waiting on the clock now: above 0 while an operation runs. */
  readonly waiting: number;
  /**
   * Lets `ms` of the clock pass as the trash lives it: each time its next write waits on the
   * clock (main's writes go through the history worker, so no turn of this thread's loop tells
   * when), time moves to when that write is due; once no operation is under way, the rest passes
   * at once.
   */
  elapse(ms: number): Promise<void>;
}

export function slowDisk(
  core: Pick<PictorCore, 'engine' | 'trash'>,
  clock: ManualClock,
  options: { msPerItem?: number; step?: number; onWrite?: (writes: number) => void } = {},
): SlowDisk {
  const { msPerItem = 14, step = 10 } = options;
  const { engine, trash } = core;
  const state = {
    writes: 0,
    waiting: 0,
    async elapse(ms: number): Promise<void> {
      const end = clock.now() + ms;
      for (;;) {
        await vi.waitFor(() => {
          if (state.waiting === 0 && trash.inFlight()) throw new Error('a write is under way');
        }, UNTIL);
        const due = clock.nextDue();
        if (state.waiting === 0 || due === null || due > end) break;
        await clock.advance(due - clock.now());
      }
      await clock.advance(Math.max(0, end - clock.now()));
    },
  };
  const slow = engine as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of WRITES) {
    const write = slow[name]!.bind(engine);
    slow[name] = async (...args) => {
      const at = state.writes;
      state.writes += 1;
      options.onWrite?.(state.writes);
      if (at % step === 0) {
        state.waiting += 1;
        await new Promise<void>((resolve) => clock.setTimeout(resolve, msPerItem * step));
        state.waiting -= 1;
      }
      return write(...args);
    };
  }
  return state;
}
