/**
 * Journey 28, triage by keyboard: twenty images from the built-in demo service are rated (Shift
 * with a digit rates and moves on), picked and rejected, tagged all at once (Ctrl+A, T) and filed
 * into a new board through the target board (Ctrl+B, B); the gallery's filters become a smart
 * board; the Triage view purges the rejects after its question, and Ctrl+Z brings them back. In
 * English and in Arabic (right to left, where the keys are the same places), and axe finds no
 * serious violation in the light or the dark theme on the way.
 *
 * Only a browser shows here: keyboard triage with real key events in English and right to left, and
 * axe on the way.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { uiText } from './support/catalogue';
import { useAppSession } from './support/session';
import { composeForm, galleryFilters, showScreen } from './support/ui';

/** The grid's tiles, whatever the language names the grid. */
const tilesOf = (page: Page) => page.getByRole('grid').getByRole('gridcell');

const session = useAppSession('triage');
const PROMPTS = ['A harbour at dawn, boats in mist', 'A lighthouse over a stormy sea'];
const PER_PROMPT = 10;
const IMAGES = PROMPTS.length * PER_PROMPT;

/** Twenty tasks of one image each, ten per prompt, every one saved. */
async function twentyImages(page: Page): Promise<void> {
  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  for (const prompt of PROMPTS) {
    await form.getByLabel('Number of tasks', { exact: true }).fill(String(PER_PROMPT));
    await form.getByLabel('Prompt', { exact: true }).fill(prompt);
    await form.getByRole('button', { name: /^Generate/ }).click();
    await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue('');
  }
  // A submit of ten shows as one batch card over its rows: the gallery counts the images.
  await showScreen(page, 'Gallery');
  await expect(page.locator('.gallery-tile__image')).toHaveCount(IMAGES, { timeout: 60_000 });
}

/** The language and the theme, from Settings, in the words of the language shown. */
async function choose(page: Page, tag: string, theme: 'light' | 'dark', language?: string) {
  await page
    .getByRole('navigation')
    .getByRole('button', { name: new RegExp(uiText(tag, 'nav.settings')) })
    .click();
  if (language) {
    await page
      .getByLabel(uiText(tag, 'settings.language.label'), { exact: true })
      .selectOption({ label: language });
  }
  const text = (key: string) => uiText(language === 'العربية' ? 'ar' : tag, key);
  await page.getByRole('radio', { name: text(`settings.theme.${theme}`) }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: new RegExp(text('nav.gallery')) })
    .click();
  await expect(tilesOf(page)).toHaveCount(IMAGES);
}

/** Presses `key` `times` times on whatever has the focus. */
async function press(page: Page, key: string, times = 1): Promise<void> {
  for (let n = 0; n < times; n += 1) await page.keyboard.press(key);
}

async function triageByKeyboard(page: Page, tag: string): Promise<void> {
  const tiles = tilesOf(page);
  const ratings = page.locator('.gallery-tile__rating');
  await tiles.first().focus();
  // Shift with a digit rates by the key's place and moves to the next tile.
  for (let n = 0; n < IMAGES; n += 1) await press(page, `Shift+Digit${String((n % 5) + 1)}`);
  await expect(ratings).toHaveCount(IMAGES);
  await expect(page.locator('.gallery-tile__rating[data-rating="5"]')).toHaveCount(IMAGES / 5);
  await press(page, 'Home');
  await press(page, 'Shift+KeyP', 5);
  await press(page, 'Shift+KeyX', 5);
  await expect(page.locator('.gallery-tile--rejected')).toHaveCount(5);

  // Every image tagged at once: Ctrl+A, then T on the focused tile.
  await press(page, 'ControlOrMeta+KeyA');
  await press(page, 'KeyT');
  const tags = page.getByRole('dialog');
  await tags.getByRole('combobox').or(tags.getByRole('textbox')).first().fill('harbour');
  await press(page, 'Enter');
  await expect(tags).toContainText('harbour');
  await press(page, 'Escape');
  await expect(tags).toHaveCount(0);

  // A new board, chosen as the target by typing (Ctrl+B), then B files the selection into it.
  await page.getByRole('button', { name: uiText(tag, 'triage.boards.new') }).click();
  const create = page.getByRole('dialog');
  await create.getByRole('textbox').fill('Harbour');
  await press(page, 'Enter');
  await expect(create).toHaveCount(0);
  await tiles.first().focus();
  await press(page, 'ControlOrMeta+KeyB');
  const chooser = page.getByRole('dialog');
  await chooser.getByRole('combobox').or(chooser.getByRole('textbox')).first().fill('harb');
  await press(page, 'Enter');
  await expect(chooser).toHaveCount(0);
  await tiles.first().focus();
  await press(page, 'KeyB');
  await expect(page.getByRole('treeitem', { name: /Harbour/ })).toContainText(/20|٢٠/);
  await press(page, 'Escape');
}

