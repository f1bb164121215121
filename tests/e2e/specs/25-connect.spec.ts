/**
 * Journey 25, connect a service in one step: the first-run banner opens "Connect a service";
 * the user chooses fal.ai (its own address is filled in), gives the address of their fal service
 * (a demo process speaking fal's dialect) and its key, tests the connection and saves, in that
 * order, in one panel. The compose form then sends to fal.ai, Settings' index reads "Connected,
 * key checked" for it, and a service without a key is marked in the Service list and named under
 * the form, with a link that opens its section of Settings with its key field focused.
 *
 * Only a browser shows here: the one-panel connect flow against a fal demo process, ending with the
 * key field focused by the link in a real browser.
 */
import { expect, test } from '@playwright/test';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import { composeForm, expectNotInPage, showScreen } from './support/ui';

const KEY = 'fal-e2e-connect-6c2e9b14d7';

const fal = useDemoProcess({ dialect: 'fal', keys: [`faluser:${KEY}`], durationMs: [500, 1000] });
const session = useAppSession('connect');

test('first run to a checked key in one panel; a missing key is named and one click away', async () => {
  const { page } = await session.launch();

  const banner = page.getByRole('region', { name: 'Demo service' });
  await banner.getByRole('button', { name: 'Connect a service' }).click();
  const panel = page.getByRole('dialog', { name: 'Connect a service' });
  await expect(panel).toBeVisible();

  // Service first, then its address (filled in for a known provider), then the key.
  const service = panel.getByLabel('Service', { exact: true });
  await expect(service).toBeFocused();
  await service.selectOption({ label: 'fal.ai' });
  const address = panel.getByLabel('Address', { exact: true });
  await expect(address).toHaveValue('https://queue.fal.run');
  await address.fill(fal.directUrl);
  const key = panel.getByLabel('fal.ai API key');
  await expect(key).toHaveAttribute('type', 'password');
  await key.fill(KEY);

  // Test asks the service about the typed key (keeping nothing), then Save stores it.
  await panel.getByRole('button', { name: 'Test connection' }).click();
  await expect(panel.getByRole('status')).toContainText(/accepted/i);
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  // The one question it may ask: weaker storage on a machine without a keyring.
  const consent = panel.getByRole('button', { name: 'Store with weaker protection' });
  const done = page.getByText(
    'Connected to fal.ai: the service accepted your key. New tasks go there.',
  );
  await expect(consent.or(done)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(done).toBeVisible();
  await expect(panel).toBeHidden();
  await expect(banner).toBeHidden();

  // The compose form sends to fal.ai now; the prompt has the focus.
  const form = composeForm(page);
  await expect(form.getByLabel('Service')).toHaveValue('fal');
  await expect(form.getByLabel('Prompt', { exact: true })).toBeFocused();

  // Settings' index: fal.ai connected and checked, Replicate without a key.
  await showScreen(page, 'Settings');
  const index = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(index.getByRole('link', { name: /^fal\.ai/ })).toContainText(
    'Connected, key checked',
  );
  await expect(index.getByRole('link', { name: /^Replicate/ })).toContainText('No key');

  // A service without a key: marked in the Service list, named under the form, one click away.
  await showScreen(page, 'Tasks');
  const choice = form.getByLabel('Service');
  await expect(choice.locator('option', { hasText: 'Replicate (no key)' })).toHaveCount(1);
  await expect(choice.locator('option', { hasText: 'fal.ai (no key)' })).toHaveCount(0);
  await choice.selectOption({ value: 'replicate' });
  await expect(form).toContainText(
    'Pictor has no API key for Replicate yet, so nothing can be sent there.',
  );
  await form.getByRole('link', { name: 'Add your Replicate key' }).click();
  await expect(page.getByLabel('Replicate API key')).toBeFocused();

  // Back to fal.ai: the notice goes with the service it named.
  await showScreen(page, 'Tasks');
  await choice.selectOption({ value: 'fal' });
  await expect(form.getByRole('link', { name: /^Add your/ })).toHaveCount(0);

  await expectNotInPage(page, KEY);
  // The check went to the address the key was entered for, with fal's own header.
  const log = await fal.log();
  expect(log.requests.length).toBeGreaterThan(0);
  for (const request of log.requests) {
    if (request.auth)
      expect(request.auth).toEqual({ header: 'authorization', value: `Key ${KEY}` });
  }
  expect(log.submits).toHaveLength(0);
});
