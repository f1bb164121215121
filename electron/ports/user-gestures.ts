/**
 * The user's own presses (a key, a mouse button, a tap) in the app's window, as the main process
 * sees them arrive from the OS. A page cannot make one: its script's synthetic events never leave
 * the renderer, so a count that grew says a person did something, not that the page asked again.
 * Electron: the main window's `input-event`s (adapters/window-gestures.ts); a stand-in in tests.
 */
export interface UserGestures {
  /** How many presses have reached the app's window so far (it only grows). */
  count(): number;
}
