/**
 * What the sleep tests share (asleep-mid-request, asleep-mid-download): the two ways a machine
 * sleeps, the two ways the engine may hear of it, every pair of them, and a clock moved timer by
 * timer until a condition holds.
 */
import { ManualClock } from '../../fakes/manual-clock';

export type Sleep = 'timers stand still (Linux, macOS)' | 'timers fall due late (Windows)';
export type Waker = 'the app wakes the engine' | 'nobody wakes it (CLI, MCP)';

/**
 * A clock of the platform that sleeps so: Linux's and macOS's know the time the machine was awake
 * (the sleep watch reads a sleep as the uptime running on while it stood still), Windows' do not
 * (a late timer tells it there).
 */
export function clockFor(sleep: Sleep): ManualClock {
  return new ManualClock(undefined, { awake: sleep === 'timers stand still (Linux, macOS)' });
}

/** Each sleep with each waker. */
export const SLEEPS_AND_WAKERS: readonly [Sleep, Waker][] = [
  ['timers stand still (Linux, macOS)', 'the app wakes the engine'],
  ['timers stand still (Linux, macOS)', 'nobody wakes it (CLI, MCP)'],
  ['timers fall due late (Windows)', 'the app wakes the engine'],
  ['timers fall due late (Windows)', 'nobody wakes it (CLI, MCP)'],
];

/** Moves the clock timer by timer, each moment run to its end, until `done` or `limitMs` pass. */
export async function runUntil(
  clock: ManualClock,
  settle: () => Promise<void>,
  done: () => boolean,
  limitMs: number,
): Promise<void> {
  const end = clock.now() + limitMs;
  for (;;) {
    await settle();
    if (done()) return;
    const next = clock.nextDue();
    if (next === null || next > end) return;
    await clock.advance(next - clock.now());
  }
}
