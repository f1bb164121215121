/**
 * The quit's clean-up on a manual clock: its steps run in order, a failing one is logged and the
 * next runs, and a step that never ends cannot keep the app alive: the quit goes ahead once the
 * overall limit has passed, exactly once, naming the stuck step.
 */
import { describe, expect, it } from 'vitest';
import {
  QUIT_LIMIT_MS,
  runQuitSteps,
  type QuitEnd,
  type QuitStep,
} from '../../../electron/host/quit-steps';
import { QUIT_WAIT_MS } from '../../../electron/adapters/quit-hold';
import { ManualClock } from '../../fakes/manual-clock';

function recorder() {
  const errors: { message: string; fields?: unknown }[] = [];
  const ends: QuitEnd[] = [];
  return {
    errors,
    ends,
    logger: { error: (message: string, fields?: unknown) => void errors.push({ message, fields }) },
    finish: (end: QuitEnd) => void ends.push(end),
  };
}

describe('the quit’s clean-up', () => {
  it('runs every step in order, logs a failing one and goes on, then quits', async () => {
    const clock = new ManualClock();
    const seen: string[] = [];
    const log = recorder();
    const steps: QuitStep[] = [
      { name: 'a', run: () => void seen.push('a') },
      {
        name: 'b',
        run: async () => {
          seen.push('b');
          throw new Error('disk gone');
        },
      },
      { name: 'c', run: async () => void seen.push('c') },
    ];
    const end = await runQuitSteps(steps, { clock, limitMs: 1_000, ...log });
    expect(end).toBe('done');
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(log.errors).toEqual([{ message: 'b failed', fields: { detail: 'Error: disk gone' } }]);
    expect(log.ends).toEqual(['done']);
    expect(clock.pending).toBe(0);
  });

  it('a stuck step cannot keep the app alive: the quit goes ahead at the limit, once', async () => {
    const clock = new ManualClock();
    const log = recorder();
    let after = false;
    const steps: QuitStep[] = [
      { name: 'shutdown', run: () => new Promise<void>(() => undefined) },
      { name: 'closing the log', run: () => void (after = true) },
    ];
    let result: QuitEnd | null = null;
    void runQuitSteps(steps, { clock, limitMs: QUIT_LIMIT_MS, ...log }).then((end) => {
      result = end;
    });
    await clock.advance(QUIT_LIMIT_MS - 1);
    expect(log.ends).toEqual([]);
    await clock.advance(1);
    expect(result).toBe('overrun');
    expect(log.ends).toEqual(['overrun']);
    expect(log.errors).toEqual([
      {
        message: 'the quit’s clean-up ran over its time limit; quitting without it',
        fields: { step: 'shutdown', limitMs: QUIT_LIMIT_MS },
      },
    ]);
    expect(after).toBe(false);
    await clock.advance(60_000);
    expect(log.ends).toEqual(['overrun']);
  });

  it('a step that ends after the limit neither quits twice nor runs the steps after it', async () => {
    const clock = new ManualClock();
    const log = recorder();
    let release: () => void = () => undefined;
    let after = false;
    const steps: QuitStep[] = [
      { name: 'trash at quit', run: () => new Promise<void>((resolve) => (release = resolve)) },
      { name: 'closing the log', run: () => void (after = true) },
    ];
    void runQuitSteps(steps, { clock, limitMs: 5_000, ...log });
    await clock.advance(5_000);
    release();
    await clock.advance(0);
    expect(log.ends).toEqual(['overrun']);
    expect(after).toBe(false);
  });

  it('leaves the trash its own wait, and the rest room after it', () => {
    expect(QUIT_LIMIT_MS).toBeGreaterThan(QUIT_WAIT_MS);
  });
});
