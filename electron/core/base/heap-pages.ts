/**
 * Gives the heap pages V8 keeps back to the system. V8 keeps the pages it frees in a pool of its
 * own, mapped and resident, for its next growth: after a burst of downloads has grown the young
 * generation to its most (128 MB without pointer compression), main held those pages for the
 * rest of the day, its heap back at 30 MB and its RSS 100–190 MB above its start (neither V8's
 * memory reducer nor an ordinary full GC empties the pool). Only the GC V8 runs under memory
 * pressure (its "last resort") releases it: that is the one called here, reached through a
 * context of its own made once (`gc` is exposed to that context only, never to the app's).
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

/** Collects everything V8 can and releases its pooled pages; how long it took, ms. */
export function releaseHeapPages(): number {
  const started = performance.now();
  collector()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return performance.now() - started;
}
