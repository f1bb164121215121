/**
 * Journey 24, Test connection tells the truth: the built-in demo says it needs no key; a site that
 * answers 404 to everything is not taken for an image service (Test connection reads "No image
 * service of this kind answers at <address>"), and Save, which asks the same question first,
 * stores nothing there without the user's word; a fal.ai key saved without checking reads "not
 * checked yet", with no tick, and its Test connection says the same of its own 404 site.
 *
 * Only a browser shows here: Test connection against real sites on loopback (a 404 site, the demo),
 * through the page's panel as a user clicks it.
 */
import { expect, test } from '@playwright/test';
import { startServer, type TestServer } from '../../support/http-servers';
import { useAppSession } from './support/session';
import { keySection, showScreen } from './support/ui';

const KEY = 'sk-e2e-connection-3f9a1c7d52';
const FAL_KEY = 'fal-e2e-connection-8b2d61e4';

/** A site that answers 404 to every request, as a plain web server with nothing there does. */
function notFoundSite(): Promise<TestServer> {
  return startServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not Found');
  });
}

let site: TestServer;
let falSite: TestServer;
test.beforeAll(async () => {
  [site, falSite] = await Promise.all([notFoundSite(), notFoundSite()]);
});
test.afterAll(async () => {
  await Promise.all([site.close(), falSite.close()]);
});

const session = useAppSession('connection');

test('Test connection against a 404 site says no image service of this kind answers there', async () => {
  const { page } = await session.launch();
  await showScreen(page, 'Settings');
  const section = keySection(page);

  // No address: the built-in demo service, which needs no key and says so.
  await section.getByRole('button', { name: 'Test connection' }).click();
  await expect(section.getByRole('status')).toContainText(
    'The built-in demo service answers. It needs no key',
  );

  // The 404 site as the service address, and a key typed: the test asks the site and says what it is.
  const service = page.locator('#settings-service-pictor');
  await service.getByLabel('Service address (base URL)').fill(site.origin);
  await service.getByRole('button', { name: 'Save' }).click();
  await expect(service.getByRole('button', { name: 'Save' })).toBeDisabled();
  await section.getByLabel('API key', { exact: true }).fill(KEY);
  await section.getByRole('button', { name: 'Test connection' }).click();
  const notThere = `No image service of this kind answers at ${site.origin}.`;
  await expect(section.getByRole('alert')).toContainText(notThere);
  await expect(section.getByRole('alert')).not.toContainText(/accepted|task/);

  // Save asks the same question first: nothing is stored unless the user says so.
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const ask = page.getByRole('alertdialog', { name: 'Save the key without checking it?' });
  await expect(consent.or(ask)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(ask).toContainText(notThere);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByText(/^A key is stored/)).toHaveCount(0);

  // fal.ai at its own 404 site: saved without checking, "not checked yet" and no tick.
  const fal = page.getByRole('region', { name: 'fal.ai' });
  await fal.getByLabel('Address', { exact: true }).fill(falSite.origin);
  await fal.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(fal.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await fal.getByLabel('fal.ai API key').fill(FAL_KEY);
  await fal.getByRole('button', { name: 'Save key' }).click();
  const falConsent = fal.getByRole('button', { name: 'Store with weaker protection' });
  await expect(falConsent.or(ask)).toBeVisible();
  if (await falConsent.isVisible()) await falConsent.click();
  await expect(ask).toContainText(`No image service of this kind answers at ${falSite.origin}.`);
  await ask.getByRole('button', { name: 'Save anyway' }).click();
  await expect(fal.getByText(/^A key is stored/)).toBeVisible();
  await expect(fal.getByText(/^Not checked yet:/)).toBeVisible();
  await expect(fal.getByText(/accepted this key/)).toHaveCount(0);
  await fal.getByRole('button', { name: 'Test connection' }).click();
  await expect(fal.getByRole('alert')).toContainText(
    `No image service of this kind answers at ${falSite.origin}.`,
  );

  // Each key went to its own site only. The stored one is nowhere in the page; the one not
  // saved is still in its (masked) field, for the user to try another address, and nowhere else.
  const carried = (server: TestServer, key: string) =>
    server.requests.filter((request) => JSON.stringify(request.headers).includes(key)).length;
  expect(carried(site, KEY)).toBeGreaterThan(0);
  expect(carried(falSite, FAL_KEY)).toBeGreaterThan(0);
  expect(carried(site, FAL_KEY)).toBe(0);
  expect(carried(falSite, KEY)).toBe(0);
  expect(await page.content()).not.toContain(FAL_KEY);
  await expect(section.getByLabel('API key', { exact: true })).toHaveValue(KEY);
  expect(await page.locator('body').innerText()).not.toContain(KEY);
});
