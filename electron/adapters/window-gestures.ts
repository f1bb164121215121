/**
 * The user's presses in the app's window (ports/user-gestures.ts), counted from the `input-event`s
 * Electron emits for what the OS delivers to a window's page: a key or mouse button going down, a
 * tap. Moves, wheels and releases are not counted (a pointer crossing the window is no decision,
 * and the release of a key that answered a dialog may reach the window after it closed). Events a
 * page's script dispatches never reach main.
 */
import type { InputEvent, WebContents } from 'electron';
import type { UserGestures } from '../ports/user-gestures';

const PRESSES: ReadonlySet<InputEvent['type']> = new Set([
  'mouseDown',
  'rawKeyDown',
  'keyDown',
  'gestureTap',
  'touchStart',
]);

export class WindowGestures implements UserGestures {
  private seen = 0;

  /** Counts the presses reaching `contents` from now on (each window the app opens). */
  watch(contents: Pick<WebContents, 'on'>): void {
    contents.on('input-event', (_event, input) => {
      if (PRESSES.has(input.type)) this.seen += 1;
    });
  }

  count(): number {
    return this.seen;
  }
}
