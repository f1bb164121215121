/**
 * The command line's test build only: `pictor import` held once PICTOR_TEST_IMPORT_HOLD tasks
 * are done, until Ctrl+C, so a test's interrupt always lands mid-import (a fast machine could
 * otherwise copy the last task before the signal came); or, with PICTOR_TEST_IMPORT_RELEASE
 * naming a file, until that file exists too, so a test can fill the disk while the import waits
 * (it could otherwise finish before the disk was full). library-commands.ts loads this module
 * only when `process.env.PICTOR_TEST_BUILD` is '1', which the build fixes as a literal
 * (build-electron.ts: '' in every build but a test build's), so what ships has neither the
 * module nor the variables' names; tests/support/node-entries.ts builds the tests' CLI as a test
 * build.
 */
import { existsSync } from 'node:fs';
import type { CliIo } from './cli-io';

/** How many tasks are done when the import holds (a whole number). */
export const IMPORT_HOLD_ENV = 'PICTOR_TEST_IMPORT_HOLD';

/** A file whose existence also ends the hold (the hold's variable set too). */
export const IMPORT_RELEASE_ENV = 'PICTOR_TEST_IMPORT_RELEASE';

/** What a held import says on stderr, with how many tasks are done. */
export const IMPORT_HELD = 'Import held until interrupted (test build), tasks done:';

/**
 * The import's `beforeTask` (import-library.ts) that holds it once the variable's number of
 * tasks is done, saying so once, until `io.interrupt` aborts or the release file exists;
 * undefined without the hold's variable.
 */
export function importHold(io: CliIo): ((done: number) => Promise<void>) | undefined {
  const raw = io.env[IMPORT_HOLD_ENV];
  const at = raw === undefined ? Number.NaN : Number(raw);
  if (!Number.isSafeInteger(at) || at < 0) return undefined;
  const release = io.env[IMPORT_RELEASE_ENV] || undefined;
  let held: Promise<void> | undefined;
  return async (done) => {
    if (done < at) return;
    if (held === undefined) {
      io.stderr(`${IMPORT_HELD} ${String(done)}\n`);
      held = untilReleased(io.interrupt, release);
    }
    await held;
  };
}

/**
 * Resolves once `signal` aborts or a file is at `release`, looked for every 10 ms. The timer
 * also keeps the process alive meanwhile: a signal's listener does not, and with nothing else
 * left to wait on Node would end the held run (exit 13, its top-level await unsettled).
 */
function untilReleased(signal: AbortSignal, release: string | undefined): Promise<void> {
  const released = () => signal.aborted || (release !== undefined && existsSync(release));
  return new Promise<void>((resolve) => {
    if (released()) return resolve();
    const done = () => {
      clearInterval(look);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const look = setInterval(() => {
      if (released()) done();
    }, 10);
    signal.addEventListener('abort', done, { once: true });
  });
}
