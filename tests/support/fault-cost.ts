/**
 * What a page fault costs on this machine, and the image rows' judgements that take it out.
 *
 * A process that touches a page of memory for the first time takes a fault: the kernel finds a
 * page, zeroes it and maps it. What that costs varies between machines far more than decoding
 * does (about 1.4 µs here, 18 µs on a machine where the page measured 210 ms per image), so a row
 * that compares raw CPU times judges the machine. The probe measures the cost in the same run: it
 * touches N fresh pages once (each a fault) and again (none), and the difference per fault is the
 * fault's own cost. The rows then judge the work the code controls: CPU less faults × cost, and
 * how many faults it takes, against what the bytes it must hold need.
 *
 * Linux only (/proc/self/stat); the benches that use it run on Linux.
 */
import { readFileSync } from 'node:fs';
import { median } from './median';

/** Linux's page size on every machine the bench runs (x86-64, arm64 with 4 KiB pages). */
export const PAGE_BYTES = 4096;

/** Minor and major faults of a process so far, from the fields of /proc/<pid>/stat. */
export interface Faults {
  readonly minor: number;
  readonly major: number;
}

/**
 * The faults in a /proc/<pid>/stat line: minflt and majflt are the 10th and 12th fields, counted
 * after the command name, which is in parentheses and may hold spaces and parentheses itself.
 */
export function faultsOfStat(stat: string): Faults {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt …
  return { minor: Number(fields[7]), major: Number(fields[9]) };
}

/** All faults (minor and major) of `pid` so far; `null` once it has ended. */
export function faultsOf(pid: number | 'self'): number | null {
  try {
    const faults = faultsOfStat(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
    return faults.minor + faults.major;
  } catch {
    return null;
  }
}

/** One probe round: `faults` taken touching fresh pages, and the CPU ms of both passes. */
export interface ProbeRound {
  readonly pages: number;
  readonly faults: number;
  /** CPU ms of the first pass (each page faults in) and of the second (each is there). */
  readonly firstTouchMs: number;
  readonly retouchMs: number;
}

/** The cost of one fault in a round, in ms: what the first pass took beyond the second. */
export function faultCostOf(round: ProbeRound): number {
  if (round.faults <= 0) return 0;
  return Math.max(0, round.firstTouchMs - round.retouchMs) / round.faults;
}

/** The probe's answer: the median cost of a fault over its rounds, in ms, and the rounds. */
export interface FaultCost {
  readonly msPerFault: number;
  readonly rounds: readonly ProbeRound[];
}

/** The median cost over `rounds`. */
export function faultCostOfRounds(rounds: readonly ProbeRound[]): FaultCost {
  return { msPerFault: median(rounds.map(faultCostOf)), rounds };
}

/** This thread's CPU time in ms (the probe's own work, not the process's other threads). */
function threadCpuMs(): number {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Touches one byte of each page of `bytes`, and returns the CPU ms it took. */
function touch(bytes: Uint8Array, pass: number): number {
  const start = threadCpuMs();
  for (let at = 0; at < bytes.length; at += PAGE_BYTES) bytes[at] = pass;
  return threadCpuMs() - start;
}

/**
 * The least a probe round allocates: past glibc's largest mmap threshold (32 MiB on 64-bit), so
 * the buffer is always a fresh mapping. A smaller one may come from memory the process freed
 * earlier, already mapped, and take no fault at all (a test thread's process showed 0).
 */
const MIN_ROUND_BYTES = 48 * 1024 * 1024;

/**
 * The least share of its pages a round's first pass must fault on to count. The probe's premise is
 * that each page of a fresh mapping faults once, but the kernel need not give it 4 KiB pages: in a
 * fresh-clone run beside two busy loops a round of 12,288 pages took 12 faults (a mapping backed by
 * huge pages, or memory the allocator had already filled), which made each "fault" cost a page's
 * whole run of first touches. Such a round measures something else and is taken again.
 */
export const FRESH_SHARE = 0.9;

/** Allocates `pages` fresh pages and touches them twice: one probe round. */
export function probeRound(pages: number): ProbeRound {
  const bytes = new Uint8Array(new ArrayBuffer(pages * PAGE_BYTES));
  const before = faultsOf('self') ?? 0;
  const firstTouchMs = touch(bytes, 1);
  const faults = (faultsOf('self') ?? 0) - before;
  const retouchMs = touch(bytes, 2);
  return { pages, faults, firstTouchMs, retouchMs };
}

/** The probe's answer with the rounds it took again because they were not faulted page by page. */
export interface ProbedFaultCost extends FaultCost {
  readonly retaken: number;
}

/**
 * Measures a fault's cost here: `rounds` times, `pages` fresh pages (an ArrayBuffer that large is
 * mapped, not filled, until it is touched) touched twice. 64 MiB a round by default, at least
 * {@link MIN_ROUND_BYTES}: long enough to time, small enough for any machine the bench runs on.
 * A round that faulted on fewer than {@link FRESH_SHARE} of its pages is taken again, up to
 * `rounds` × 4 rounds in all; a machine that never faults page by page gets a clear error instead
 * of a cost per fault that is not one. `take` is the round itself (a test gives its own).
 */
export function probeFaultCost(
  pages = 16_384,
  rounds = 5,
  take: (pages: number) => ProbeRound = probeRound,
): ProbedFaultCost {
  const size = Math.max(pages, Math.ceil(MIN_ROUND_BYTES / PAGE_BYTES));
  const measured: ProbeRound[] = [];
  let retaken = 0;
  while (measured.length < rounds && measured.length + retaken < rounds * 4) {
    const round = take(size);
    if (round.faults >= round.pages * FRESH_SHARE) measured.push(round);
    else retaken += 1;
  }
  if (measured.length < rounds) {
    throw new Error(
      `The fault probe took ${String(retaken)} of ${String(measured.length + retaken)} rounds ` +
        `with fewer faults than ${String(FRESH_SHARE * 100)} % of their pages (huge pages, or ` +
        'memory already filled): a fault’s cost cannot be measured on this machine.',
    );
  }
  return { ...faultCostOfRounds(measured), retaken };
}

/** CPU and faults per image of one side of a row. */
export interface SideCost {
  readonly cpuMs: number;
  readonly faults: number;
}

/**
 * The work ratio: (page CPU − page faults × cost) ÷ (sharp CPU − sharp faults × cost), per image;
 * what each side computes, with what the machine charges for fresh memory taken out of both.
 */
export function workRatio(page: SideCost, sharp: SideCost, msPerFault: number): number {
  const pageWork = page.cpuMs - page.faults * msPerFault;
  const sharpWork = sharp.cpuMs - sharp.faults * msPerFault;
  return sharpWork > 0 ? pageWork / sharpWork : Number.POSITIVE_INFINITY;
}

/**
 * The most faults the page's renderer may take per image: what it must hold once, the encoded
 * file and the decoded pixels (4 bytes each), in pages, plus 300 for the rest (the thumbnail,
 * the worker's own), and 5 % over that.
 */
export function rendererFaultLimit(encodedBytes: number, width: number, height: number): number {
  return 1.05 * ((encodedBytes + 4 * width * height) / PAGE_BYTES + 300);
}

/** The most faults per image the browser process (in Electron, main's) may take. */
export const BROWSER_FAULT_LIMIT = 100;
/** The most the browser process (main's) may grow over a run, in MB. */
export const BROWSER_GROWTH_LIMIT_MB = 10;
/** The most the work ratio may be. */
export const WORK_RATIO_LIMIT = 1.15;
