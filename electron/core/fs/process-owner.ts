/**
 * Which process of which machine owns something on disk (a task's lease, a temporary file), and
 * whether that process is gone. The app and any number of CLI commands share one library, so
 * nothing another live process owns may be taken over or removed.
 *
 * An owner is known by its machine's name and its pid, and where the system tells it (Linux's
 * /proc) by its process's start too: a pid the system gave again to another process since reads
 * as gone when the owner named its start ({@link processStart}: a library hold and a task's
 * lease do) and that start is not the live process's. Elsewhere, and for an owner that names no
 * start (one an older Pictor wrote), such a pid reads as alive, so its things wait for their
 * ordinary end (a lease's expiry, a temporary file's day), never longer. macOS and Windows tell a
 * process's start only through a native call (sysctl's KERN_PROC, GetProcessTimes) or a child
 * process (`ps`, PowerShell), too dear for a look made every second for each task waiting on a
 * lease (engine/elsewhere-timers.ts): there an owner is its pid alone.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { systemErrorCode } from '../errors';

/** This machine's name, as owners written by this machine carry it. */
export const THIS_HOST = hostname();

/** The largest pid any supported system gives (Linux's ceiling is 2^22, macOS's 99,998). */
const MAX_PID = 2 ** 31 - 1;

/** A start as {@link processStart} gives it. */
const START = /^[0-9]{1,20}$/;

/** What Linux's /proc/<pid>/stat tells of a process: its start, and whether it has ended. */
interface ProcStat {
  readonly start: string;
  /** A zombie (ended, its parent has not waited for it) or dead: it does nothing more. */
  readonly ended: boolean;
}

function procStat(pid: number): ProcStat | null {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0 || pid > MAX_PID) {
    return null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command's name (field 2, in parentheses) may hold spaces and ')': fields after its last.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    if (start === undefined || !START.test(start)) return null;
    return { start, ended: fields[0] === 'Z' || fields[0] === 'X' };
  } catch {
    return null;
  }
}

/**
 * When the live process `pid` of this machine started, as its kernel counts it: on Linux the 22nd
 * field of /proc/<pid>/stat (clock ticks since boot, in decimal), which stays the same for the
 * process's life and tells it from any later process given the same pid. `null` where it cannot be
 * read: another system, no such process, a /proc that hides it.
 */
export function processStart(pid: number): string | null {
  return procStat(pid)?.start ?? null;
}

/** This process's start ({@link processStart}), read once; `null` where the system tells none. */
let ownStartRead: string | null | undefined;
export function ownStart(): string | null {
  if (ownStartRead === undefined) ownStartRead = processStart(process.pid);
  return ownStartRead;
}

/**
 * What can be said of the process `pid` of machine `host`: `gone` (this machine says it does not
 * exist: `kill(pid, 0)` fails with ESRCH; or it has ended and waits for its parent to reap it; or
 * the owner named its `start` and the process that has the pid now started at another: the pid
 * was given again), `alive` (it exists, or it is this process, or another user's: EPERM), or
 * `unknown` (another machine's, or a pid that is not one: only its end tells).
 *
 * Only a whole number from 1 to {@link MAX_PID} is ever asked about: `kill(0, 0)` and negative
 * pids address process groups (`-1`: every process the user may signal), so a crafted owner
 * could otherwise have this process signal others; signal 0 sends nothing, but none is sent.
 */
export function processState(
  host: string,
  pid: number,
  start?: string,
): 'gone' | 'alive' | 'unknown' {
  if (host !== THIS_HOST || !Number.isInteger(pid) || pid <= 0 || pid > MAX_PID) return 'unknown';
  if (pid !== process.pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (systemErrorCode(error) === 'ESRCH') return 'gone';
    }
  }
  // An ended process its parent has not waited for (a zombie) keeps its pid and start: gone all
  // the same (its holds kept refusing every open of the library until its parent ended).
  const now = procStat(pid);
  if (now?.ended === true) return 'gone';
  if (start === undefined || !START.test(start)) return 'alive';
  return now !== null && now.start !== start ? 'gone' : 'alive';
}

/** Whether the process `pid` (started at `start`, if named) of `host` is known gone ({@link processState}). */
export function processIsGone(host: string, pid: number, start?: string): boolean {
  return processState(host, pid, start) === 'gone';
}

/** A pid as an owner's text gives it: decimal digits, no sign, no leading zero; else NaN. */
export function pidOf(text: string | undefined): number {
  return text !== undefined && /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The name of this process as a task's lease owner (task-leases.ts), `unique` telling apart the
 * owners one process may be: `host:pid:s<start>.<unique>`, or `host:pid:<unique>` where the system
 * tells no start ({@link ownStart}). The host and the pid stay where every Pictor reads them (the
 * host may hold colons: the pid is the next-to-last part), so an older Pictor still judges this
 * name by its pid, and {@link ownerNameState} judges an older one's so.
 */
export function ownerName(unique: string): string {
  const start = ownStart();
  return `${THIS_HOST}:${process.pid}:${start === null ? '' : `s${start}.`}${unique}`;
}

/** The start an {@link ownerName}'s last part names. */
const NAMED_START = /^s([0-9]{1,20})\./;

/**
 * Longer than any {@link ownerName}: a host's name (255 characters at most anywhere), a pid, a
 * start and a UUID.
 */
const LONGEST_OWNER_NAME = 1_024;

/**
 * What is known of the process an {@link ownerName} names ({@link processState}). The name is
 * another process's text, read from the history: a pid that is not plain decimal digits is no
 * pid, and a name without host, pid and a last part, or longer than any Pictor writes, is no
 * owner this machine can ask about. Such a name is looked at every few moments for each task
 * waiting on its lease (engine/elsewhere-timers.ts): split whole, one of 16 MB of colons cost
 * 240 ms and 270 MB each time.
 */
export function ownerNameState(name: string): 'gone' | 'alive' | 'unknown' {
  if (name.length > LONGEST_OWNER_NAME) return 'unknown';
  const parts = name.split(':');
  if (parts.length < 3) return 'unknown';
  const start = NAMED_START.exec(parts.at(-1) ?? '')?.[1];
  return processState(parts.slice(0, -2).join(':'), pidOf(parts.at(-2)), start);
}
