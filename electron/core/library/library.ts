/**
 * Where the library lives, changed on the one running core: the core is never replaced. A move
 * or an open pauses the engine and the thumbnail maker (no poll, download, thumbnail or sidecar
 * starts; what is under way finishes into the old folder; leases and task ids are kept), changes
 * the folder, re-roots the gallery there (the trash follows the gallery's root) and resumes:
 * watched tasks poll again, pending images are downloaded into the gallery as it is then.
 *
 * A move that stops or is refused before the switch leaves the gallery, the setting and every
 * task where they were, and the core running on the old folder. Changes run one at a time.
 *
 * What must act around every change, whoever asks for it (the app's handlers, the CLI, a test),
 * is added with {@link Library.aroundChanges}: the trash sends what it holds on before and replays
 * its journal for the new folder after (core/trash), so no caller can move the library under it.
 */
import { toDisposable, type Disposable } from '../../ports/disposable';
import { heldForChanges } from '../fs';
import type { Logger } from '../../ports/logger';
import type { Gallery } from '../gallery';
import {
  relocateGallery,
  type GalleryMoveHooks,
  type RelocateFaults,
  type RelocateResult,
} from './relocate';
import type { KeptIdScrubber } from './archive/import-kept-id';
import { importGalleryTasks, openLibraryAt, type OpenedLibrary } from './relocate-open';
import type { TaskEngine } from '../engine';
import type { HistoryStore, ManyRecordWrites } from '../history';
import type { PendingThumbnails } from '../download';
import type { RebuildIntake } from './rebuild-verified';

/** What the library changes and quiets while it does. */
export interface LibraryDeps {
  /** The app's data folder: never a library's folder, nor inside or around one. */
  readonly dataDir: string;
  readonly gallery: Gallery;
  /** Checks what the new folder holds as the library's rebuild does (verified credentials). */
  readonly intake: RebuildIntake;
  /** Its writes of many records may run in the history worker (history-writes.ts). */
  readonly history: Pick<HistoryStore, 'getMany'> & ManyRecordWrites;
  readonly engine: Pick<TaskEngine, 'pause' | 'resume'>;
  readonly thumbnails: Pick<PendingThumbnails, 'stop' | 'resume'>;
  readonly logger: Logger;
  /** Where the folder is recorded when it changes; none: nowhere (the CLI, tests). */
  readonly folderRecord?: LibraryFolderRecord;
  /** Injected faults for tests (a port), passed to every move. */
  readonly faults?: RelocateFaults;
  /** The time, for the age of leftovers in a target's `.pictor-tmp`; default `Date.now`. */
  readonly now?: () => number;
  /** The scrubber of every key the process holds: an opened folder's task ids are redacted. */
  readonly keyScrubber?: () => Promise<KeptIdScrubber>;
}

/**
 * Where the library's folder is recorded (the app's setting; a port, so the library never calls
 * back into whoever holds it). Told once the new folder is ready (a move: every task folder
 * copied and checked, before the old copies are removed); when it throws, nothing old is removed
 * and the gallery stays.
 */
export interface LibraryFolderRecord {
  record(folder: string): void | Promise<void>;
}

/**
 * Runs a change of folder (`change`: the move or the open, which pauses the engine itself) with
 * what must happen before and after it, and returns what the change returned.
 */
export type LibraryChangeGuard = <T>(change: () => Promise<T>) => Promise<T>;

export class Library {
  /** Changes run one at a time, in the order asked for. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Around every change, the first added outermost. */
  private readonly guards = new Set<LibraryChangeGuard>();

  constructor(private readonly deps: LibraryDeps) {}

  /** The library's folder now (absolute). */
  get folder(): string {
    return this.deps.gallery.root;
  }

  /** Runs `guard` around every later change of folder, until the result is disposed. */
  aroundChanges(guard: LibraryChangeGuard): Disposable {
    this.guards.add(guard);
    return toDisposable(() => this.guards.delete(guard));
  }

  /**
   * Moves the library to `folder` (see relocate.ts for the order of work), then works there.
   * Moving it where it already is moves nothing.
   * @throws GalleryMoveError, GalleryMoveCancelled, UnsafePathError: the library stays where it
   *   was, and the core goes on there.
   */
  moveTo(folder: string, hooks: GalleryMoveHooks = {}): Promise<RelocateResult> {
    return this.exclusive(async () => {
      const from = this.folder;
      if (folder === from) return { moved: 0, leftBehind: [] };
      const result = await relocateGallery(from, folder, {
        dataDir: this.deps.dataDir,
        ...(this.deps.faults ? { faults: this.deps.faults } : {}),
        ...(this.deps.now ? { now: this.deps.now } : {}),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        switchTo: (target) => this.switchTo(target),
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
   * describe join the history, and what could not be read is left out and said (the window
   * lists it).
   * @throws GalleryMoveError / UnsafePathError: nothing changed.
   */
  openAt(folder: string): Promise<OpenedLibrary> {
    return this.exclusive(async () => {
      await openLibraryAt(this.folder, folder, {
        dataDir: this.deps.dataDir,
        switchTo: (target) => this.switchTo(target),
      });
      const opened = await importGalleryTasks(this.deps).then(
        ({ added, skipped, notes }): OpenedLibrary => {
          for (const note of notes) {
            this.deps.logger.warn('a sidecar said what its record does not keep', {
              path: note.path,
              reason: note.reason,
            });
          }
          return { imported: added, skipped };
        },
        (error: unknown): OpenedLibrary => {
          this.deps.logger.warn('gallery tasks could not all be read', { error: String(error) });
          return { imported: 0, skipped: [] };
        },
      );
      this.deps.logger.info('gallery opened', {
        imported: opened.imported,
        skipped: opened.skipped.length,
      });
      return opened;
    });
  }

  /**
   * The folder is recorded, then the gallery works there. When the gallery cannot (the folder
   * cannot be made ready), both go back to the old folder, still whole, and this throws.
   */
  private async switchTo(target: string): Promise<void> {
    const from = this.folder;
    await this.deps.folderRecord?.record(target);
    try {
      await this.deps.gallery.reroot(target);
    } catch (error) {
      await this.deps.folderRecord?.record(from);
      await this.deps.gallery.reroot(from);
      throw error;
    }
  }

  /**
   * `work` after every change asked for before it, inside the guards (outside the pause: what a
   * guard does before and after runs with the engine going), with the engine and thumbnails paused.
   */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    // Outermost, the hold that keeps other processes' writes out of the change (fs/library-holds.ts).
    const guarded = [heldForChanges(this.deps.dataDir), ...this.guards].reduceRight<
      () => Promise<T>
    >(
      (inner, guard) => () => guard(inner),
      () => this.paused(work),
    );
    const run = this.queue.then(guarded);
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
