/**
 * IPC handlers of the `galleryFolder:` channels (Settings › Gallery folder › Change). The page
 * never names a path: `pick` opens the main process's own folder dialog and keeps what it
 * returned under a random ticket, with what that folder and the current library hold; `apply`
 * takes the ticket (once, within {@link FOLDER_TICKET_TTL_MS}) and moves the library there or
 * opens the library there, reporting progress on `galleryFolder:progress`; `cancel` stops a move
 * before its switch. Every pick ends the ticket before it, a cancelled pick too: only the folder
 * of the user's last, confirmed choice can ever be used.
 */
import { randomBytes } from 'node:crypto';
import type { FolderChange } from '../../shared/ipc/contract';
import type { Clock } from '../ports/clock';
import { GalleryMoveCancelled, type MoveProgress } from '../core/gallery/relocate';
import { inspectLibrary } from '../core/gallery/relocate-open';
import type { GalleryMoveHooks } from '../core/gallery/relocate';
import type { Emit, HandlersOf } from './ipc-main-bridge';
import { UserFacingError } from '../core/errors/user-facing-error';
import { sentence } from '../../shared/i18n/sentence';

/** How long a ticket stays usable: the confirmation the page shows, with time to read it. */
export const FOLDER_TICKET_TTL_MS = 10 * 60_000;

/** What the handlers use of the AppRuntime. */
export interface FolderRuntime {
  /** Tickets expire by it. */
  readonly clock: Pick<Clock, 'now'>;
  galleryDir(): string;
  moveGalleryTo(folder: string, hooks?: GalleryMoveHooks): Promise<unknown>;
  openGalleryAt(folder: string): Promise<{ imported: number }>;
}

export interface GalleryFolderDeps {
  readonly runtime: FolderRuntime;
  /** The main process's own folder dialog: the only source of a new gallery folder. */
  readonly chooseFolder: () => Promise<string | null>;
  readonly emit: Emit;
  /** Shortest time between two progress events, in ms (the last one is always sent). */
  readonly progressEveryMs?: number;
}

class FolderChangeError extends UserFacingError {
  override readonly name = 'FolderChangeError';
}

export function galleryFolderHandlers(deps: GalleryFolderDeps): HandlersOf<'galleryFolder'> {
  /** The folder the dialog returned last, under its ticket and when it was given; used once. */
  let picked: { ticket: string; path: string; at: number } | null = null;
  /** Counts picks, so a dialog that closes after a later pick began gives no ticket. */
  let picks = 0;
  let running: AbortController | null = null;
  const progressEvery = deps.progressEveryMs ?? 100;

  const move = async (path: string): Promise<FolderChange> => {
    const controller = new AbortController();
    running = controller;
    let last = 0;
    let moved = 0;
    const onProgress = (progress: MoveProgress): void => {
      moved = progress.tasksDone;
      const now = Date.now();
      const finished = progress.tasksDone === progress.tasks;
      if (!finished && now - last < progressEvery) return;
      last = now;
      deps.emit('galleryFolder:progress', progress);
    };
    try {
      await deps.runtime.moveGalleryTo(path, { signal: controller.signal, onProgress });
      return {
        outcome: 'moved',
        path: deps.runtime.galleryDir(),
        moved,
        leftBehind: 0,
        imported: 0,
      };
    } catch (error) {
      if (!(error instanceof GalleryMoveCancelled)) throw error;
      return {
        outcome: 'cancelled',
        path: deps.runtime.galleryDir(),
        moved: 0,
        leftBehind: 0,
        imported: 0,
      };
    } finally {
      running = null;
    }
  };

  return {
    'galleryFolder:pick': async () => {
      picked = null;
      const pick = ++picks;
      const path = await deps.chooseFolder();
      if (path === null || pick !== picks) return { choice: null };
      const ticket = randomBytes(16).toString('hex');
      picked = { ticket, path, at: deps.runtime.clock.now() };
      const current = deps.runtime.galleryDir();
      const [library, now] = await Promise.all([inspectLibrary(path), inspectLibrary(current)]);
      return { choice: { ticket, path, library, current: { ...now, path: current } } };
    },
    'galleryFolder:apply': async ({ ticket, action }) => {
      const choice = picked;
      // A clock set back counts as expired too: the ticket's age is then unknown.
      const age = choice === null ? -1 : deps.runtime.clock.now() - choice.at;
      if (age < 0 || age > FOLDER_TICKET_TTL_MS) picked = null;
      if (picked === null || choice?.ticket !== ticket) {
        throw new FolderChangeError(sentence('error.gallery.folderChoiceExpired'));
      }
      if (running) throw new FolderChangeError(sentence('error.gallery.moveRunning'));
      picked = null;
      if (action === 'move') return move(choice.path);
      const { imported } = await deps.runtime.openGalleryAt(choice.path);
      return {
        outcome: 'opened',
        path: deps.runtime.galleryDir(),
        moved: 0,
        leftBehind: 0,
        imported,
      };
    },
    'galleryFolder:cancel': () => {
      if (!running) return { cancelling: false };
      running.abort(new Error('The user cancelled the move.'));
      return { cancelling: true };
    },
  };
}
