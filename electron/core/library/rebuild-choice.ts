/**
 * Which sidecar a rebuild takes for each task (rebuild.ts): of the copies of one task a copied
 * folder left, the newest, then the one in its own folder. Only what the first pass keeps of each
 * sidecar is looked at; the record is read when its turn comes.
 */

/**
 * What the first pass keeps of each sidecar: enough to choose one per task. The record itself is
 * read again when its turn comes, so memory does not grow with the size of the folder.
 */
export interface Found {
  /** Root-relative path of the sidecar. */
  readonly relative: string;
  readonly localId: string;
  readonly updatedAt: number;
  /** The sidecar sits in the folder its record names. */
  readonly atHome: boolean;
}

/** Of two sidecars of one task (a copied folder), the newer one, then the one at its own folder. */
function compareCandidates(a: Found, b: Found): number {
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  if (a.atHome !== b.atHome) return a.atHome ? -1 : 1;
  return a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0;
}

/**
 * The sidecars of each task, best first (see {@link compareCandidates}), the tasks in the path
 * order of their best sidecar; `found` is in path order. The second pass uses the best one that
 * is valid in full. A task with one sidecar (nearly all) costs no group of its own: the order is
 * worked out on an index sorted by task, and only copies of a task get an array.
 */
export function groupByTask(found: readonly Found[]): Array<Found | Found[]> {
  const byTask = Uint32Array.from(found.keys()).sort((a, b) => {
    const x = found[a]?.localId ?? '';
    const y = found[b]?.localId ?? '';
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const copies = new Map<number, Found[]>();
  const notBest = new Uint8Array(found.length);
  for (let start = 0; start < byTask.length;) {
    const localId = found[byTask[start] ?? 0]?.localId;
    let end = start + 1;
    while (end < byTask.length && found[byTask[end] ?? 0]?.localId === localId) end += 1;
    if (end - start > 1) {
      const indexes = Array.from(byTask.subarray(start, end));
      indexes.sort((a, b) => compareCandidates(found[a] as Found, found[b] as Found));
      const [best = 0, ...rest] = indexes;
      for (const index of rest) notBest[index] = 1;
      copies.set(
        best,
        indexes.map((index) => found[index] as Found),
      );
    }
    start = end;
  }
  const tasks: Array<Found | Found[]> = [];
  found.forEach((candidate, index) => {
    if (notBest[index] === 0) tasks.push(copies.get(index) ?? candidate);
  });
  return tasks;
}
