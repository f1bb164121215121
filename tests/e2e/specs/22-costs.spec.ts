/**
 * Journey 22, costs: a price and a hard spending cap set in Settings hold, whatever the history
 * holds. Two tasks are billed; the form forecasts in time that a third would pass the cap, with
 * Generate marked blocked; both tasks are removed (the question says what was spent stays
 * spent); the third is still refused in main, said once, nothing sent; the Costs screen still
 * lists both with their prompts, saying they were removed. The Costs screen passes axe in the
 * light and the dark theme and in Arabic (right to left), with a picture of each.
 *
 * Tasks go to a demo service process on loopback (the built-in demo's tasks are free, and a cap
 * has nothing to count there).
 *
 * Only a browser shows here: the Costs screen through axe in both themes and right to left, with
 * pictures; the cap refused in main against a real service process.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { SCREENSHOT_DIR } from './support/screenshots';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  composeForm,
  expectLoadedImage,
  generate,
  showScreen,
  statusBadge,
  taskRow,
  taskRows,
} from './support/ui';

const KEY = 'sk-costs-journey-22';
const demo = useDemoProcess({ keys: [`ada:${KEY}`], durationMs: 500 });
const session = useAppSession('costs');

const KITE = 'A red kite over the dunes';
const BOAT = 'A blue boat in the harbour';
const LANTERN = 'A green lantern in the fog';
const LIBRARY = 'A quiet library at noon';

/** Settings › Costs: a price of 0.02 USD per image for the service tasks go to. */
async function setPrice(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  const prices = page.getByRole('form', { name: 'Prices' });
  // The user's own service is named by its address's host.
  const host = new URL(demo.url).host;
  await prices.getByLabel('Service').selectOption({ label: host });
  // As people type it: a currency sign and a leading point.
  await prices.getByLabel('Amount').fill('$.02');
  await prices.getByRole('button', { name: 'Set price' }).click();
  await expect(page.getByText(`${host}, every model: $0.02 per image`)).toBeVisible();
}

/** Settings › Costs: a hard daily cap of 0.05 USD over every service. */
async function setHardCap(page: Page): Promise<void> {
  const caps = page.getByRole('form', { name: 'Spending caps' });
  await caps.getByLabel('Amount').fill('0.05');
  await caps.getByLabel('Kind').selectOption({ label: 'Hard: refuse' });
  await caps.getByRole('button', { name: 'Set cap' }).click();
  await expect(page.getByText(/^Hard cap per day, All services: \$0\.05\./)).toBeVisible();
}

/** Removes a task from its row, through the question, which says what was spent stays spent. */
async function remove(page: Page, prompt: string): Promise<void> {
  await taskRow(page, prompt).getByRole('button', { name: 'Remove from history' }).click();
  const question = page.getByRole('alertdialog', { name: 'Remove this task from the history?' });
  await expect(question).toContainText('what was spent stays spent');
  await question.getByRole('button', { name: 'Remove' }).click();
  await expect(taskRow(page, prompt)).toHaveCount(0);
}

test('price and hard cap set, two tasks billed, both removed, a third refused', async () => {
  const { page } = await session.launchConnected(demo.url, KEY);
  await setPrice(page);
  await setHardCap(page);
  await showScreen(page, 'Tasks');
  await generate(page, KITE);
  await generate(page, BOAT);
  for (const prompt of [KITE, BOAT])
    await expect(statusBadge(taskRow(page, prompt))).toHaveText('Completed', { timeout: 30_000 });

  // In time: the form says what a third would do, and Generate shows it is blocked.
  const form = composeForm(page);
  const forecast =
    'Generating this (about $0.02) would pass your daily cap of $0.05; $0.04 spent today.';
  await expect(form.getByText(forecast)).toBeVisible();
  const button = form.getByRole('button', { name: /^Generate/ });
  await expect(button).toContainText('over your hard cap');
  await expect(button).toHaveAccessibleDescription(new RegExp(forecast.replace(/[$().]/g, '\\$&')));
  await expect(form.getByText(/Nothing was sent/)).toHaveCount(0);

  // Removing what was billed changes nothing of what was spent.
  await remove(page, KITE);
  await remove(page, BOAT);
  await expect(taskRows(page)).toHaveCount(0);
  await expect(form.getByText(forecast)).toBeVisible();

  await form.getByLabel('Prompt', { exact: true }).fill(LANTERN);
  await button.click();
  // The cap first: what it spent, what this submit adds.
  const refusal = form
    .getByRole('alert')
    .getByText(
      'Nothing was sent: $0.04 of your daily hard cap of $0.05 is spent, and this submit adds about $0.02.',
    );
  await expect(refusal).toBeVisible();
  // Said once: the forecast keeps quiet while the refusal says it.
  await expect(form.getByText(forecast)).toHaveCount(0);
  await expect(taskRows(page)).toHaveCount(0);
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(LANTERN);
  expect((await demo.tasks()).map((task) => task.prompt).sort()).toEqual([BOAT, KITE]);

  await showScreen(page, 'Costs');
  await expect(page.getByRole('heading', { name: 'Totals' })).toBeVisible();
  await expect(page.locator('.costs-totals__amount')).toHaveText(['$0.04']);
  const list = page.locator('.costs-table');
  for (const prompt of [KITE, BOAT]) {
    const row = list.getByRole('row').filter({ hasText: prompt });
    await expect(row).toContainText('Removed from the history');
    await expect(row).toContainText('$0.02');
    await expect(row.getByRole('button')).toHaveCount(0);
  }
});

const LOOKS = [
  { name: 'light', colorScheme: 'light', locale: 'en-US', nav: 'Costs' },
  { name: 'dark', colorScheme: 'dark', locale: 'en-US', nav: 'Costs' },
  { name: 'arabic', colorScheme: 'light', locale: 'ar-EG', nav: 'التكاليف' },
] as const;

for (const look of LOOKS) {
  test(`the Costs screen passes axe (${look.name})`, async () => {
    const { page } = await session.launchConnected(demo.url, KEY, {
      colorScheme: look.colorScheme,
    });
    await setPrice(page);
    await showScreen(page, 'Tasks');
    await generate(page, LIBRARY);
    await expect(statusBadge(taskRow(page, LIBRARY))).toHaveText('Completed', { timeout: 30_000 });
    if (look.locale !== 'en-US') {
      await showScreen(page, 'Settings');
      await page.getByLabel('Language', { exact: true }).selectOption({ label: 'العربية' });
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    }
    await page
      .getByRole('navigation')
      .getByRole('button', { name: new RegExp(`^${look.nav}`) })
      .click();
    await expect(page.locator('.costs-totals__amount').first()).toBeVisible();
    // The task by its prompt and its thumbnail, which opens it.
    const task = page.locator('.costs-task').first();
    await expect(task.locator('.costs-task__prompt')).toHaveText(LIBRARY);
    await expectLoadedImage(task.locator('img'));
    await expectAccessible(page, `costs (${look.name})`);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `costs-${look.name}.png`) });
  });
}
