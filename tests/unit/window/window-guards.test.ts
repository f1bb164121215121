import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FakeApp,
  FakeEvent,
  FakeSession,
  FakeWebContents,
  fakeElectron,
  resetElectronFakes,
} from '../../fakes/electron-window';

vi.mock('electron', async () => (await import('../../fakes/electron-window')).fakeElectron);

const { guardSession, guardWebContents, hardenApp } =
  await import('../../../electron/adapters/window-guards');

const APP_URL = 'pictor-app://app/index.html';
const openExternal = fakeElectron.shell.openExternal;

function recordingLogger() {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  return {
    warnings,
    logger: {
      debug() {},
      info() {},
      error() {},
      warn: (message: string, fields?: Record<string, unknown>) =>
        warnings.push({ message, fields }),
    },
  };
}

function guarded(): FakeWebContents {
  const contents = new FakeWebContents();
  guardWebContents(contents as never, { appUrl: APP_URL });
  return contents;
}

beforeEach(() => {
  resetElectronFakes();
});

describe('navigation', () => {
  it.each(['will-navigate', 'will-frame-navigate', 'will-redirect'])(
    '%s: stays inside the app, anything else is prevented',
    (event) => {
      const contents = guarded();
      expect(contents.attempt(event, 'pictor-app://app/index.html#/gallery').defaultPrevented).toBe(
        false,
      );
      for (const url of [
        'https://example.com/',
        'http://127.0.0.1:5173/',
        'file:///etc/passwd',
        'pictor-gallery://gallery/a.png',
        'pictor-app://evil/index.html',
        'javascript:alert(1)',
      ]) {
        expect(contents.attempt(event, url).defaultPrevented).toBe(true);
      }
    },
  );

  it('logs a blocked navigation', () => {
    const { warnings, logger } = recordingLogger();
    const contents = new FakeWebContents();
    guardWebContents(contents as never, { appUrl: APP_URL, logger });
    contents.attempt('will-navigate', 'https://example.com/');
    expect(warnings[0]?.message).toBe('Blocked a navigation away from the app');
  });
});

describe('new windows', () => {
  // The page has no link of its own to the outside (its links are in-page anchors): any address
  // it asks to open is a compromised page's, and the browser opening it is the attack.
  it.each([
    'https://example.com/docs',
    'https://EXAMPLE.com/a b',
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://user:pw@example.com/',
    'https://localhost/',
    'https://192.168.0.1/',
    'smb://server/share',
    'mailto:someone@example.com',
    'pictor-app://app/index.html',
    '',
  ])('denies %j, opens nothing and logs it', async (url) => {
    const { warnings, logger } = recordingLogger();
    const contents = new FakeWebContents();
    guardWebContents(contents as never, { appUrl: APP_URL, logger });
    expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(openExternal).not.toHaveBeenCalled();
    expect(warnings).toEqual([
      { message: 'Refused a new window (nothing was opened)', fields: { url } },
    ]);
  });

  it('opens nothing however often a page asks', async () => {
    const contents = guarded();
    for (let i = 0; i < 50; i += 1) {
      expect(contents.windowOpenHandler?.({ url: `https://example.com/${i}` })).toEqual({
        action: 'deny',
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('logs a long address cut short', () => {
    const { warnings, logger } = recordingLogger();
    const contents = new FakeWebContents();
    guardWebContents(contents as never, { appUrl: APP_URL, logger });
    contents.windowOpenHandler?.({ url: `https://example.com/${'a'.repeat(5_000)}` });
    expect(String(warnings[0]?.fields?.['url']).length).toBeLessThanOrEqual(201);
  });
});

describe('webview and permissions', () => {
  it('prevents attaching a <webview>', () => {
    const contents = guarded();
    const event = new FakeEvent();
    contents.emit('will-attach-webview', event, {}, { src: 'https://example.com' });
    expect(event.defaultPrevented).toBe(true);
  });

  it('denies every permission request and check in the session', () => {
    const contents = guarded();
    const session = contents.session;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
    ]) {
      const callback = vi.fn();
      (session.permissionRequestHandler as (...args: unknown[]) => void)(
        contents,
        permission,
        callback,
        {},
      );
      expect(callback).toHaveBeenCalledWith(false);
      expect(
        (session.permissionCheckHandler as (...args: unknown[]) => boolean)(
          contents,
          permission,
          'pictor-app://app',
          {},
        ),
      ).toBe(false);
    }
    expect((session.devicePermissionHandler as (...args: unknown[]) => boolean)({})).toBe(false);
  });

  it('installs the permission handlers once per session', () => {
    const session = new FakeSession();
    const spy = vi.spyOn(session, 'setPermissionRequestHandler');
    guardSession(session as never);
    guardSession(session as never);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('guards a webContents once however often it is asked', () => {
    const contents = guarded();
    guardWebContents(contents as never, { appUrl: APP_URL });
    expect(contents.listenerCount('will-navigate')).toBe(1);
  });
});

describe('hardenApp', () => {
  it('guards every webContents the app creates, in any session', () => {
    const app = new FakeApp();
    hardenApp(app as never, { appUrl: APP_URL });
    const other = new FakeWebContents(new FakeSession());
    app.emit('web-contents-created', {}, other);
    expect(other.attempt('will-navigate', 'https://example.com/').defaultPrevented).toBe(true);
    expect(other.windowOpenHandler?.({ url: 'http://example.com/' })).toEqual({ action: 'deny' });
    expect(other.session.permissionRequestHandler).not.toBeNull();
    const event = new FakeEvent();
    other.emit('will-attach-webview', event, {}, {});
    expect(event.defaultPrevented).toBe(true);
  });
});
