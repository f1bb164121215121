/**
 * Where the library lives, changed on the one running core: the core is never replaced. A move
 * or an open pauses the engine and the thumbnail maker (no poll, download, thumbnail or sidecar
 * starts; what is under way finishes into the old folder; leases and task ids are kept), changes
 * the folder, re-roots the gallery there (the trash follows the gallery's root) and resumes:
 * watched tasks poll again, pending images are downloaded into the gallery as it is then.
 *
 * A move that stops or is refused before the switch leaves the gallery, the setting and every
 * task where they were, and the core running on the old folder. Changes run one at a time.
 */
import type { Logger } from '../../ports/logger';
import type { Gallery } from './gallery';
import {
  relocateGallery,
  type GalleryMoveHooks,
  type RelocateFaults,
  type RelocateResult,
} from './relocate';
import { importGalleryTasks, openLibraryAt, type OpenedLibrary } from './relocate-open';
import type { PictorCore } from '../pictor-core';

/** What the library changes and quiets while it does. */
export interface LibraryDeps {
  /** The app's data folder: never a library's folder, nor inside or around one. */
  readonly dataDir: string;
  readonly gallery: Gallery;
  readonly history: Pick<PictorCore['history'], 'get' | 'putMany'>;
  readonly engine: Pick<PictorCore['engine'], 'pause' | 'resume'>;
  readonly thumbnails: Pick<PictorCore['thumbnails'], 'stop' | 'resume'>;
  readonly logger: Logger;
  /** Injected faults for tests (a port), passed to every move. */
  readonly faults?: RelocateFaults;
  /** The time, for the age of leftovers in a target's `.pictor-tmp`; default `Date.now`. */
  readonly now?: () => number;
}

/** What the caller adds to a change: where it records the new folder (the setting). */
export interface LibrarySwitch {
  /**
   * Called once the new folder is ready (a move: every task folder copied and checked, before
   * the old copies are removed). When it throws, nothing old is removed and the gallery stays.
   */
  readonly switchTo: (folder: string) => void | Promise<void>;
}

export type LibraryMoveHooks = GalleryMoveHooks & LibrarySwitch;

export class Library {
  /** Changes run one at a time, in the order asked for. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: LibraryDeps) {}

  /** The library's folder now (absolute). */
  get folder(): string {
    return this.deps.gallery.root;
  }

  /**
   * Moves the library to `folder` (see relocate.ts for the order of work), then works there.
   * @throws GalleryMoveError, GalleryMoveCancelled, UnsafePathError: the library stays where it
   *   was, and the core goes on there.
   */
  moveTo(folder: string, hooks: LibraryMoveHooks): Promise<RelocateResult> {
    return this.exclusive(async () => {
      const from = this.folder;
      const result = await relocateGallery(from, folder, {
        dataDir: this.deps.dataDir,
        ...(this.deps.faults ? { faults: this.deps.faults } : {}),
        ...(this.deps.now ? { now: this.deps.now } : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        switchTo: (target) => this.switchTo(target, hooks),
      });
      this.deps.logger.info('gallery moved', {
        from,
        to: this.folder,
        moved: result.moved,
        leftBehind: result.leftBehind.length,
      });
      hooks.onMoved?.(result);
      return result;
    });
  }

  /**
   * Makes `folder` the library as it is, without moving anything; the tasks its sidecars
   * describe join the history (a task it could not read is logged and left out).
   * @throws GalleryMoveError / UnsafePathError: nothing changed.
   */
  openAt(folder: string, hooks: LibrarySwitch): Promise<OpenedLibrary> {
    return this.exclusive(async () => {
      await openLibraryAt(this.folder, folder, {
        dataDir: this.deps.dataDir,
        switchTo: (target) => this.switchTo(target, hooks),
      });
      const imported = await importGalleryTasks(this.deps).then(
        ({ added }) => added,
        (error: unknown) => {
          this.deps.logger.warn('gallery tasks could not all be read', { error: String(error) });
          return 0;
        },
      );
      this.deps.logger.info('gallery opened', { imported });
      return { imported };
    });
  }

  /**
   * The caller records the folder, then the gallery works there. When the gallery cannot (the
   * folder cannot be made ready), both go back to the old folder, still whole, and this throws.
   */
  private async switchTo(target: string, hooks: LibrarySwitch): Promise<void> {
    const from = this.folder;
    await hooks.switchTo(target);
    try {
      await this.deps.gallery.reroot(target);
    } catch (error) {
      await hooks.switchTo(from);
      await this.deps.gallery.reroot(from);
      throw error;
    }
  }

  /** `work` after every change asked for before it, with the engine and thumbnails paused. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.paused(work));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async paused<T>(work: () => Promise<T>): Promise<T> {
    await this.deps.engine.pause();
    await this.deps.thumbnails.stop();
    try {
      return await work();
    } finally {
      this.deps.thumbnails.resume();
      this.deps.engine.resume();
    }
  }
}
