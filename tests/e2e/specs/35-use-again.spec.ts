/**
 * Journey 35, a request used again is the same request from every place: a task made on fal.ai
 * with a seed typed and kept, then "Use this prompt" from its task row and from the gallery's
 * image viewer each fill the compose form with that task's service, prompt and seed, the seed
 * kept. The viewer once called it "Use this prompt again" and filled the form from the image's
 * few fields (prompt, model, size, quality): the seed went, so Generate from there sent another
 * request than the one the task row's same action brings back.
 *
 * "Vary" stands among the viewer's image actions for a task whose model takes a seed (the rule
 * Task details asks, renderer/lib/can-vary.ts), and at 800x600 in German and the pseudo-locale
 * every one of those actions shows its whole words.
 *
 * Only a browser shows here: the real form filled from two screens, over a task a fal demo process
 * really ran with the seed it was sent; the viewer's actions measured in a real layout.
 */
import { expect, test, type Page } from '@playwright/test';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import { crampedControls } from './support/layout';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  composeForm,
  connectDialect,
  generate,
  showScreen,
  statusBadge,
  taskRow,
  tileFor,
  viewer,
} from './support/ui';

const FAL_KEY = 'fal-e2e-use-again-35-7d21';
const fal = useDemoProcess({ dialect: 'fal', keys: [`ada:${FAL_KEY}`], durationMs: 300 });
const session = useAppSession('use-again');

const PROMPT = 'A lantern in the fog, used again';
const SEED = '4242';

/** What the form holds that a request fills: service, prompt, seed and whether it is kept. */
async function formRequest(page: Page) {
  const form = composeForm(page);
  return {
    service: await form
      .getByLabel('Service', { exact: true })
      .locator('option:checked')
      .innerText(),
    prompt: await form.getByLabel('Prompt', { exact: true }).inputValue(),
    seed: await form.getByLabel('Seed', { exact: true }).inputValue(),
    kept: await form.getByLabel('Keep this seed').isChecked(),
  };
}

/** Empties the prompt and the seed, the service back to the demo: nothing left of the task. */
async function emptyForm(page: Page): Promise<void> {
  const form = composeForm(page);
  await form.getByLabel('Prompt', { exact: true }).fill('');
  await form.getByLabel('Keep this seed').uncheck();
  await form.getByLabel('Seed', { exact: true }).fill('');
  await form.getByLabel('Service', { exact: true }).selectOption({ index: 0 });
}

/** A task on fal.ai (its FLUX model takes a seed) with SEED, sent and completed. */
async function falTask(page: Page) {
  await showScreen(page, 'Settings');
  await connectDialect(page, 'fal.ai', fal.directUrl, FAL_KEY);
  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  await form.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await form.getByLabel('Seed', { exact: true }).fill(SEED);
  await form.getByLabel('Keep this seed').check();
  await generate(page, PROMPT);
  const row = taskRow(page, PROMPT);
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  return { form, row };
}

test('"Use this prompt" from the task row and from the gallery viewer fill the same request', async () => {
  const { page } = await session.launch();
  const { form, row } = await falTask(page);
  await emptyForm(page);
  await row.getByRole('button', { name: 'Use this prompt', exact: true }).click();
  const fromRow = await formRequest(page);
  expect(fromRow).toEqual({ service: 'fal.ai', prompt: PROMPT, seed: SEED, kept: true });

  await emptyForm(page);
  await showScreen(page, 'Gallery');
  await tileFor(page, PROMPT).dblclick();
  await viewer(page).getByRole('button', { name: 'Use this prompt', exact: true }).click();
  await expect(viewer(page)).toBeHidden();
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(PROMPT);
  expect(await formRequest(page)).toEqual(fromRow);
});

test('at 800x600 in German and the pseudo-locale the viewer offers Vary among whole-worded actions', async () => {
  const { page } = await session.launch({ viewport: { width: 800, height: 600 } });
  await falTask(page);
  await emptyForm(page);
  await showScreen(page, 'Gallery');
  await tileFor(page, PROMPT).dblclick();
  const actions = viewer(page).getByRole('group', { name: 'Image actions' });
  await expect(actions.getByRole('button', { name: 'Vary', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  for (const [tag, option, vary] of [
    ['de', 'Deutsch', 'Variieren'],
    ['en-XA', 'Pseudo (ƥšéûđö)', pseudoMessage('Vary')],
  ] as const) {
    // The screens by their keys' digits: the names change with the language.
    await page.keyboard.press('Control+4');
    await page.getByLabel(tag === 'de' ? 'Language' : 'Sprache', { exact: true }).selectOption({
      label: option,
    });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await page.keyboard.press('Control+2');
    await page.getByRole('grid').getByRole('gridcell').first().dblclick();
    const shown = page.locator('.viewer-details__actions');
    await expect(shown.getByRole('button', { name: vary, exact: true })).toBeVisible();
    expect(await crampedControls(page), tag).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(shown).toBeHidden();
  }
});