async function smartBoardAndPurge(page: Page, tag: string): Promise<void> {
  // Rated four or more: a smart board of the filter.
  await (
    await galleryFilters(page)
  )
    .getByLabel(uiText(tag, 'triage.filter.rating'), { exact: true })
    .selectOption('4');
  await expect(tilesOf(page)).toHaveCount((IMAGES / 5) * 2);
  await page.getByRole('button', { name: uiText(tag, 'triage.smart.save') }).click();
  const save = page.getByRole('dialog');
  await save.getByRole('textbox').fill('Best');
  await press(page, 'Enter');
  await expect(save).toHaveCount(0);
  await expect(
    page
      .getByRole('tree', { name: uiText(tag, 'triage.sidebar.smart') })
      .getByRole('treeitem', { name: 'Best' }),
  ).toBeVisible();
  await page.getByRole('treeitem', { name: new RegExp(uiText(tag, 'triage.sidebar.all')) }).click();
  await (
    await galleryFilters(page)
  )
    .getByLabel(uiText(tag, 'triage.filter.rating'), { exact: true })
    .selectOption('0');
  await expect(tilesOf(page)).toHaveCount(IMAGES);

  // The Triage view: Ctrl+Delete asks, then the rejects go to the trash; Ctrl+Z brings them back.
  await tilesOf(page).first().focus();
  await press(page, 'ControlOrMeta+Shift+KeyT');
  const view = page.getByRole('dialog', { name: uiText(tag, 'triage.view.label') });
  await expect(view).toBeVisible();
  await expectAccessible(page, `Triage view (${tag})`);
  await press(page, 'Control+Delete');
  const question = page.getByRole('alertdialog');
  await question.getByRole('button', { name: uiText(tag, 'triage.purge.confirm') }).click();
  await expect(question).toHaveCount(0);
  await expect(tilesOf(page)).toHaveCount(IMAGES - 5);
  await view.focus();
  await press(page, 'Control+KeyZ');
  await expect(tilesOf(page)).toHaveCount(IMAGES);
  // The view kept the focus through the Undo: Escape is its own.
  await expect(view).toBeFocused();
  await press(page, 'Escape');
  await expect(view).toHaveCount(0);
}

test('triage by keyboard in English: rate, flag, tag, board, a smart board, purge and Undo; axe-clean in both themes', async () => {
  const { page } = await session.launch({ colorScheme: 'light' });
  await twentyImages(page);
  await triageByKeyboard(page, 'en');
  await expectAccessible(page, 'gallery with triage marks (light)');
  await smartBoardAndPurge(page, 'en');
  await choose(page, 'en', 'dark');
  await expectAccessible(page, 'gallery with triage marks (dark)');
});

test('triage by keyboard in Arabic, right to left: the same keys, axe-clean in both themes', async () => {
  const { page } = await session.launch({ colorScheme: 'dark' });
  await twentyImages(page);
  await choose(page, 'en', 'dark', 'العربية');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await triageByKeyboard(page, 'ar');
  await expectAccessible(page, 'gallery with triage marks in Arabic (dark)');
  await smartBoardAndPurge(page, 'ar');
  await choose(page, 'ar', 'light');
  await expectAccessible(page, 'gallery with triage marks in Arabic (light)');
});
