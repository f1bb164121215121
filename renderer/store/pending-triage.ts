/**
 * What a triage key sees of its images while the changes made before it are still on their way.
 * The page draws an image's triage from main's `tasks:updated`, which comes with the answer of the
 * change (electron/ipc/triage-handlers.ts); a key pressed before that answer read the images as
 * they were before the change. A key every image already answers takes it back (triage-actions.ts
 * `toggledChange`), so 5 pressed twice fast sent 5 twice: the second press, the take-back, was
 * lost. The ratings and flags of the changes not yet answered are laid over the images a key read
 * (each sets a value, so one already drawn is laid over again to the same value).
 *
 * A change of more than MAX_ANSWERED_TASKS tasks is answered at its commit, its tasks following
 * (shared/ipc/triage-contract.ts): its answer says `settle`, and the change stays laid over until
 * `triage:settled` answers for it, which main does once it sent every task the change wrote. So a
 * key pressed right after the answer of a change of thousands of images reads them as changed.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import type { ImageTriage } from '../../shared/domain/triage';
import type { TriageChangeInput } from '../../shared/ipc/triage-contract';
import { call } from '../lib/api';
import type { ImageRef } from './gallery-delete';

interface Pending {
  readonly images: ReadonlySet<string>;
  readonly change: TriageChangeInput;
}

const keyOf = (ref: ImageRef) => `${ref.localId}\u0000${String(ref.index)}`;

/** `image` with the rating or flag `change` sets; any other change left out (not toggled). */
function laidOver<T extends ImageTriage>(image: T, change: TriageChangeInput): T {
  if (change.kind === 'rating') return { ...image, rating: change.rating };
  if (change.kind !== 'flag') return image;
  const { flag: _flag, ...rest } = image;
  const flag = change.flag === 'none' ? {} : { flag: change.flag };
  return { ...rest, ...flag, favourite: change.flag === 'pick' } as T;
}

/** What a change's answer says of its tasks (triage-contract.ts's `settle`). */
interface Settles {
  readonly settle?: number | undefined;
}

export class PendingTriage {
  private readonly pending = new Set<Pending>();

  constructor(
    /** Resolves once main sent the tasks of the change its answer numbered. */
    private readonly settled: (change: number) => Promise<unknown> = (change) =>
      call('triage:settled', { change }),
  ) {}

  /** `items` as they will be once every change not yet answered is drawn, in the order made. */
  seen(items: readonly GalleryItem[]): GalleryItem[] {
    if (this.pending.size === 0) return [...items];
    return items.map((item) => {
      let { image } = item;
      for (const { images, change } of this.pending) {
        if (images.has(keyOf(item))) image = laidOver(image, change);
      }
      return image === item.image ? item : { ...item, image };
    });
  }

  /**
   * Runs `send` (the change of `refs`), the change laid over what keys see until it settles: at
   * its answer, or once its tasks were sent when the answer says they follow.
   */
  async track<T extends Settles>(
    refs: readonly ImageRef[],
    change: TriageChangeInput,
    send: () => Promise<T>,
  ): Promise<T> {
    const entry = { images: new Set(refs.map(keyOf)), change };
    this.pending.add(entry);
    const drop = () => this.pending.delete(entry);
    let outcome: T | undefined;
    try {
      outcome = await send();
      return outcome;
    } finally {
      const settle = outcome?.settle;
      if (settle === undefined) drop();
      else void this.settled(settle).then(drop, drop);
    }
  }
}
