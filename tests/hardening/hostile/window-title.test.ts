/**
 * A compromised page setting `document.title`: Electron gives the page's title to the native
 * window (its title bar, the taskbar, the Dock's menu, Alt-Tab, Mission Control: the system's
 * own chrome, where a user trusts what they read) unless the window's `page-title-updated` is
 * prevented. The page never sets one; a title it sets ("Pictor: enter your password to update",
 * with bidi controls or line breaks) stays in the page. Only Electron's objects are faked
 * (tests/fakes/electron-window.ts); that Electron keeps the title when the event is prevented is
 * its documented contract ("calling event.preventDefault() will prevent the native window's
 * title from changing"), which only the real binary can show.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWindow, FakeEvent, resetElectronFakes } from '../../fakes/electron-window';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { createMainWindow } = await import('../../../electron/window');

beforeEach(() => {
  resetElectronFakes();
});

describe('a title the page sets', () => {
  it.each([
    'Pictor: enter your password to update',
    'Pictor \u202Eexe.gnp',
    'Pictor\nSecurity check',
    '',
  ])('never reaches the native window: %j', (title) => {
    createMainWindow({
      preloadPath: '/app/preload.cjs',
      appUrl: 'pictor-app://app/index.html',
      isPackaged: true,
    });
    const window = FakeBrowserWindow.instances.at(-1)!;
    expect(window.options['title']).toBe('Pictor');
    const event = new FakeEvent();
    window.emit('page-title-updated', event, title, true);
    expect(event.defaultPrevented).toBe(true);
  });
});
