/**
 * V8's collections on the main thread of the process that measures, by kind: how many and their
 * pause (ms), from `perf_hooks`' gc entries. In the download children it shows what the bodies
 * cost V8: with node:http's new 64 KB buffer per socket read nearly every collection was a full
 * one (started by the growth of the memory ArrayBuffers hold outside V8's heap); with the kept
 * read buffers of the strict reader, scavenges of the young generation.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';

export interface GcCount {
  readonly count: number;
  readonly ms: number;
}
export type GcKinds = Readonly<Record<'minor' | 'major' | 'incremental' | 'weak', GcCount>>;

const KIND_NAMES = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
} as const;

const empty = (): Record<keyof GcKinds, { count: number; ms: number }> => ({
  minor: { count: 0, ms: 0 },
  major: { count: 0, ms: 0 },
  incremental: { count: 0, ms: 0 },
  weak: { count: 0, ms: 0 },
});

/** Counts collections from now on; `take()` gives those since the last take (or the start). */
export function gcTally(): { take(): GcKinds; stop(): void } {
  let kinds = empty();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      const name = KIND_NAMES[kind as keyof typeof KIND_NAMES];
      if (!name) continue;
      kinds[name].count += 1;
      kinds[name].ms += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    take() {
      const taken = kinds;
      kinds = empty();
      return taken;
    },
    stop: () => observer.disconnect(),
  };
}

/** `major 107 (1582 ms), incremental 99 (574 ms), minor 6 (37 ms)` per `per` images. */
export function describeGc(kinds: GcKinds, per: number): string {
  return (['major', 'incremental', 'minor'] as const)
    .map((kind) => {
      const { count, ms } = kinds[kind];
      return `${kind} ${(count / per).toFixed(2)} (${(ms / per).toFixed(1)} ms)`;
    })
    .join(', ');
}
