/**
 * The packaged app's refusal of debugger switches (app/os/debugger-switches.ts), run first thing
 * in main.ts: before `app.whenReady()`, and before Electron starts Chromium's DevTools server,
 * which it does only after the app's main script has run (PreMainMessageLoopRun). Refused, the
 * app says why on stderr and exits there, before any window, key or library is touched.
 *
 * Only a packaged app refuses: `electron .` from a checkout is a developer's, and the journeys'
 * Playwright drives it through these very switches. A build made for CI's installed-app smoke
 * (`PICTOR_TEST_BUILD=1 npm run dist`, never a release) keeps them, its binary's inspect fuse on
 * too, so Playwright can drive the packaged app; the flag is fixed in the bundle at build time
 * (build-electron.ts replaces `process.env.PICTOR_TEST_BUILD`), so no environment of a user's can
 * turn it on.
 */
import { writeSync } from 'node:fs';
import type { App } from 'electron';
import {
  REFUSED_SWITCH_EXIT,
  refusalLine,
  refusedDebuggerSwitches,
  refusedEnvironment,
} from '../app/os/debugger-switches';

/** Whether this bundle was built for CI's installed-app smoke (a constant in a packaged bundle). */
function isTestBuild(): boolean {
  return process.env.PICTOR_TEST_BUILD === '1';
}

/** What the guard needs of the process it runs in. */
export interface GuardedProcess {
  readonly argv: readonly string[];
  readonly platform: NodeJS.Platform;
  /** The process's environment (`SSLKEYLOGFILE`); none when left out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Writes the line now: an exit before the message loop runs would lose a queued write. */
  readonly writeError: (text: string) => void;
}

function writeStderr(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // No stderr (a Windows GUI start with no console): the exit code still says it.
  }
}

/**
 * Exits the packaged app (code {@link REFUSED_SWITCH_EXIT}) when it was started with a refused
 * switch (a debugger's, or one that hands the key over) or environment variable; returns whether
 * it did. `app.exit` before the app is ready ends the process at once.
 */
export function refuseDebuggerSwitches(
  app: Pick<App, 'isPackaged' | 'exit'>,
  testBuild: boolean = isTestBuild(),
  host: GuardedProcess = {
    argv: process.argv,
    platform: process.platform,
    env: process.env,
    writeError: writeStderr,
  },
): boolean {
  if (!app.isPackaged || testBuild) return false;
  // A packaged app's argv is [binary, …arguments].
  const switches = [
    ...refusedDebuggerSwitches(host.argv.slice(1), host.platform),
    ...refusedEnvironment(host.env ?? {}, host.platform),
  ];
  if (switches.length === 0) return false;
  host.writeError(`${refusalLine(switches)}\n`);
  app.exit(REFUSED_SWITCH_EXIT);
  return true;
}
