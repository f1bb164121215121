/**
 * Journey 14, a clean console: loading the app and going through its screens logs no error and
 * no Content-Security-Policy violation (zod runs jitless in the page, so it never probes
 * `new Function` under `script-src 'self'`).
 *
 * Only a browser shows here: the browser's console and its Content-Security-Policy reports while
 * every screen loads.
 */
import { expect, test } from '@playwright/test';
import { useAppSession } from './support/session';
import { composeForm, showScreen } from './support/ui';

const session = useAppSession('console');

test('the app and its screens log no error and break no CSP rule', async () => {
  const { page } = await session.launch();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|unsafe-eval/i.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.reload();
  await expect(composeForm(page).getByLabel('Prompt', { exact: true })).toBeVisible();
  for (const screen of ['Gallery', 'Settings', 'Tasks'] as const) await showScreen(page, screen);
  await composeForm(page).getByLabel('Prompt', { exact: true }).fill('a quiet console');
  await composeForm(page)
    .getByRole('button', { name: /^Generate/ })
    .click();
  await expect(page.getByText('a quiet console').first()).toBeVisible();
  expect(problems).toEqual([]);
});
