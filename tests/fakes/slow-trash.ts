/**
 * Main's trash as a large batch meets it on a real disk, on a manual clock: a delete of images
 * (a removal of tasks) moves `step` items every `step × msPerItem` (70 of 300 after a second by
 * default), says how far it is (`trash:progress`) and tells the page of each record as it changes
 * (`tasks:updated`) and of the gallery once an operation ends (`gallery:changed`),
 * one operation at a time in the order asked. An Undo of any item of a delete
 * still under way or waiting stops it, which brings back what it had moved before the Undo takes
 * its turn, and counts each item that delete named and left in place as back: what
 * core/trash/trash-operations.ts does, over the fake API's own records.
 */
import type { RequestInput, RequestOutput, TaskItem } from '../../shared/ipc/contract';
import type { FakePictorApi } from './fake-pictor-api';
import type { ManualClock } from './manual-clock';

interface Asked {
  readonly items: 'images' | 'tasks';
  readonly keys: ReadonlySet<string>;
  stopped: boolean;
}

type Outcome = RequestOutput<'gallery:undoDelete'>;
type Ref = RequestInput<'gallery:deleteImage'>;

const keyOf = (ref: Ref): string => `${ref.localId}/${String(ref.index)}`;

/** The records of a batch, one per task (the latest wins), as main's outcome lists them. */
class Records {
  private readonly byId = new Map<string, TaskItem>();
  add(items: readonly TaskItem[]): void {
    for (const item of items) this.byId.set(item.record.localId, item);
  }
  get all(): TaskItem[] {
    return [...this.byId.values()];
  }
}

export class SlowTrash {
  private readonly asked = new Set<Asked>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Operations asked and not ended. */
  running = 0;

  constructor(
    private readonly fake: FakePictorApi,
    private readonly clock: ManualClock,
    private readonly msPerItem = 14,
    private readonly step = 10,
  ) {
    fake.handle('gallery:deleteImages', ({ images }) => this.deleteImages(images));
    fake.handle('gallery:undoDelete', ({ images }) => this.restoreImages(images));
    fake.handle('tasks:removeMany', ({ localIds }) => this.removeTasks(localIds));
    fake.handle('tasks:undoRemove', ({ localIds }) => this.restoreTasks(localIds));
  }

  /** Before the item at `at` of an operation: each `step` items take their time at once. */
  private tick(at: number): Promise<void> {
    if (at % this.step !== 0) return Promise.resolve();
    return new Promise((resolve) => this.clock.setTimeout(resolve, this.msPerItem * this.step));
  }

  /**
   * Runs one of the fake's own handlers with its `gallery:changed` held back: main says that once,
   * when the operation ends ({@link changed}), not for every image.
   */
  private quietly<T>(work: () => T): T {
    const emit = this.fake.emit;
    this.fake.emit = ((channel, payload) => {
      if (channel !== 'gallery:changed') emit.call(this.fake, channel, payload);
    }) as FakePictorApi['emit'];
    try {
      return work();
    } finally {
      this.fake.emit = emit;
    }
  }

  private changed(reason: 'deleted' | 'restored'): void {
    this.fake.emit('gallery:changed', { reason });
  }

