/**
 * The app's lifetime follows the window a user can see, on an Electron stand-in whose window list
 * counts hidden windows as Electron's does (tests/fakes/electron-window-list.ts): closing the main
 * window quits on Windows and Linux though the image renderer's hidden window is open, macOS keeps
 * the app until Quit, a helper window's closing never quits, and once a quit goes ahead no helper
 * opens again.
 */
import { describe, expect, it } from 'vitest';
import { appLifetime } from '../../../electron/host/app-lifetime';
import { FakeWindowListApp } from '../../fakes/electron-window-list';

function started(platform: NodeJS.Platform) {
  const app = new FakeWindowListApp();
  const lifetime = appLifetime(app as never, platform);
  const main = app.open('main');
  lifetime.followMainWindow(main);
  const helper = app.open('image-renderer', false);
  return { app, lifetime, main, helper };
}

describe('the stand-in’s window list, as Electron keeps it', () => {
  it('keeps the app running when the only visible window closes beside a hidden one (Electron’s own rule)', () => {
    const app = new FakeWindowListApp();
    app.open('main').close();
    expect(app.exited).toBe(true);
    const beside = new FakeWindowListApp();
    const main = beside.open('main');
    beside.open('image-renderer', false);
    main.close();
    expect(beside.exited).toBe(false);
    expect(beside.openWindows()).toEqual(['image-renderer']);
  });
});

describe.each(['linux', 'win32'] as const)('on %s', (platform) => {
  it('quits when the main window closes, though the image renderer’s hidden window is open', () => {
    const { app, main } = started(platform);
    main.close();
    expect(app.exited).toBe(true);
    expect(app.openWindows()).toEqual([]);
    expect(app.emitted).toEqual(['before-quit', 'will-quit', 'quit']);
  });

  it('does not quit when a close of the main window is held (a delete under way)', () => {
    const { app, main } = started(platform);
    main.on('close', (event: { preventDefault(): void }) => event.preventDefault());
    main.close();
    expect(app.exited).toBe(false);
  });
});

describe('on macOS', () => {
  it('keeps the app, and its engine, when the main window closes; Quit ends it with its helpers', () => {
    const { app, main } = started('darwin');
    main.close();
    expect(app.exited).toBe(false);
    expect(app.openWindows()).toEqual(['image-renderer']);
    app.quit();
    expect(app.exited).toBe(true);
    expect(app.openWindows()).toEqual([]);
  });
});

describe('helper windows', () => {
  it.each(['darwin', 'linux'] as const)(
    'never quit the app by closing (%s: the renderer idles out with no main window)',
    (platform) => {
      const app = new FakeWindowListApp();
      appLifetime(app as never, platform);
      app.open('image-renderer', false).close();
      expect(app.exited).toBe(false);
      expect(app.emitted).toEqual(['window-all-closed']);
    },
  );

  it('do not open again once a quit goes ahead, and may while a quit is held', () => {
    const app = new FakeWindowListApp();
    let held = true;
    // The trash's quit hold listens first (desktop-host.ts builds it before the lifetime).
    app.on('before-quit', (event: { preventDefault(): void }) => {
      if (held) event.preventDefault();
    });
    const lifetime = appLifetime(app as never, 'linux');
    app.open('main');
    app.quit();
    expect(lifetime.quitting()).toBe(false);
    held = false;
    // will-quit is held while the runtime closes (desktop-host.ts's quitInOrder).
    app.on('will-quit', (event: { preventDefault(): void }) => event.preventDefault());
    app.quit();
    expect(lifetime.quitting()).toBe(true);
    expect(app.exited).toBe(false);
  });

  it('may open again when a window opens after a quit that did not happen', () => {
    const app = new FakeWindowListApp();
    const lifetime = appLifetime(app as never, 'darwin');
    const main = app.open('main');
    // A page that refused to unload cancels the quit; Electron says nothing of it.
    main.on('close', (event: { preventDefault(): void }) => event.preventDefault());
    app.quit();
    expect(lifetime.quitting()).toBe(true);
    lifetime.followMainWindow(app.open('main again'));
    expect(lifetime.quitting()).toBe(false);
  });
});
