/**
 * CPU time and resident memory of a process tree, from Linux's /proc: the bench reads Chromium's
 * renderer processes (where the image page and its workers run) apart from the browser process
 * and the rest (GPU, network, storage services).
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ = 100 on every Linux the bench runs). */
const MS_PER_TICK = 10;

export type ChromiumRole = 'browser' | 'renderer' | 'other';

export interface ProcessSample {
  readonly pid: number;
  readonly role: ChromiumRole;
  /** User + system CPU time of all its threads, in ms. */
  readonly cpuMs: number;
  readonly rssBytes: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** `[ppid, cpuMs]` from /proc/<pid>/stat (fields after the command name, which may hold spaces). */
function statOf(pid: number): [number, number] | null {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return [Number(fields[1]), ticks * MS_PER_TICK];
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) * 1024 : 0;
}

function roleOf(pid: number, root: number): ChromiumRole {
  if (pid === root) return 'browser';
  // Chromium rewrites its children's titles into one space-separated line.
  const line = read(`/proc/${pid}/cmdline`) ?? '';
  return /(^|[\s\0])--type=renderer([\s\0]|$)/.test(line) ? 'renderer' : 'other';
}

/** `root` and every process under it, each with its role, CPU time and RSS now. */
export function sampleTree(root: number): ProcessSample[] {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = statOf(pid);
    if (!stat) continue;
    parents.set(pid, stat[0]);
    cpu.set(pid, stat[1]);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) return true;
    }
    return false;
  };
  return [...cpu.keys()].filter(inTree).map((pid) => ({
    pid,
    role: roleOf(pid, root),
    cpuMs: cpu.get(pid) ?? 0,
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
    return stat ? [{ pid, role, cpuMs: stat[1], rssBytes: rssOf(pid) }] : [];
  });
}

/** CPU ms and RSS bytes summed by role. */
export function byRole(
  samples: readonly ProcessSample[],
): Record<ChromiumRole, { cpuMs: number; rssBytes: number }> {
  const totals = {
    browser: { cpuMs: 0, rssBytes: 0 },
    renderer: { cpuMs: 0, rssBytes: 0 },
    other: { cpuMs: 0, rssBytes: 0 },
  };
  for (const sample of samples) {
    totals[sample.role].cpuMs += sample.cpuMs;
    totals[sample.role].rssBytes += sample.rssBytes;
  }
  return totals;
}
