/**
 * The order vitest hands the run's files to its two workers (vitest.config.ts's
 * `sequence.sequencer`). Vitest's own order runs the projects one after the other (by name), so the
 * packaging files ran together, both workers on them: two electron-builder packs at once in their
 * `beforeAll`s (shared-packs.ts), a file waiting for a pack another file claimed, then the packed
 * app's boots and the update feed's packs, all waiting on child processes and the disk. On a quiet
 * 2-core machine both cores were 33–87 % idle for the half minute that took (`vmstat 5` beside a
 * fresh-clone run).
 *
 * Here the packaging files are spread through the hardening files instead, one packaging file
 * every few hardening files and the first at the front: while one worker packs or waits on a
 * packed app, the other runs the crash, lease and fault suites, which keep a core busy. The first
 * packaging file (the longest, so vitest puts it first) packs every group, and the others, a few
 * hardening files later, find the packs made. The packaging files run each in a fresh child
 * process; the `hardening` files share theirs (vitest.config.ts), and vitest ends a shared process
 * when the next file in its queue is another project's: each packaging file costs the worker that
 * meets it one fresh hardening process after it (about 11 in the run, where each of the 144
 * shared files once had its own), which the crash and lease suites beside the packs are worth.
 * The other projects that share their processes keep their files together as before.
 *
 * No order by duration beyond vitest's (tests/durations-baseline.json is only the CI log's
 * yardstick): its pool keeps one queue for the run and hands a worker the next file as it frees,
 * and the last projects' files are short (session 38's last CI run: its last 80 files took 14.4 s
 * together, none over 2.1 s), so the two workers already end within about 2 s of each other.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The project whose files wait on packs and child processes, and the one they run beside. */
const SPREAD = 'packaging';
const AMONG = 'hardening';

/**
 * `items` with those `spread` picks moved among those `among` picks, evenly: the first before the
 * first of `among`, then one every `among.length / spread.length` of them; both keep their order.
 * Unchanged when either is empty.
 */
export function spreadAmong<T>(
  items: readonly T[],
  spread: (item: T) => boolean,
  among: (item: T) => boolean,
): T[] {
  const moved = items.filter(spread);
  const rest = items.filter((item) => !spread(item));
  const hosts = rest.filter(among);
  if (moved.length === 0 || hosts.length === 0) return [...items];
  const before = new Map<T, T[]>();
  moved.forEach((item, n) => {
    const host = hosts[Math.floor((n * hosts.length) / moved.length)]!;
    before.set(host, [...(before.get(host) ?? []), item]);
  });
  return rest.flatMap((item) => [...(before.get(item) ?? []), item]);
}

/** Vitest's order (projects by name, longest or largest file first), packaging spread as above. */
export class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return spreadAmong(
      await super.sort(files),
      (file) => file.project.name === SPREAD,
      (file) => file.project.name === AMONG,
    );
  }
}
