/**
 * Journey 34, one name for a service chosen to send to: the compare dialog's Service boxes name
 * each service as the compose form's Service box does (the built-in demo standing in for today's
 * contract, a service without a key), so a target reads the same wherever it is chosen.
 *
 * Only a browser shows here: the real app's two boxes side by side.
 */
import { expect, test } from '@playwright/test';
import { useAppSession } from './support/session';
import { composeForm, showScreen } from './support/ui';

const session = useAppSession('service-choices');

test('the compare dialog names every service as the compose form’s Service box does', async () => {
  const { page } = await session.launch();
  await showScreen(page, 'Tasks');
  const compose = composeForm(page).getByLabel('Service', { exact: true });
  await expect(compose.locator('option:checked')).toHaveText('Image task service (demo)');
  const offered = await compose.locator('option').allInnerTexts();
  expect(offered).toContain('fal.ai (no key)');
  await composeForm(page).getByRole('button', { name: 'Compare…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare on several services' });
  const first = dialog.getByLabel('Service', { exact: true }).first();
  await expect(first.locator('option:checked')).toHaveText('Image task service (demo)');
  expect(await first.locator('option').allInnerTexts()).toEqual(offered);
});
