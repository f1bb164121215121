/**
 * The heavy operations the history worker runs on its own store (history-worker.ts): a triage
 * write over many images, the writes of an import or a rebuild, a removal of many tasks and its
 * Undo, and the Costs screen's sums. Each is the store's own transaction; the same functions run
 * on any store, so what the worker writes is what a synchronous caller would.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { withFlag, withRating, withTriageOf } from '../../../shared/domain/triage-edits';
import type { HistoryStore } from './history-store';
import type {
  HistoryOp,
  HistoryOps,
  ImageAt,
  ImageTriage,
  TriageEdit,
  TriageStepImage,
  TriageWritten,
} from './history-worker-protocol';

type ImageEdit = (image: ImageRecord, n: number) => ImageRecord;

/** Runs `op` on `store`; `hold` runs inside a write's transaction (tests hold the worker there). */
export function runHistoryOp<K extends HistoryOp>(
  store: HistoryStore,
  op: K,
  args: HistoryOps[K]['args'],
  hold?: () => void,
): HistoryOps[K]['result'] {
  const run = OPS[op] as (
    store: HistoryStore,
    args: HistoryOps[K]['args'],
    hold?: () => void,
  ) => HistoryOps[K]['result'];
  return run(store, args, hold);
}

type Ops = {
  [K in HistoryOp]: (
    store: HistoryStore,
    args: HistoryOps[K]['args'],
    hold?: () => void,
  ) => HistoryOps[K]['result'];
};

const OPS: Ops = {
  triage: (store, { refs, edit, at }, hold) =>
    writeTriage(store, refs, { edit: imageEdit(edit, at), at, hold }),
  restoreTriage: (store, { step, side, at }, hold) => {
    const images = JSON.parse(step) as TriageStepImage[];
    const edit: ImageEdit = (image, n) => {
      const target = images[n]?.[side];
      return target ? withTriageOf(image, target as ImageRecord) : image;
    };
    return writeTriage(
      store,
      images.map((image) => image.ref),
      { edit, at, hold },
    );
  },
  putManyCounted: (store, { records }) => store.putManyCounted(records),
  putMany: (store, { records }) => {
    store.putMany(records);
    return records.length;
  },
  deleteMany: (store, { localIds }) => {
    const removed: TaskRecord[] = [];
    for (const localId of localIds) {
      const record = store.get(localId);
      if (record && store.delete(localId)) removed.push(record);
    }
    return removed;
  },
  costSums: (store, { pieces, from, to, provider }) => ({
    days: store.costs.daySums(pieces, provider),
    services: store.costs.serviceSums(from, to, provider),
  }),
};

function imageEdit(edit: TriageEdit, at: number): ImageEdit {
  switch (edit.kind) {
    case 'rating':
      return (image) => withRating(image, edit.rating, at);
    case 'flag':
      return (image) => withFlag(image, edit.flag, at);
  }
}

/** The triage fields of an image (what Undo needs), nothing else of it. */
function triageOf(image: ImageRecord): ImageTriage {
  const { favourite, rating, flag, tags, boards, triagedAt } = image;
  return { favourite, rating, flag, tags, boards, triagedAt };
}

/** Edits the named images in one transaction (`n`: the ref's place in `refs`). */
function writeTriage(
  store: HistoryStore,
  refs: readonly ImageAt[],
  { edit, at, hold }: { edit: ImageEdit; at: number; hold?: (() => void) | undefined },
): TriageWritten {
  const byTask = new Map<string, Map<number, number>>();
  refs.forEach((ref, n) => {
    const places = byTask.get(ref.localId) ?? new Map<number, number>();
    if (!places.has(ref.index)) places.set(ref.index, n);
    byTask.set(ref.localId, places);
  });
  const seen = new Set<string>();
  const step: TriageStepImage[] = [];
  const missing: ImageAt[] = [];
  let unchanged = 0;
  const written = store.editMany(byTask.keys(), (record) => {
    seen.add(record.localId);
    // Half-way through the transaction, the earlier tasks written in it (a test holds here).
    if (seen.size === Math.ceil(byTask.size / 2)) hold?.();
    const images = [...record.images];
    for (const [index, n] of byTask.get(record.localId) ?? []) {
      const image = images[index];
      const ref = { localId: record.localId, index };
      if (!image || image.state === 'deleted') missing.push(ref);
      else {
        const next = edit(image, n);
        if (next === image) unchanged += 1;
        else {
          images[index] = next;
          step.push({ ref, before: triageOf(image), after: triageOf(next) });
        }
      }
    }
    return images.every((image, n) => image === record.images[n])
      ? null
      : { ...record, images, favourite: images.some((image) => image.favourite), updatedAt: at };
  });
  for (const [localId, places] of byTask) {
    if (!seen.has(localId)) for (const index of places.keys()) missing.push({ localId, index });
  }
  const localIds = written.map((record) => record.localId);
  return { changed: step.length, unchanged, missing, step: JSON.stringify(step), localIds };
}
