/**
 * Journey 37, one fact told one way on every screen (the seams session 39's walk left): a user
 * gives Pictor their service's address but no key yet, and the compose form's Service box and
 * Settings both say the service has no key and Generate uses the built-in demo. With the key
 * saved, the spending caps say the demo is free and no cap counts it (it is no choice there). An
 * image made at a custom size reads the same size in its task's details and the viewer's facts,
 * one way written. Then the computer goes offline and the service's badge says so, and when the
 * key was last checked, instead of "Connected"; back online, it is connected again.
 *
 * The same words hold at 800x600 in German and the pseudo-locale: no control cut, no badge
 * wider than its place; and, online with the service's port closed (its connections refused),
 * "Service unreachable" once Test connection found it so (core/service/service-reach.ts); and,
 * started again with the key's storage not answering (a keyring prompt left open), "Waiting for
 * your key" in Settings and "… (waiting for key)" in the compose form's Service box.
 *
 * Only a browser shows here: the words a user reads side by side on the real screens, and their
 * room at 800x600.
 */
import { expect, test, type Page } from '@playwright/test';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import { KEYRING_HELD_ENV } from '../harness/test-cipher';
import { uiText } from './support/catalogue';
import { crampedControls } from './support/layout';
import { useDemoProcess } from './support/service';
import { FAST_ENV, useAppSession } from './support/session';
import {
  closeDialog,
  composeForm,
  expectLoadedImage,
  generate,
  saveKey,
  openDetails,
  showGalleryOf,
  showScreen,
  taskRows,
  tileFor,
  viewer,
  viewerImage,
} from './support/ui';

const KEY = 'sk-e2e-told-alike';
const PROMPT = 'A heron on a wide grey shore';
const demo = useDemoProcess({ keys: [`me:${KEY}`], durationMs: 200 });
const session = useAppSession('told-alike');
/** The compose form's name of a service whose stored key waits for the OS's storage. */
const WAITING = 'compose.service.waiting';

/** Settings › today's contract's section (address, name, state). */
function ownService(page: Page) {
  return page.locator('#settings-service-pictor');
}

/** The value beside `label` in a list of facts (the viewer's, a task's details). */
function fact(facts: ReturnType<Page['locator']>, label: string) {
  return facts.locator('div').filter({ has: facts.page().getByText(label, { exact: true }) });
}

test('a service’s standing, the demo’s caps and a size read the same on every screen, offline too', async () => {
  test.setTimeout(120_000);
  const { page } = await session.launch();
  const host = new URL(demo.url).host;

  // An address, no key: the compose form and Settings both say Generate uses the demo.
  await showScreen(page, 'Settings');
  await ownService(page).getByLabel('Service address (base URL)').fill(demo.url);
  await ownService(page).getByRole('button', { name: 'Save' }).click();
  await expect(ownService(page).getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(ownService(page)).toContainText('No key: Generate uses the built-in demo');
  const index = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(index.getByRole('link', { name: new RegExp(`^${host}`) })).toHaveText(
    `${host} No key: Generate uses the built-in demo`,
  );
  await showScreen(page, 'Tasks');
  const choice = composeForm(page).getByLabel('Service', { exact: true });
  await expect(choice.locator('option:checked')).toHaveText(`${host} (no key: demo)`);

  // The key saved and checked: the service itself, connected.
  await showScreen(page, 'Settings');
  await saveKey(page, KEY);
  await expect(ownService(page)).toContainText('Connected, key checked');

  // The caps: the demo is no choice of service, and the screen says why.
  const caps = page.getByRole('form', { name: 'Spending caps' });
  const capServices = await caps.getByLabel('Service', { exact: true }).locator('option').all();
  for (const option of capServices) await expect(option).not.toHaveText(/demo/i);
  await expect(
    page.getByText(
      'Tasks on the built-in demo are free: no cap counts them or stops them, so it is not listed here.',
      { exact: true },
    ),
  ).toBeVisible();

  // A size asked for reads the same in the task's details and in the viewer's facts.
  await showScreen(page, 'Tasks');
  await expect(choice.locator('option:checked')).toHaveText(host);
  await generate(page, PROMPT, { customSize: '1536x1024' });
  await expect(
    taskRows(page).filter({ has: page.getByText('Completed', { exact: true }) }),
  ).toHaveCount(1, { timeout: 30_000 });
  const details = await openDetails(page, PROMPT);
  await expect(details).toContainText('1536×1024');
  await expect(details).not.toContainText('1,536');
  await closeDialog(details);
  await showGalleryOf(page, [PROMPT]);
  await tileFor(page, PROMPT).getByRole('img').dblclick();
  await expectLoadedImage(viewerImage(page));
  const show = viewer(page).getByRole('button', { name: 'Show details' });
  if (await show.isVisible()) await show.click();
  const facts = viewer(page).locator('dl');
  await expect(fact(facts, 'Requested size').locator('dd')).toHaveText('1536×1024');
  await expect(fact(facts, 'Dimensions').locator('dd')).toHaveText('1536×1024 pixels');
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();

  // Offline: the badge says what is true now, from the state the banner reads.
  if (session.app.host === 'chromium') {
    await demo.goOffline();
    try {
      session.app.setNetworkOnline(false);
      await showScreen(page, 'Settings');
      await expect(ownService(page)).toContainText(
        /Offline; key accepted when last checked, \w{3} \d{1,2}, \d{4}/,
      );
      await expect(ownService(page)).not.toContainText('Connected, key checked');
      await expect(page.getByRole('region', { name: 'Offline' })).toBeVisible();
    } finally {
      await demo.goOnline();
    }
    session.app.setNetworkOnline(true);
    await expect(ownService(page)).toContainText('Connected, key checked');
  }
});

/**
 * The service badges whose words are cut: wider than their own box, or reaching past the window
 * or past an ancestor that clips what overflows it (Settings' index scrolls, so a badge running
 * out of it is cut there, not at the window's edge).
 */
function badgesCut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    /** Whether `badge` reaches out of an ancestor's box where that ancestor clips its overflow. */
    const clipped = (badge: HTMLElement) => {
      const { left, right } = badge.getBoundingClientRect();
      for (let box = badge.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX === 'visible') continue;
        const start = box.getBoundingClientRect().left + box.clientLeft;
        if (left < start - 1 || right > start + box.clientWidth + 1) return true;
      }
      return false;
    };
    return [...document.querySelectorAll<HTMLElement>('.service-state')]
      .filter((badge) => badge.getClientRects().length > 0)
      .filter(
        (badge) =>
          badge.scrollWidth > badge.clientWidth + 1 ||
          badge.getBoundingClientRect().right > width + 1 ||
          clipped(badge),
      )
      .map((badge) => badge.textContent ?? '');
  });
}

