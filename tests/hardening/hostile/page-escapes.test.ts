/**
 * A compromised page (script in the app's window, or in any webContents the app will ever host)
 * reaching past the IPC contract for what Chromium itself offers: starting a download, and a
 * `beforeunload` handler. Neither may reach the user: a page's download would open the system's
 * Save dialog with the page's file name and bytes (`Pictor-update.exe`), and a `beforeunload` that
 * returns a value would silently cancel the window's close, and with it every quit.
 *
 * Only Electron's objects are faked (tests/fakes/electron-window.ts): the window, its guards and
 * `hardenApp` are the app's own code. That Electron honours `preventDefault` on these two events
 * is its documented contract (`will-download`: "calling event.preventDefault() will cancel the
 * download"; `will-prevent-unload`: "will ignore the beforeunload event handler"), which only the
 * real binary can show.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeApp,
  FakeBrowserWindow,
  FakeEvent,
  FakeSession,
  FakeWebContents,
  resetElectronFakes,
} from '../../fakes/electron-window';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { createMainWindow } = await import('../../../electron/window');
const { hardenApp } = await import('../../../electron/adapters/window-guards');

const APP_URL = 'pictor-app://app/index.html';

/** The main window the app opens, and webContents in sessions of their own (any later one). */
function everyContents(): FakeWebContents[] {
  const app = new FakeApp();
  hardenApp(app as never, { appUrl: APP_URL });
  createMainWindow({ preloadPath: '/app/preload.cjs', appUrl: APP_URL, isPackaged: true });
  const main = FakeBrowserWindow.instances.at(-1)!.webContents;
  app.emit('web-contents-created', {}, main);
  const others = [new FakeSession(), new FakeSession()].map((session) => {
    const contents = new FakeWebContents(session);
    app.emit('web-contents-created', {}, contents);
    return contents;
  });
  return [main, ...others];
}

beforeEach(() => {
  resetElectronFakes();
});

describe('a compromised page', () => {
  it('starts no download in any session: no Save dialog with its name and bytes', () => {
    for (const contents of everyContents()) {
      for (const name of ['Pictor-update.exe', 'photo.png', 'run.command', '']) {
        const event = new FakeEvent();
        const item = { getFilename: () => name, getURL: () => `blob:${APP_URL}/x` };
        contents.session.emit('will-download', event, item, contents);
        expect(event.defaultPrevented, name).toBe(true);
      }
    }
  });

  it('cannot keep a window, or the app, from closing with beforeunload', () => {
    for (const contents of everyContents()) {
      const event = new FakeEvent();
      contents.emit('will-prevent-unload', event);
      expect(event.defaultPrevented).toBe(true);
    }
  });
});
