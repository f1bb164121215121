/**
 * Bounded retries of a command whose failure is known to be passing: macOS's `hdiutil` on hosted
 * runners fails now and then with "Resource busy" while Spotlight, the antivirus scan or the last
 * detach still holds the image (exit 16, or 1 with those words). electron-builder's own retry
 * around hdiutil never fires (dmg-builder's `hdiutilTransientExitCodes` holds numbers and is asked
 * with a string), and the dmgbuild it runs has none for `create`; so `npm run dist` runs
 * electron-builder again when, and only when, it failed on such an hdiutil error, and the install
 * step retries its own attach and detach. A failure of any other kind fails at once.
 */

/** One run of the command. */
export interface Attempt {
  /** The exit code; null when it could not start or was killed. */
  readonly code: number | null;
  /** Its stdout and stderr, as they came. */
  readonly output: string;
}

export interface RetryPolicy {
  /** At most this many runs in all. */
  readonly attempts: number;
  /** The wait before the 2nd, 3rd… run (the last entry repeats). */
  readonly delaysMs: readonly number[];
  /** Whether a failed run is worth another. */
  readonly transient: (attempt: Attempt) => boolean;
}

export interface RetryOutcome extends Attempt {
  /** How many runs it took. */
  readonly runs: number;
}

/** hdiutil's passing failures: busy, timed out, or not mounted yet (dmg-builder's list). */
const TRANSIENT_HDIUTIL_CODES = new Set([16, 35, 49153]);
const TRANSIENT_HDIUTIL_TEXT =
  /Resource busy|Resource temporarily unavailable|Operation timed out|error 16\b|\(16\)/i;

/** A failed hdiutil run that a second try usually gets through. */
export function isTransientHdiutil(attempt: Attempt): boolean {
  if (attempt.code === 0) return false;
  return (
    (attempt.code !== null && TRANSIENT_HDIUTIL_CODES.has(attempt.code)) ||
    TRANSIENT_HDIUTIL_TEXT.test(attempt.output)
  );
}

/** An electron-builder run that failed on a passing hdiutil error (its output names hdiutil). */
export function failedOnTransientHdiutil(attempt: Attempt): boolean {
  if (attempt.code === 0 || !/hdiutil/i.test(attempt.output)) return false;
  return TRANSIENT_HDIUTIL_TEXT.test(attempt.output);
}

/** hdiutil's policy: four runs, 5, 10 and 20 seconds apart. */
export const HDIUTIL_RETRIES: RetryPolicy = {
  attempts: 4,
  delaysMs: [5_000, 10_000, 20_000],
  transient: isTransientHdiutil,
};

/**
 * Runs `run` until it exits 0, fails in a way `policy` does not call passing, or has run
 * `policy.attempts` times; `say` is told of each retry.
 */
export async function retryTransient(
  run: (attempt: number) => Promise<Attempt>,
  policy: RetryPolicy,
  options: {
    readonly sleep: (ms: number) => Promise<void>;
    readonly say?: (line: string) => void;
  },
): Promise<RetryOutcome> {
  for (let runs = 1; ; runs++) {
    const attempt = await run(runs);
    if (attempt.code === 0 || runs >= policy.attempts || !policy.transient(attempt))
      return { ...attempt, runs };
    const delay = policy.delaysMs[Math.min(runs - 1, policy.delaysMs.length - 1)] ?? 0;
    options.say?.(
      `run ${runs} of ${policy.attempts} failed (exit ${String(attempt.code)}) on a passing error; again in ${delay / 1000} s`,
    );
    await options.sleep(delay);
  }
}
