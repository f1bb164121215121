/**
 * How many of this process's open descriptors name something under a folder (Linux, through
 * /proc/self/fd; null elsewhere). A test that checks a code path leaves nothing open counts only
 * its own folder: the unit files run in worker threads of one process (vitest.config.ts), so the
 * process's whole count moves with whatever the other thread's file opens and closes meanwhile.
 */
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';

const DESCRIPTORS = '/proc/self/fd';

export function openDescriptorsUnder(folder: string): number | null {
  if (!existsSync(DESCRIPTORS)) return null;
  const inside = (target: string) => target === folder || target.startsWith(folder + sep);
  return readdirSync(DESCRIPTORS).filter((name) => {
    try {
      return inside(readlinkSync(`${DESCRIPTORS}/${name}`));
    } catch {
      // Closed between the listing and the look (the listing's own descriptor, for one).
      return false;
    }
  }).length;
}
