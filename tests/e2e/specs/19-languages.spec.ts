/**
 * Languages: the window follows the system's language, a choice in Settings applies
 * at once (no restart) and survives one, a right-to-left language mirrors the layout and stays
 * accessible. Also the pictures of the main screens in German, Arabic and the pseudo-locale
 * (longer, accented strings: what gets cut off). Names on the page are read from each locale's
 * catalogue, as a user of that language reads them.
 *
 * Only a browser shows here: the system language the browser reports, right-to-left layout mirrored
 * by real CSS, and pictures of the longest strings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEFAULT_VIEWPORT } from '../harness/launch-app';
import { REPO_ROOT } from '../harness/repo-paths';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import { expectAccessible } from './support/axe';
import { dismissConfirmations, SCREENSHOT_DIR } from './support/screenshots';
import { useAppSession } from './support/session';
import { expectLoadedImage, generateAll, showScreen, taskRows } from './support/ui';

const session = useAppSession('languages');

type Messages = Readonly<Record<string, string>>;

function messagesOf(tag: string): Messages {
  const path = join(REPO_ROOT, 'renderer', 'i18n', 'locales', `${tag}.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as Messages;
}

const GERMAN = messagesOf('de');
/** The main process's catalogue in German (its error sentences). */
const MAIN_GERMAN = JSON.parse(
  readFileSync(join(REPO_ROOT, 'shared', 'i18n', 'main-locales', 'de.json'), 'utf8'),
) as Messages;
const ARABIC = messagesOf('ar');

function message(messages: Messages, key: string): string {
  const text = messages[key];
  if (!text) throw new Error(`${key} is not translated`);
  return text;
}

function nav(page: Page, messages: Messages) {
  return page.getByRole('navigation', { name: message(messages, 'nav.label') });
}

function navButton(page: Page, messages: Messages, key: string) {
  return nav(page, messages).getByRole('button', {
    name: new RegExp(`^${message(messages, key)}`),
  });
}

/**
 * Settings → Language, chosen by the option's own name (each language names itself), until its
 * "Saved." shows, in that language (`tag`). The confirmation comes once main has stored the
 * choice, after the window already reads in the language (use-setting-save.ts): a picture taken
 * as soon as the language shows would have it coming, drawn in or not.
 */
async function chooseLanguage(
  page: Page,
  label: string,
  optionName: string,
  tag: string,
): Promise<void> {
  await page.getByLabel(label, { exact: true }).selectOption({ label: optionName });
  const saved =
    tag === 'en-XA' ? pseudoMessage('Saved.') : message(messagesOf(tag), 'settings.saved');
  await expect(page.locator('.status-area').getByText(saved, { exact: true })).toBeVisible();
}

test('follows the system language at first start', async () => {
  const { page } = await session.launch({ locale: 'de-DE' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(navButton(page, GERMAN, 'nav.tasks')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Tasks/ })).toHaveCount(0);
});

test('a refusal the main process words reads in the chosen language', async () => {
  const { page } = await session.launch({ locale: 'de-DE' });
  await navButton(page, GERMAN, 'nav.settings').click();
  // Exact: the other services' sections below have names that hold the same words.
  const service = page.getByRole('region', {
    name: message(GERMAN, 'service.pictor'),
    exact: true,
  });
  await service.getByLabel(message(GERMAN, 'settings.baseUrl.label')).fill('ftp://example.test');
  await service.getByRole('button', { name: message(GERMAN, 'common.save') }).click();
  // The main process refuses the address (a UrlPolicyError); its sentence comes from the main
  // catalogue in German, not the English words the error's message holds.
  const german = MAIN_GERMAN['error.service.serviceUrlScheme'];
  expect(german).toBeTruthy();
  await expect(service.getByText(german!, { exact: true })).toBeVisible();
  await expect(page.getByText('The service URL must start with https://.')).toHaveCount(0);
});

test('a language chosen in Settings applies at once, mirrors right-to-left and survives a restart', async () => {
  const app = await session.launch();
  let page = app.page;
  await showScreen(page, 'Settings');
  await chooseLanguage(page, 'Language', 'العربية', 'ar');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(html).toHaveAttribute('lang', 'ar');
  await expect(navButton(page, ARABIC, 'nav.settings')).toHaveAttribute('aria-current', 'page');

  // Mirrored: the sidebar sits at the right edge of the window.
  const box = await nav(page, ARABIC).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x + box!.width).toBeGreaterThan(DEFAULT_VIEWPORT.width - 4);
  expect(box!.x).toBeGreaterThan(DEFAULT_VIEWPORT.width / 2);
  await expectAccessible(page, 'settings in Arabic');

  page = await app.restart();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await navButton(page, ARABIC, 'nav.settings').click();
  await chooseLanguage(page, message(ARABIC, 'settings.language.label'), 'Deutsch', 'de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(navButton(page, GERMAN, 'nav.gallery')).toBeVisible();
  const ltrBox = await nav(page, GERMAN).boundingBox();
  expect(ltrBox!.x).toBeLessThan(4);
});

const OUT_DIR = SCREENSHOT_DIR;

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(OUT_DIR, `${name}.png`);
  await dismissConfirmations(page);
  await page.mouse.move(0, DEFAULT_VIEWPORT.height - 1);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide', scale: 'css' });
  expect(await sharp(path).metadata()).toMatchObject({
    format: 'png',
    width: DEFAULT_VIEWPORT.width,
    height: DEFAULT_VIEWPORT.height,
  });
}

test('screenshots of the main screens in German, Arabic and the pseudo-locale', async () => {
  const { page } = await session.launch();
  await generateAll(page, ['A lighthouse on a rocky coast at dawn', 'A bowl of ramen with steam']);
  for (const row of await taskRows(page).all())
    await expectLoadedImage(row.getByRole('img').first());
  await showScreen(page, 'Settings');
  let label = 'Language';
  for (const [tag, optionName] of [
    ['de', 'Deutsch'],
    ['ar', 'العربية'],
    ['en-XA', 'Pseudo (ƥšéûđö)'],
  ] as const) {
    await chooseLanguage(page, label, optionName, tag);
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await shoot(page, `settings-${tag}`);
    const messages = tag === 'en-XA' ? null : messagesOf(tag);
    for (const [key, screen] of [
      ['nav.tasks', 'tasks'],
      ['nav.gallery', 'gallery'],
    ] as const) {
      const button = messages
        ? navButton(page, messages, key)
        : page
            .getByRole('navigation')
            .getByRole('button')
            .nth(key === 'nav.tasks' ? 0 : 1);
      await button.click();
      await expect(button).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('.app__view:not([hidden]) img').first()).toBeVisible();
      await shoot(page, `${screen}-${tag}`);
    }
    const settings = messages
      ? navButton(page, messages, 'nav.settings')
      : // Settings is the sidebar's last button (Costs before it).
        page.getByRole('navigation').getByRole('button').last();
    await settings.click();
    label = messages ? message(messages, 'settings.language.label') : pseudoMessage('Language');
  }
});
