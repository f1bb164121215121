/**
 * Waits a dialect holds until a task ends: Replicate's `Prefer: wait` on a prediction read, fal's
 * status stream. The demo checks the task every {@link HOLD_STEP_MS} of real time (its tasks end by
 * the clock, not by an event), and never holds past the given time on the service's clock (the
 * real one when it runs on its own; a test's manual clock moves a hold to its end).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { StoredTask } from '../task-store';
import type { DialectKit, DialectPhase } from './dialect';

/** How often a held wait looks at its task. */
const HOLD_STEP_MS = 20;

/**
 * The seconds `Prefer: wait=<n>` asks to be held (Replicate: 1 to 60; `wait` alone is 60), or
 * undefined when the header asks for no wait or says it in a way Replicate does not take.
 */
export function preferWait(headers: IncomingHttpHeaders): number | undefined {
  const prefer = headers['prefer'];
  if (typeof prefer !== 'string') return undefined;
  for (const part of prefer.split(',')) {
    const match = /^\s*wait(?:\s*=\s*(\d{1,2}))?\s*$/i.exec(part);
    if (!match) continue;
    const seconds = match[1] === undefined ? 60 : Number(match[1]);
    return seconds >= 1 && seconds <= 60 ? seconds : undefined;
  }
  return undefined;
}

/**
 * Holds while the task `find` finds is queued or running, at most `ms` on the service's clock.
 * @returns the task as it is then; undefined when it is gone (or no longer the caller's).
 */
export async function holdWhileRunning(
  kit: DialectKit,
  find: () => StoredTask | undefined,
  ms: number,
): Promise<StoredTask | undefined> {
  const now = kit.ctx.options.now;
  const until = now() + ms;
  await holdUntil(() => {
    const task = find();
    return !task || !RUNNING.has(kit.phase(task)) || now() >= until;
  });
  return find();
}

const RUNNING = new Set<DialectPhase>(['queued', 'running']);

/** Resolves when `ended()` says so, looking every {@link HOLD_STEP_MS}. */
function holdUntil(ended: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = (): void => {
      if (ended()) resolve();
      else setTimeout(look, HOLD_STEP_MS);
    };
    look();
  });
}