for (const [tag, option, language] of [
  ['de', 'Deutsch', 'Sprache'],
  ['en-XA', 'Pseudo (ƥšéûđö)', pseudoMessage('Language')],
] as const) {
  test(`in ${tag} at 800x600 the new words fit: no key, offline, unreachable and waiting for the key`, async () => {
    test.setTimeout(120_000);
    const { page } = await session.launch({ viewport: { width: 800, height: 600 } });
    const host = new URL(demo.url).host;
    await showScreen(page, 'Settings');
    await ownService(page).getByLabel('Service address (base URL)').fill(demo.url);
    await ownService(page).getByRole('button', { name: 'Save' }).click();
    await expect(ownService(page).getByRole('button', { name: 'Save' })).toBeDisabled();
    await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await expect(page.getByLabel(language, { exact: true })).toBeVisible();
    await expect(page.locator('.service-state--demoNoKey').first()).toBeVisible();
    expect(await crampedControls(page)).toEqual([]);
    expect(await badgesCut(page)).toEqual([]);
    // The compose form's Service box names the service "… (no key: demo)" in full.
    await page.getByRole('navigation').getByRole('button').nth(0).click();
    await expect(page.locator('form.compose select').first()).toBeVisible();
    expect(await crampedControls(page)).toEqual([]);
    if (session.app.host === 'chromium') {
      // The key saved (the chromium host's cipher stores it without asking), then offline.
      await page.getByRole('navigation').getByRole('button').nth(3).click();
      await page.locator('.key-form').first().locator('input[type="password"]').fill(KEY);
      await page.locator('.key-form').first().locator('button[type="submit"]').click();
      await expect(page.locator('.key-stored__check').first()).toBeVisible();
      session.app.setNetworkOnline(false);
      await expect(page.locator('.service-state--offline').first()).toBeVisible();
      expect(await crampedControls(page)).toEqual([]);
      expect(await badgesCut(page)).toEqual([]);
      // Online again, the service's address refuses connections: Test connection finds it so.
      session.app.setNetworkOnline(true);
      await demo.goOffline();
      try {
        const test = tag === 'de' ? 'Verbindung testen' : pseudoMessage('Test connection');
        await page.getByRole('button', { name: test }).first().click();
        await expect(page.locator('.service-state--unreachable').first()).toBeVisible();
        expect(await crampedControls(page)).toEqual([]);
        expect(await badgesCut(page)).toEqual([]);
        // The compose form's Service box: "… (nicht erreichbar)" in full.
        await page.getByRole('navigation').getByRole('button').nth(0).click();
        await expect(page.locator('form.compose select').first()).toBeVisible();
        expect(await crampedControls(page)).toEqual([]);
      } finally {
        await demo.goOnline();
      }
      // Started again with the key's storage not answering (a keyring prompt left open): the
      // stored key waits, and its service says so (renderer/lib/service-key-state.ts: `waiting`).
      await session.close();
      const held = await session.launch({
        viewport: { width: 800, height: 600 },
        env: { ...FAST_ENV, [KEYRING_HELD_ENV]: '1' },
      });
      await expect(held.page.locator('html')).toHaveAttribute('lang', tag);
      const words = (key: string) =>
        tag === 'de' ? uiText('de', key) : pseudoMessage(uiText('en', key));
      const service = held.page.locator('form.compose').getByLabel(words('compose.service.label'), {
        exact: true,
      });
      await expect(service.locator('option:checked')).toHaveText(
        words(WAITING).replace('{service}', host),
      );
      expect(await crampedControls(held.page)).toEqual([]);
      await held.page.getByRole('navigation').getByRole('button').nth(3).click();
      await expect(held.page.locator('.service-state--waiting').first()).toHaveText(
        words('banner.keyWait.label'),
      );
      expect(await crampedControls(held.page)).toEqual([]);
      expect(await badgesCut(held.page)).toEqual([]);
    }
  });
}
