/**
 * Which process of which machine owns something on disk (a task's lease, a temporary file), and
 * whether that process is gone. The app and any number of CLI commands share one library, so
 * nothing another live process owns may be taken over or removed.
 */
import { hostname } from 'node:os';
import { systemErrorCode } from '../errors';

/** This machine's name, as owners written by this machine carry it. */
export const THIS_HOST = hostname();

/**
 * Whether the process `pid` of machine `host` no longer exists: only a process of this machine
 * can be asked (`kill(pid, 0)` says ESRCH), and this process is never gone. A pid another user's
 * process holds (EPERM) or one reused since is alive: waiting longer is the only cost.
 */
export function processIsGone(host: string, pid: number): boolean {
  if (host !== THIS_HOST || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return systemErrorCode(error) === 'ESRCH';
  }
}
