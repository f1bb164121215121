/**
 * Gives the heap pages V8 keeps back to the system. V8 keeps the pages it frees in a pool of its
 * own, mapped and resident, for its next growth: after a burst of downloads has grown the young
 * generation to its most (128 MB without pointer compression), main held those pages for the
 * rest of the day, its heap back at 30 MB and its RSS 100–190 MB above its start (neither V8's
 * memory reducer nor an ordinary full GC empties the pool). Only the GC V8 runs under memory
 * pressure (its "last resort") releases it: that is the one called here, reached through a
 * context of its own made once (`gc` is exposed to that context only, never to the app's).
 * And it keeps V8's young generation from growing past a cap ({@link capYoungGeneration}).
 */

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collect: Collect | null = null;

function collector(): Collect {
  if (collect) return collect;
  // Loaded at the first release, not with this module: a CLI command never releases pages.
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  const { runInNewContext } = process.getBuiltinModule('node:vm');
  // Started with --expose-gc (a bench's process): the flag stays as it was.
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  if (!exposed) setFlagsFromString('--expose-gc');
  try {
    collect = runInNewContext('gc') as Collect;
  } finally {
    // Contexts made from now on (none of the app's) get no `gc`.
    if (!exposed) setFlagsFromString('--no-expose-gc');
  }
  return collect;
}

/**
 * The most V8's young generation (its `new_space`: both semi-spaces) may grow to, bytes. V8
 * doubles it whenever the bytes that survived scavenges since its last growth exceed its size,
 * whatever a burst holds, so over a day of download bursts it grew 16 → 128 MB and each burst's
 * peak RSS rose with it (the bench's "Main memory over a day"). Held at 16 MB a burst scavenges
 * three to six times as often (0.31 scavenges per image against 0.05–0.10), the day's last bursts
 * peak about 80 MB lower, and main's CPU per image moved within the bench's noise.
 */
export const YOUNG_GENERATION_CAP = 16 * 1024 * 1024;

/** The growth factor set last (V8's default is 2). */
let growthFactor = 2;

function setGrowthFactor(factor: number): void {
  if (factor === growthFactor) return;
  process.getBuiltinModule('node:v8').setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  growthFactor = factor;
}

/**
 * V8's page, bytes (`kPageSizeBits` 18 in V8's src/base/build_config.h, on x64 and arm64): its
 * spaces grow and shrink by whole pages.
 */
const V8_PAGE = 256 * 1024;

/**
 * V8's young generation's capacity now, bytes: both semi-spaces at the size V8 last resized them
 * to, from one semi-space's allocatable bytes (`space_used_size + space_available_size`, a few
 * bytes a page short of its pages) rounded up to whole pages. Not its committed memory
 * (`space_size`), which counts the other semi-space only while V8 keeps it committed: V8 drops it
 * when it shrinks the young generation and at a process's start, and commits it again at the next
 * collection. Read as the size, that half let doublings through at the cap (to 32 MB from 16, to
 * 24 from 12). Nor does it count the pages V8 adds to a full semi-space while a major GC marks
 * incrementally (`ShouldExpandYoungGenerationOnSlowAllocation`) and frees when that GC ends; the
 * one in use for allocation does (V8's `Capacity()` takes its current pages if more), which errs
 * towards the cap.
 */
export function youngGenerationSize(): number {
  const spaces = process.getBuiltinModule('node:v8').getHeapSpaceStatistics();
  const young = spaces.find((space) => space.space_name === 'new_space');
  if (!young) return 0;
  const pages = Math.ceil((young.space_used_size + young.space_available_size) / V8_PAGE);
  return 2 * pages * V8_PAGE;
}

/**
 * 1 once a doubling of the young generation would pass the cap, 2 (V8's) while it would not. Not
 * "once it is at the cap": V8 shrinks it after idle spells to sizes that are not powers of two
 * (9.1 MB seen), and one of those doubled to 18.3 MB past a 16 MB cap.
 */
function checkYoungGeneration(): void {
  setGrowthFactor(youngGenerationSize() * 2 > YOUNG_GENERATION_CAP ? 1 : 2);
}

/**
 * Lets the young generation grow up to {@link YOUNG_GENERATION_CAP} and no further, until the
 * returned function is called. V8's largest young generation is fixed at its start, but its
 * growth factor is read at each resize (`SemiSpaceNewSpace::Grow`): 1 once a doubling would
 * pass the cap, 2 (V8's) below that, so it still grows back after V8 shrank it (an idle spell, the release below).
 * Checked now and after each of V8's collections (perf_hooks' gc entries, delivered a turn or two
 * later): V8 resizes it only in a collection, and a doubling needs more bytes to have survived its
 * collections since the last than a semi-space holds, so it passes the cap only if more than half
 * the cap (8 MB) survives between a doubling to the cap and the check after it: a synchronous
 * stretch of JS that keeps that much alive could, a turn or two of downloads does not. Its
 * size is read as its capacity ({@link youngGenerationSize}), not as the memory it has committed.
 */
export function capYoungGeneration(): () => void {
  checkYoungGeneration();
  const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
  const observer = new PerformanceObserver(checkYoungGeneration);
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    setGrowthFactor(2);
  };
}

/** Collects everything V8 can and releases its pooled pages; how long it took, ms. */
export function releaseHeapPages(): number {
  const started = performance.now();
  collector()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}
