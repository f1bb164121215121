/**
 * Electron's window list and quit sequence, modelled as Electron's own code runs them
 * (shell/browser/window_list.cc, browser.cc, lib/browser/init.ts), for tests of what decides the
 * app's lifetime:
 *
 * - every window is in the list, hidden ones too (`show: false` changes nothing);
 * - closing a window emits `close` (preventable), then `closed`, and takes it off the list; when
 *   the list is empty and no quit is under way, the app emits `window-all-closed`, and Electron's
 *   own listener quits the app when it is the only one listening;
 * - `app.quit()` emits `before-quit` (preventable), closes every window (a window whose `close`
 *   is prevented cancels the quit), then emits `will-quit` (preventable: a later `quit()` runs the
 *   whole sequence again) and `quit`, and the app has exited.
 */
import { EventEmitter } from 'node:events';

export class FakeQuitEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class ListedWindow extends EventEmitter {
  destroyed = false;
  constructor(
    private readonly list: FakeWindowListApp,
    readonly name: string,
    readonly shown: boolean,
  ) {
    super();
  }

  /** What a click on the window's close button, or `win.close()`, does. False when refused. */
  close(): boolean {
    if (this.destroyed) return true;
    const event = new FakeQuitEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
    this.list.removed(this);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeWindowListApp extends EventEmitter {
  readonly windows: ListedWindow[] = [];
  /** The events the app emitted, in order (what a test compares). */
  readonly emitted: string[] = [];
  exited = false;
  private quitting = false;

  /** `new BrowserWindow({ show })`. */
  open(name: string, shown = true): ListedWindow {
    const window = new ListedWindow(this, name, shown);
    this.windows.push(window);
    return window;
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (typeof event === 'string') this.emitted.push(event);
    return super.emit(event, ...args);
  }

  quit(): void {
    if (this.quitting || this.exited) return;
    const before = new FakeQuitEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    this.quitting = true;
    // With windows open, the last one to leave the list goes on to will-quit (removed()).
    if (this.windows.length === 0) {
      this.notifyAndShutdown();
      return;
    }
    for (const window of [...this.windows]) {
      if (!window.close()) {
        // Browser::OnWindowCloseCancelled: the quit is off.
        this.quitting = false;
        return;
      }
    }
  }

  /** Called by a window as it leaves the list. */
  removed(window: ListedWindow): void {
    const index = this.windows.indexOf(window);
    if (index !== -1) this.windows.splice(index, 1);
    if (this.windows.length > 0) return;
    if (this.quitting) this.notifyAndShutdown();
    else if (this.emit('window-all-closed') === false) this.quit();
  }

  /** Windows still open, hidden ones included. */
  openWindows(): string[] {
    return this.windows.map((window) => window.name);
  }

  private notifyAndShutdown(): void {
    const will = new FakeQuitEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) {
      this.quitting = false;
      return;
    }
    this.emit('quit');
    this.exited = true;
  }
}