  /** Runs `work` after every operation asked before it. */
  private turn<T>(work: () => Promise<T>): Promise<T> {
    this.running += 1;
    const next = this.queue.then(work).finally(() => {
      this.running -= 1;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stops the deletes under way or waiting that name any of `keys`; every key they named. */
  private stop(items: Asked['items'], keys: readonly string[]): Set<string> {
    const named = new Set<string>();
    for (const asked of this.asked) {
      if (asked.items !== items || !keys.some((key) => asked.keys.has(key))) continue;
      asked.stopped = true;
      for (const key of asked.keys) named.add(key);
    }
    return named;
  }

  private progress(
    items: Asked['items'],
    operation: 'delete' | 'restore',
    done: number,
    total: number,
  ) {
    this.fake.emit('trash:progress', { operation, items, done, total });
  }

  private deleteImages(images: readonly Ref[]): Promise<Outcome> {
    const asked: Asked = { items: 'images', keys: new Set(images.map(keyOf)), stopped: false };
    this.asked.add(asked);
    return this.turn(async () => {
      const records = new Records();
      const moved: Ref[] = [];
      let failed = 0;
      for (const [at, ref] of images.entries()) {
        await this.tick(at);
        if (asked.stopped) break;
        const outcome = await this.quietly(() =>
          this.fake.own('gallery:deleteImages')({ images: [ref] }),
        );
        records.add(outcome.items);
        failed += outcome.failed;
        moved.push(ref);
        this.progress('images', 'delete', moved.length, images.length);
      }
      this.asked.delete(asked);
      if (!asked.stopped) {
        if (moved.length > 0) this.changed('deleted');
        return { items: records.all, failed };
      }
      // Stopped: what it moved comes back in the same operation.
      const back = await this.quietly(() => this.fake.own('gallery:undoDelete')({ images: moved }));
      records.add(back.items);
      if (moved.length > 0) this.changed('restored');
      return { items: records.all, failed: back.failed, canceled: true };
    });
  }

  private restoreImages(images: readonly Ref[]): Promise<Outcome> {
    const stopped = this.stop('images', images.map(keyOf));
    return this.turn(async () => {
      const records = new Records();
      let failed = 0;
      let done = 0;
      for (const [at, ref] of images.entries()) {
        const item = await this.fake.own('tasks:get')({ localId: ref.localId });
        const image = item?.record.images.find((each) => each.index === ref.index);
        done += 1;
        if (item && stopped.has(keyOf(ref)) && image?.state !== 'deleted') {
          records.add([item]);
          continue;
        }
        await this.tick(at);
        const outcome = await this.quietly(() =>
          this.fake.own('gallery:undoDelete')({ images: [ref] }),
        );
        records.add(outcome.items);
        failed += outcome.failed;
        this.progress('images', 'restore', done, images.length);
      }
      if (records.all.length > 0) this.changed('restored');
      return { items: records.all, failed };
    });
  }

  private removeTasks(localIds: readonly string[]): Promise<RequestOutput<'tasks:removeMany'>> {
    const ids = [...new Set(localIds)];
    const asked: Asked = { items: 'tasks', keys: new Set(ids), stopped: false };
    this.asked.add(asked);
    return this.turn(async () => {
      const removed: string[] = [];
      for (const [at, localId] of ids.entries()) {
        await this.tick(at);
        if (asked.stopped) break;
        const outcome = await this.fake.own('tasks:removeMany')({ localIds: [localId] });
        removed.push(...outcome.removed);
        this.progress('tasks', 'delete', removed.length, ids.length);
      }
      this.asked.delete(asked);
      if (!asked.stopped) return { removed, skipped: ids.length - removed.length };
      const back = await this.fake.own('tasks:undoRemove')({ localIds: removed });
      const returned = new Set(back.items.map((item) => item.record.localId));
      const left = removed.filter((localId) => !returned.has(localId));
      return { removed: left, skipped: ids.length - left.length, canceled: true };
    });
  }

  private restoreTasks(localIds: readonly string[]): Promise<Outcome> {
    const ids = [...new Set(localIds)];
    const stopped = this.stop('tasks', ids);
    return this.turn(async () => {
      const records = new Records();
      let failed = 0;
      for (const [at, localId] of ids.entries()) {
        const present = await this.fake.own('tasks:get')({ localId });
        if (present && stopped.has(localId)) {
          records.add([present]);
          continue;
        }
        await this.tick(at);
        const outcome = await this.fake.own('tasks:undoRemove')({ localIds: [localId] });
        records.add(outcome.items);
        failed += outcome.failed;
        this.progress('tasks', 'restore', at + 1, ids.length);
      }
      return { items: records.all, failed };
    });
  }
}
