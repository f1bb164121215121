/**
 * Journey 32, one name per service: a task's service reads the same on every screen that names
 * it. A task made on the built-in demo service is "Built-in demo service" in its task row, in the
 * image viewer's details and on the Costs screen (the demo speaks today's contract, whose own name
 * the viewer and Costs gave it before: the same task under two names); a task on the user's own
 * service is that service's name (its address's host) on all three. Where a service is chosen
 * or filtered the demo is named the same: the compose form's Service box while the demo stands in
 * for today's contract, and the task list's Service filter, which finds the demo's tasks under
 * the demo and not under the service it stood in for.
 *
 * Only a browser shows here: three screens of the real app read side by side over tasks the
 * services really ran.
 */
import { expect, test, type Page } from '@playwright/test';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  composeForm,
  generate,
  showScreen,
  statusBadge,
  taskRow,
  tileFor,
  viewer,
} from './support/ui';

const KEY = 'sk-one-service-name-32';
const demo = useDemoProcess({ keys: [`ada:${KEY}`], durationMs: 300 });
const session = useAppSession('service-names');

/** The service each of the three screens names for the task of `prompt`. */
async function namesOf(page: Page, prompt: string): Promise<Record<string, string>> {
  await showScreen(page, 'Tasks');
  const row = taskRow(page, prompt);
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  // The row's first line of facts: "<service> · 1024×1024 · Auto · <date> · <cost>".
  const facts = (await row.locator('.task-row__meta').innerText()).split(' · ');

  await showScreen(page, 'Gallery');
  await tileFor(page, prompt).dblclick();
  const details = viewer(page)
    .locator('.viewer-details__row')
    .filter({ hasText: /^Service/ });
  const inViewer = (await details.locator('dd').innerText()).trim();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();

  await showScreen(page, 'Costs');
  const entry = page.locator('.costs-table').getByRole('row').filter({ hasText: prompt });
  const inCosts = (await entry.getByRole('cell').nth(2).innerText()).trim();
  return { tasks: facts[0] ?? '', viewer: inViewer, costs: inCosts };
}

test('a built-in demo task is the demo on the task row, in the viewer and on Costs', async () => {
  const { page } = await session.launch();
  const prompt = 'A tin robot watering tulips, demo service name';
  await generate(page, prompt);
  const name = 'Built-in demo service';
  expect(await namesOf(page, prompt)).toEqual({ tasks: name, viewer: name, costs: name });
});

test('a task on the user’s own service bears its name on all three screens', async () => {
  const { page } = await session.launchConnected(demo.url, KEY);
  const prompt = 'A copper kettle on a stove, own service name';
  await showScreen(page, 'Tasks');
  await generate(page, prompt);
  const name = new URL(demo.url).host;
  expect(await namesOf(page, prompt)).toEqual({ tasks: name, viewer: name, costs: name });
});

test('the compose form’s Service box and the task list’s filter name the demo as its rows do', async () => {
  const { page } = await session.launch();
  const prompt = 'A paper boat on a puddle, demo filter';
  await showScreen(page, 'Tasks');
  const box = composeForm(page).getByLabel('Service', { exact: true });
  await expect(box.locator('option:checked')).toHaveText('Image task service (demo)');
  await generate(page, prompt);
  await expect(statusBadge(taskRow(page, prompt))).toHaveText('Completed', { timeout: 30_000 });
  const filter = page
    .getByRole('toolbar', { name: 'Filter by status' })
    .getByLabel('Service', { exact: true });
  await filter.selectOption({ label: 'Image task service' });
  await expect(taskRow(page, prompt)).toHaveCount(0, { timeout: 10_000 });
  await filter.selectOption({ label: 'Built-in demo service' });
  await expect(taskRow(page, prompt)).toBeVisible({ timeout: 10_000 });
});
