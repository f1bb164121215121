/**
 * The quit's clean-up, run in order under one overall time limit: a step that fails is logged and
 * the next one runs; a step that never ends (a history that does not close, an image renderer
 * that does not answer, a log file on a hung disk) cannot keep the app alive, because once the
 * limit has passed the quit goes ahead without it. Electron-free, on the Clock port, so a stuck
 * step is tested on a manual clock (tests/unit/host/quit-steps.test.ts).
 */
import { QUIT_WAIT_MS } from '../adapters/quit-hold';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';

/**
 * The quit's clean-up, every step together: the trash's own wait ({@link QUIT_WAIT_MS}) and room
 * for the runtime, the images and the log to close. Past it the app quits without them.
 */
export const QUIT_LIMIT_MS = QUIT_WAIT_MS + 15_000;

/** One part of the clean-up: its name is what the log says when it fails or runs over. */
export interface QuitStep {
  readonly name: string;
  run(): unknown;
}

/** How the clean-up ended: every step ran (`done`), or the limit passed first (`overrun`). */
export type QuitEnd = 'done' | 'overrun';

export interface QuitStepsOptions {
  readonly clock: Clock;
  /** The whole clean-up's limit, every step together. */
  readonly limitMs: number;
  readonly logger: Pick<Logger, 'error'>;
  /** Called once: the quit goes ahead (`done`), or must go ahead now (`overrun`). */
  readonly finish: (end: QuitEnd) => void;
}

/**
 * Runs `steps` one after the other, then `finish('done')`; if `limitMs` passes first, logs the
 * step it was in and calls `finish('overrun')` at once (what is left runs on, unwaited).
 */
export async function runQuitSteps(
  steps: readonly QuitStep[],
  options: QuitStepsOptions,
): Promise<QuitEnd> {
  let current = steps[0]?.name ?? 'none';
  let finished = false;
  const end = (how: QuitEnd): QuitEnd => {
    if (!finished) {
      finished = true;
      options.finish(how);
    }
    return how;
  };
  let timer: ReturnType<Clock['setTimeout']> | null = null;
  const overrun = new Promise<QuitEnd>((resolve) => {
    timer = options.clock.setTimeout(() => {
      options.logger.error('the quit’s clean-up ran over its time limit; quitting without it', {
        step: current,
        limitMs: options.limitMs,
      });
      resolve(end('overrun'));
    }, options.limitMs);
  });
  const all = (async (): Promise<QuitEnd> => {
    for (const step of steps) {
      if (finished) break;
      current = step.name;
      try {
        await step.run();
      } catch (error) {
        options.logger.error(`${step.name} failed`, { detail: String(error) });
      }
    }
    if (timer !== null) options.clock.clearTimeout(timer);
    return end('done');
  })();
  return Promise.race([all, overrun]);
}
