/**
 * Waits a dialect holds until a task ends: Replicate's `Prefer: wait` on a prediction read, fal's
 * status stream. The demo checks the task every {@link HOLD_STEP_MS} (its tasks end by the clock,
 * not by an event), and never holds past the given time.
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
 * Holds while the task `find` finds is queued or running, at most `ms` of real time.
 * @returns the task as it is then; undefined when it is gone (or no longer the caller's).
 */
export async function holdWhileRunning(
  kit: DialectKit,
  find: () => StoredTask | undefined,
  ms: number,
): Promise<StoredTask | undefined> {
  await holdUntil(() => {
    const task = find();
    return !task || !RUNNING.has(kit.phase(task));
  }, ms);
  return find();
}

const RUNNING = new Set<DialectPhase>(['queued', 'running']);

/** Resolves when `ended()` says so, or after `ms` of real time, whichever is first. */
function holdUntil(ended: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const look = (): void => {
      if (ended() || Date.now() >= until) resolve();
      else setTimeout(look, Math.min(HOLD_STEP_MS, Math.max(1, until - Date.now())));
    };
    look();
  });
}
