/**
 * The chromium host's own promises, checked through the page: the bridge answers only the app's
 * main frame (another frame calling the same binding is refused, as mainFrameSenderCheck refuses
 * it in Electron), only the top frame gets `window.pictor`, and the window guards hold
 * (`window.open` opens nothing, navigation away is stopped). Electron has its real guards.
 * `restart({ whileClosed })` runs its step with the app fully closed.
 *
 * Only a browser shows here: the chromium host's frames, bindings and navigation: the harness the
 * other journeys stand on, which no jsdom page has.
 */
import { expect, test } from '@playwright/test';
import { hostName } from '../harness/launch-app';
import { readHistory } from './support/disk';
import { useAppSession } from './support/session';

const session = useAppSession('harness');

test.skip(
  hostName() !== 'chromium',
  'checks the chromium host’s stand-ins for the preload and window guards',
);

test.beforeEach(async () => {
  await session.launch();
});

test('the bridge answers the main frame and refuses a request from any other frame', async () => {
  const { page } = session.app;
  const fromMain = await page.evaluate(() => window.pictor?.invoke('settings:get'));
  expect(fromMain).toMatchObject({ ok: true, value: { theme: 'system' } });

  // The app's CSP (frame-src 'none', frame-ancestors 'none') allows no other child frame.
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
  });
  await expect.poll(() => page.frames().length).toBe(2);
  const child = page.frames().find((frame) => frame !== page.mainFrame());
  if (!child) throw new Error('no child frame');
  expect(await child.evaluate(() => 'pictor' in window)).toBe(false);
  const refused = await child.evaluate(async () => {
    const binding = (window as unknown as Record<string, unknown>).__pictorE2eInvoke;
    if (typeof binding !== 'function') return 'no binding in this frame';
    return JSON.parse(await (binding as (c: string) => Promise<string>)('settings:get')) as unknown;
  });
  expect(refused).toEqual({
    ok: false,
    error: {
      code: 'forbidden',
      message: 'This request did not come from Pictor’s window.',
      sentence: { key: 'error.library.untrustedSender' },
    },
  });
  // Unknown channels never reach a handler, from any frame.
  const unknown = await page.evaluate(async () => {
    const binding = (window as unknown as Record<string, unknown>).__pictorE2eInvoke;
    return JSON.parse(await (binding as (c: string) => Promise<string>)('fs:read')) as unknown;
  });
  expect(unknown).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  expect(session.app.ipcPayloads().some((text) => text.includes('"forbidden"'))).toBe(true);
});

test('window.open opens nothing and navigation away from the app is stopped', async () => {
  const launched = session.app;
  const page = launched.page;
  const appUrl = page.url();
  expect(await page.evaluate(() => window.open('https://example.com/docs'))).toBeNull();
  await page.evaluate(() => {
    location.href = 'https://example.com/elsewhere';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe(appUrl);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(page.context().pages()).toHaveLength(1);
  // As in Electron, nor does the link go to the OS browser: the page has no way to name one.
  expect(launched.osCalls().filter((call) => call.action === 'openExternal')).toEqual([]);
});

test('restart runs whileClosed after the app has quit and before it starts again', async () => {
  const launched = session.app;
  const before = launched.page;
  // The library is shared (node:sqlite with OS locks): another process reads it while the app
  // runs, as the CLI does.
  expect(readHistory(session.folders.userDataDir)).toEqual([]);
  const seen: { windowClosed?: boolean; records?: number } = {};
  const page = await launched.restart({
    waitForShell: false,
    whileClosed: () => {
      seen.windowClosed = before.isClosed();
      seen.records = readHistory(session.folders.userDataDir).length;
    },
  });
  expect(seen).toEqual({ windowClosed: true, records: 0 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
