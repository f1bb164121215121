/**
 * The heavy operations the history worker runs on its own store (history-worker.ts): a triage
 * write over many images, the writes of an import or a rebuild, a removal of many tasks and its
 * Undo, the trash's writes of one task (user-writes.ts), the Costs screen's sums, the gallery's
 * reads of every image (library-reads.ts) and its walks of an order's positions
 * (position-prebuild.ts), its walks of task ids for those that carry a key (kept-key-ids.ts: the ledger's rows it
 * cleans itself), and
 * the warm-up it runs as the library opens. Each is the store's own
 * transaction; the same functions run on any store, so what the worker writes is what a
 * synchronous caller would.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { withTriageOf } from '../../../shared/domain/triage-edits';
import type { HistoryStore } from './history-store';
import type { HistoryOp, HistoryOps, TriageStepImage } from './history-worker-protocol';
import { type ImageEdit, partEdits, writeTriage } from './triage-writes';
import { imageFiles, reinstateTask, removeTask } from './user-writes';

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
  triage: (store, { parts, at }, hold) => {
    const { refs, edit } = partEdits(parts, at);
    return writeTriage(store, refs, { edit, at, hold });
  },
  restoreTriage: (store, { step, side, at }, hold) => {
    const images = JSON.parse(step) as TriageStepImage[];
    const edit: ImageEdit = (image, n) => {
      const target = images[n]?.[side];
      return target ? withTriageOf(image, target) : image;
    };
    return writeTriage(
      store,
      images.map((image) => image.ref),
      { edit, at, hold },
    );
  },
  putManyCounted: (store, { records, carried }) => store.putManyCounted(records, carried),
  putMany: (store, { records }) => {
    store.putMany(records);
    return records.length;
  },
  records: (store, { localIds }) => localIds.map((localId) => store.get(localId) ?? null),
  deleteMany: (store, { localIds }) => {
    const removed: TaskRecord[] = [];
    for (const localId of localIds) {
      const record = store.get(localId);
      if (record && store.delete(localId)) removed.push(record);
    }
    return removed;
  },
  removeTask,
  reinstateTask,
  imageFiles,
  warm: (store, { tasks }) => ({ tasks: store.warmTriage(tasks) }),
  costSums: (store, { pieces, from, to, provider }) => ({
    days: store.costs.daySums(pieces, provider),
    services: store.costs.serviceSums(from, to, provider),
  }),
  imageCount: (store, { query }) => store.countImages(query),
  imageModels: (store, { slice }) => store.imageModels(slice),
  taskCount: (store, { query }) => store.count(query),
  newerTaskCount: (store) => store.countNewerTasks(),
  taskSelection: (store, { query, limit }) => ({
    localIds: store.taskIds(query, limit),
    total: store.count(query),
  }),
  imageSelection: (store, { query, limit }) => ({
    images: store.imageKeys(query, limit),
    total: store.countImages(query),
  }),
  positionAnchors: (store, walk) => store.walkAnchors(walk),
  keptKeyIds: (store, { keys, walk, after, limit }) =>
    store.keptKeyIds.slice(keys, walk, after, limit),
  keptIdMark: (store, { since }) => store.keptKeyIds.mark(since),
};
