/**
 * Journey 13, the key stays with its service: a key saved for one service address is not sent to
 * another origin when the address changes. The main process asks in its own dialog (here the
 * chromium host's recorded stand-in answers; in real Electron a native message box nobody in the
 * page can click, so the journey runs in the chromium host only and
 * tests/integration/core/key-base-url.test.ts covers the same rule, paths included, in the runtime).
 *
 * Only a browser shows here: main's own dialog answered outside the page while the page can do
 * nothing about it; the key's origin rule as a user meets it.
 */
import { expect, test, type Page } from '@playwright/test';
import { hostName } from '../harness/launch-app';
import { useDemoProcess } from './support/service';
import { FAST_ENV, useAppSession } from './support/session';
import { connectToService, keySection, showScreen } from './support/ui';

const ACCOUNT = 'origin';
const KEY = 'sk-e2e-origin-5d0b7c2e91';
const OTHER = 'http://127.0.0.1:9';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('origin');

test.skip(
  hostName() !== 'chromium',
  'the native message box of real Electron cannot be answered from the test',
);

async function changeAddress(page: Page, url: string) {
  await showScreen(page, 'Settings');
  const service = page.locator('#settings-service-pictor');
  const field = service.getByLabel('Service address (base URL)');
  await field.fill(url);
  await service.getByRole('button', { name: 'Save' }).click();
  return service;
}

test('cancelling the main process’s question keeps the address and the key where they were', async () => {
  const { page } = await session.launch({ env: { ...FAST_ENV, PICTOR_E2E_KEY_ORIGIN: 'cancel' } });
  await connectToService(page, demo.url, KEY);
  await expect(
    keySection(page).getByText(`Sent only to ${new URL(demo.url).origin}.`, { exact: false }),
  ).toBeVisible();
  const service = await changeAddress(page, OTHER);
  await expect(service.getByText(/The service address was not changed/)).toBeVisible();
  const calls = session.app.osCalls();
  expect(calls.filter((call) => call.action === 'confirmKeyOrigin')).toEqual([
    { action: 'confirmKeyOrigin', arg: new URL(OTHER).origin },
  ]);
  await page.reload();
  await showScreen(page, 'Settings');
  await expect(
    page.locator('#settings-service-pictor').getByLabel('Service address (base URL)'),
  ).toHaveValue(demo.url);
});

test('answering "send the key" moves the key with the address', async () => {
  const { page } = await session.launch({ env: { ...FAST_ENV, PICTOR_E2E_KEY_ORIGIN: 'carry' } });
  await connectToService(page, demo.url, KEY);
  await changeAddress(page, OTHER);
  await expect(
    keySection(page).getByText(`Sent only to ${new URL(OTHER).origin}.`, { exact: false }),
  ).toBeVisible();
});
