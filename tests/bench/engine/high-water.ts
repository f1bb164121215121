/**
 * The kernel's peak-RSS counter of this process (Linux), for the memory rows' children: reset it
 * at the baseline, read it at the end. Elsewhere both say they cannot (false, null).
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Resets the kernel's peak-RSS counter (`5` to clear_refs); false where unsupported. */
export function resetHighWater(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** The peak RSS since the last reset, in bytes; null where unsupported. */
export function highWater(): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
