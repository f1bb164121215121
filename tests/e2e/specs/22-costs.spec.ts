/**
 * Journey 22, costs: a hard spending cap set in Settings holds: the submits under it go, the one
 * that would pass it is refused in main with the cap's sentence, nothing sent. The Costs screen
 * shows what was spent and passes axe in the light and the dark theme and in Arabic (right to
 * left), with a picture of each.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { SCREENSHOT_DIR } from './support/screenshots';
import { useAppSession } from './support/session';
import { composeForm, generate, showScreen, taskRows } from './support/ui';

const session = useAppSession('costs');

/** Settings › Costs: a price of 0.02 USD per image for the service tasks go to (the demo's). */
async function setPrice(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  const prices = page.getByRole('form', { name: 'Prices' });
  await prices.getByLabel('Service').selectOption({ label: 'Image task service' });
  await prices.getByLabel('Amount').fill('0.02');
  await prices.getByRole('button', { name: 'Set price' }).click();
  await expect(page.getByText('Image task service, every model: $0.02 per image')).toBeVisible();
}

/** Settings › Costs: a hard daily cap of 0.05 USD over every service. */
async function setHardCap(page: Page): Promise<void> {
  const caps = page.getByRole('form', { name: 'Spending caps' });
  await caps.getByLabel('Amount').fill('0.05');
  await caps.getByLabel('Kind').selectOption({ label: 'Hard: refuse' });
  await caps.getByRole('button', { name: 'Set cap' }).click();
  await expect(page.getByText(/^Hard cap per day, All services: \$0\.05\./)).toBeVisible();
}

test('a hard cap set in Settings refuses the submit that would pass it, with its sentence', async () => {
  const { page } = await session.launch();
  await setPrice(page);
  await setHardCap(page);
  await showScreen(page, 'Tasks');
  await generate(page, 'A red kite over the dunes');
  await generate(page, 'A blue boat in the harbour');
  await expect(taskRows(page)).toHaveCount(2);

  const form = composeForm(page);
  const refusal = /^Nothing was submitted: this would pass your daily spending cap of 0\.05 USD/;
  // The form says so before the submit, then the submit itself is refused in main.
  await expect(form.getByText(refusal)).toBeVisible();
  await form.getByLabel('Prompt', { exact: true }).fill('A green lantern in the fog');
  await form.getByRole('button', { name: /^Generate/ }).click();
  await expect(form.getByRole('alert').getByText(refusal)).toBeVisible();
  await expect(taskRows(page)).toHaveCount(2);
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(
    'A green lantern in the fog',
  );

  await showScreen(page, 'Costs');
  await expect(page.getByRole('heading', { name: 'Totals' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Per day, in USD' })).toBeVisible();
});

const LOOKS = [
  { name: 'light', colorScheme: 'light', locale: 'en-US', nav: 'Costs' },
  { name: 'dark', colorScheme: 'dark', locale: 'en-US', nav: 'Costs' },
  { name: 'arabic', colorScheme: 'light', locale: 'ar-EG', nav: 'التكاليف' },
] as const;

for (const look of LOOKS) {
  test(`the Costs screen passes axe (${look.name})`, async () => {
    const { page } = await session.launch({ colorScheme: look.colorScheme });
    await setPrice(page);
    await showScreen(page, 'Tasks');
    await generate(page, 'A quiet library at noon');
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
    await expectAccessible(page, `costs (${look.name})`);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `costs-${look.name}.png`) });
  });
}
