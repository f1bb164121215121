/**
 * The command line's test build only: `pictor import` held once PICTOR_TEST_IMPORT_HOLD tasks
 * are done, until Ctrl+C, so a test's interrupt always lands mid-import (a fast machine could
 * otherwise copy the last task before the signal came). library-commands.ts loads this module
 * only when `process.env.PICTOR_TEST_BUILD` is '1', which the build fixes as a literal
 * (build-electron.ts: '' in every build but a test build's), so what ships has neither the
 * module nor the variable's name; tests/support/node-entries.ts builds the tests' CLI as a test
 * build.
 */
import type { CliIo } from './cli-io';

/** How many tasks are done when the import holds (a whole number). */
export const IMPORT_HOLD_ENV = 'PICTOR_TEST_IMPORT_HOLD';

/** What a held import says on stderr, with how many tasks are done. */
export const IMPORT_HELD = 'Import held until interrupted (test build), tasks done:';

/**
 * The import's `beforeTask` (import-library.ts) that holds it once the variable's number of
 * tasks is done, saying so once, until `io.interrupt` aborts; undefined without the variable.
 */
export function importHold(io: CliIo): ((done: number) => Promise<void>) | undefined {
  const raw = io.env[IMPORT_HOLD_ENV];
  const at = raw === undefined ? Number.NaN : Number(raw);
  if (!Number.isSafeInteger(at) || at < 0) return undefined;
  let held: Promise<void> | undefined;
  return async (done) => {
    if (done < at) return;
    if (held === undefined) {
      io.stderr(`${IMPORT_HELD} ${String(done)}\n`);
      held = untilAborted(io.interrupt);
    }
    await held;
  };
}

/**
 * Resolves once `signal` aborts. A timer keeps the process alive meanwhile: a signal's listener
 * does not, and with nothing else left to wait on Node would end the held run (exit 13, its
 * top-level await unsettled).
 */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const alive = setInterval(() => undefined, 60_000);
    signal.addEventListener(
      'abort',
      () => {
        clearInterval(alive);
        resolve();
      },
      { once: true },
    );
  });
}
