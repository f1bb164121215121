/**
 * CPU time, page faults and resident memory of a process tree, from Linux's /proc: the bench
 * reads the image page's renderer (the renderer process whose threads include its decoding
 * workers) apart from the browser process and the rest (GPU, network, storage services, and any
 * other renderer, such as a WebUI one Electron does not have).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { faultsOfStat } from '../../support/fault-cost';

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ = 100 on every Linux the bench runs). */
const MS_PER_TICK = 10;

export type ChromiumRole = 'browser' | 'renderer' | 'other';

export interface ProcessSample {
  readonly pid: number;
  readonly role: ChromiumRole;
  /** User + system CPU time of all its threads, in ms. */
  readonly cpuMs: number;
  /** Page faults (minor and major) of all its threads so far. */
  readonly faults: number;
  readonly rssBytes: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

interface Stat {
  readonly ppid: number;
  readonly cpuMs: number;
  readonly faults: number;
}

/** From /proc/<pid>/stat (fields after the command name, which may hold spaces). */
function statOf(pid: number): Stat | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const faults = faultsOfStat(text);
  return {
    ppid: Number(fields[1]),
    cpuMs: ticks * MS_PER_TICK,
    faults: faults.minor + faults.major,
  };
}

/** Whether one of `pid`'s threads is a dedicated worker (Chromium names them so). */
function runsWorkers(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) =>
      (read(`/proc/${pid}/task/${tid}/comm`) ?? '').startsWith('DedicatedWorker'),
    );
  } catch {
    return false;
  }
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) * 1024 : 0;
}

function roleOf(pid: number, root: number): ChromiumRole {
  if (pid === root) return 'browser';
  // Chromium rewrites its children's titles into one space-separated line.
  const line = read(`/proc/${pid}/cmdline`) ?? '';
  const renderer = /(^|[\s\0])--type=renderer([\s\0]|$)/.test(line);
  return renderer && runsWorkers(pid) ? 'renderer' : 'other';
}

/** `root` and every process under it, each with its role, CPU time and RSS now. */
export function sampleTree(root: number): ProcessSample[] {
  const parents = new Map<number, number>();
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = statOf(pid);
    if (!stat) continue;
    parents.set(pid, stat.ppid);
    stats.set(pid, stat);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) return true;
    }
    return false;
  };
  return [...stats.keys()].filter(inTree).map((pid) => ({
    pid,
    role: roleOf(pid, root),
    cpuMs: stats.get(pid)?.cpuMs ?? 0,
    faults: stats.get(pid)?.faults ?? 0,
    rssBytes: rssOf(pid),
  }));
}

/**
 * The same processes as `samples` now, read from their own /proc files only (a process that has
 * ended drops out): cheap enough to call every few milliseconds from a measured process, where
 * walking all of /proc would be a cost of its own in the figures.
 */
export function resample(samples: readonly ProcessSample[]): ProcessSample[] {
  return samples.flatMap(({ pid, role }) => {
    const stat = statOf(pid);
    return stat
      ? [{ pid, role, cpuMs: stat.cpuMs, faults: stat.faults, rssBytes: rssOf(pid) }]
      : [];
  });
}

export interface RoleTotals {
  cpuMs: number;
  faults: number;
  rssBytes: number;
}

/** CPU ms, faults and RSS bytes summed by role. */
export function byRole(samples: readonly ProcessSample[]): Record<ChromiumRole, RoleTotals> {
  const totals = {
    browser: { cpuMs: 0, faults: 0, rssBytes: 0 },
    renderer: { cpuMs: 0, faults: 0, rssBytes: 0 },
    other: { cpuMs: 0, faults: 0, rssBytes: 0 },
  };
  for (const sample of samples) {
    totals[sample.role].cpuMs += sample.cpuMs;
    totals[sample.role].faults += sample.faults;
    totals[sample.role].rssBytes += sample.rssBytes;
  }
  return totals;
}
