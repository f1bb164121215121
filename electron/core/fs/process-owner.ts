/**
 * Which process of which machine owns something on disk (a task's lease, a temporary file), and
 * whether that process is gone. The app and any number of CLI commands share one library, so
 * nothing another live process owns may be taken over or removed.
 *
 * An owner is known by its machine's name and its pid, no more: a pid the system gave again to
 * another process since reads as alive, so such an owner's things wait for their ordinary end
 * (a lease's expiry, a temporary file's day), never longer. (A process's start time would tell
 * the two apart, but it is not readable the same way on every system; waiting is the only cost.)
 */
import { hostname } from 'node:os';
import { systemErrorCode } from '../errors';

/** This machine's name, as owners written by this machine carry it. */
export const THIS_HOST = hostname();

/** The largest pid any supported system gives (Linux's ceiling is 2^22, macOS's 99,998). */
const MAX_PID = 2 ** 31 - 1;

/**
 * What can be said of the process `pid` of machine `host`: `gone` (this machine says it does not
 * exist: `kill(pid, 0)` fails with ESRCH), `alive` (it exists, or it is this process, or another
 * user's: EPERM), or `unknown` (another machine's, or a pid that is not one: only its end tells).
 *
 * Only a whole number from 1 to {@link MAX_PID} is ever asked about: `kill(0, 0)` and negative
 * pids address process groups (`-1`: every process the user may signal), so a crafted owner
 * could otherwise have this process signal others; signal 0 sends nothing, but none is sent.
 */
export function processState(host: string, pid: number): 'gone' | 'alive' | 'unknown' {
  if (host !== THIS_HOST || !Number.isInteger(pid) || pid <= 0 || pid > MAX_PID) return 'unknown';
  if (pid === process.pid) return 'alive';
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (error) {
    return systemErrorCode(error) === 'ESRCH' ? 'gone' : 'alive';
  }
}

/** Whether the process `pid` of machine `host` is known not to exist ({@link processState}). */
export function processIsGone(host: string, pid: number): boolean {
  return processState(host, pid) === 'gone';
}

/** A pid as an owner's text gives it: decimal digits, no sign, no leading zero; else NaN. */
export function pidOf(text: string | undefined): number {
  return text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : Number.NaN;
}
