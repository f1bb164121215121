/**
 * The app's quit, held while a delete or an Undo is under way (trash operations are journaled:
 * what a quit cuts short finishes at the next start, but waiting a little spares that).
 */
import type { App, BrowserWindow } from 'electron';
import type { TrashProgress } from '../core/trash';

/** What the hold needs of the app's wiring. */
export interface QuitWiring {
  readonly trash: {
    inFlight(): TrashProgress | null;
    settle(ms: number): Promise<unknown>;
  };
  beforeQuit(ms: number): Promise<unknown>;
}

/** How long quitting waits for a delete or an Undo under way (the rest resumes at the next start). */
export const QUIT_WAIT_MS = 30_000;

/**
 * Quitting, and where closing the window quits the app a close too, waits while a delete or an
 * Undo is under way (bounded), the window saying so; what is left then finishes at the next
 * start (the trash journal's replay).
 */
export function holdQuitForTrash(
  app: Pick<App, 'on' | 'quit'>,
  wiring: () => QuitWiring | null,
  emit: (channel: 'app:quitting', payload: { waitingFor: TrashProgress | null }) => void,
): { watchWindow(window: BrowserWindow): void } {
  let settled = false;
  app.on('before-quit', (event) => {
    const current = wiring();
    if (settled || current?.trash.inFlight() == null) return;
    event.preventDefault();
    settled = true;
    void current.beforeQuit(QUIT_WAIT_MS).finally(() => app.quit());
  });
  return {
    watchWindow(window) {
      let waited = false;
      window.on('close', (event) => {
        const waitingFor = wiring()?.trash.inFlight() ?? null;
        if (waited || waitingFor === null || process.platform === 'darwin') return;
        event.preventDefault();
        waited = true;
        emit('app:quitting', { waitingFor });
        void wiring()
          ?.trash.settle(QUIT_WAIT_MS)
          .finally(() => window.close());
      });
    },
  };
}
