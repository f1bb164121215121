/**
 * Journey 29, iterate on prompts: a template with two variables and two inline choices expands to
 * six prompts, listed in the form with the price of the run (an estimate, from a price set in
 * Settings) before it is sent; Generate sends six tasks, which complete, and the batch's "Use this
 * prompt" ("Run again with…") brings the template and its values back into the form. The batch's
 * card is headed by the template and its six prompts, in the order the template expanded them; its
 * Rerun sends each prompt once more as one new batch. Then one prompt is compared on three demo
 * services, each speaking another provider's dialect (fal.ai, Replicate, Black Forest Labs), with a
 * fourth target that has no key left out with its sentence; the compare view shows each target's
 * image, P picks the winner, Ctrl+Enter keeps it and rejects the rest, Ctrl+Z takes that back and
 * Ctrl+Shift+Z does it again, all by keyboard. The history records the template on its twelve
 * tasks (two batches) and one group on the three compared ones. In Arabic (right to left) the
 * template's preview and the compare view's marks read in Arabic.
 *
 * Tasks go to demo processes on loopback (the built-in demo's tasks are free: no price to show).
 *
 * Only a browser shows here: three demo processes speaking other dialects answering one compare,
 * picked and undone by real keys, in Arabic too.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { uiText } from './support/catalogue';
import { readHistory } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  compareCell,
  composeForm,
  connectDialect,
  expectLoadedImage,
  setCompareTarget,
  showScreen,
} from './support/ui';

const KEYS = {
  fal: 'fal-e2e-templates-29-4b7d',
  replicate: 'r8_e2e-templates-29-c1a9',
  bfl: 'bfl-e2e-templates-29-7e52',
} as const;
const DURATION: [number, number] = [500, 1000];

const fal = useDemoProcess({ dialect: 'fal', keys: [`ada:${KEYS.fal}`], durationMs: DURATION });
const replicate = useDemoProcess({
  dialect: 'replicate',
  keys: [`ada:${KEYS.replicate}`],
  durationMs: DURATION,
});
const bfl = useDemoProcess({ dialect: 'bfl', keys: [`ada:${KEYS.bfl}`], durationMs: DURATION });
const session = useAppSession('templates-compare');

const TEMPLATE = 'Fox studies';
const BODY =
  'A {{subject}} on a hill {at dawn|at noon|at dusk}, {{style=watercolour}} {sketch|poster}';
const VALUES = { subject: 'red fox', style: 'ink' } as const;
const PROMPTS = ['at dawn', 'at noon', 'at dusk'].flatMap((time) =>
  ['sketch', 'poster'].map((kind) => `A red fox on a hill ${time}, ink ${kind}`),
);
const COMPARED = 'A paper boat on a still pond, compare journey';
/** Each service's own demo speaks its dialect; the fourth target has no key. */
const SERVICES = ['fal.ai', 'Replicate', 'Black Forest Labs'] as const;
const NO_KEY = 'Alibaba Cloud DashScope';
/** The demo's poll is fast here, but six tasks and three services share two busy cores. */
const DONE_TIMEOUT = 60_000;

/** Settings › Costs: 0.02 USD per image on fal.ai, every model. */
async function setFalPrice(page: Page): Promise<void> {
  const prices = page.getByRole('form', { name: 'Prices' });
  await prices.getByLabel('Service').selectOption({ label: 'fal.ai' });
  await prices.getByLabel('Amount').fill('0.02');
  await prices.getByRole('button', { name: 'Set price' }).click();
  await expect(page.getByText('fal.ai, every model: $0.02 per image')).toBeVisible();
}

/** "Manage templates…" → New template, saved, and the dialog closed. */
async function makeTemplate(page: Page): Promise<void> {
  await composeForm(page).getByRole('button', { name: 'Manage templates…' }).click();
  const manager = page.getByRole('dialog', { name: 'Templates' });
  await manager.getByRole('button', { name: 'New template' }).click();
  const editor = manager.getByRole('form', { name: 'Edit template' });
  await editor.getByLabel('Name', { exact: true }).fill(TEMPLATE);
  await editor.getByLabel('Template', { exact: true }).fill(BODY);
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor).toHaveCount(0);
  await expect(manager.getByRole('button', { name: `Edit ${TEMPLATE}` })).toBeVisible();
  await manager.getByRole('button', { name: 'Close' }).first().click();
  await expect(manager).toHaveCount(0);
}

/** The template panel's preview of the prompts a run sends. */
function preview(form: Locator, name = 'Prompts this template makes'): Locator {
  return form.getByRole('region', { name });
}

/** What the cell's marks say: its flag (empty when it has none). */
function marksOf(cell: Locator): Locator {
  return cell.locator('.compare-cell__marks');
}

async function expectFlags(view: Locator, flags: readonly (string | null)[]): Promise<void> {
  for (const [n, service] of SERVICES.entries()) {
    const flag = flags[n] ?? null;
    const marks = marksOf(compareCell(view, service));
    if (flag === null) await expect(marks).toHaveCount(0);
    else await expect(marks).toHaveText(flag);
  }
}

async function templateRun(page: Page): Promise<void> {
  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  await form.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await makeTemplate(page);
  await form.getByLabel('Template', { exact: true }).selectOption({ label: TEMPLATE });
  // One field per variable, the default as its placeholder.
  await expect(form.getByLabel('style', { exact: true })).toHaveAttribute(
    'placeholder',
    'watercolour',
  );
  await form.getByLabel('subject', { exact: true }).fill(VALUES.subject);
  await form.getByLabel('style', { exact: true }).fill(VALUES.style);

  // Before it is sent: the six prompts, every one, and the run's price, labelled an estimate.
  const list = preview(form);
  await expect(list.getByText('6 prompts', { exact: true })).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveText(PROMPTS);
  await expect(
    form.getByText('This submit costs about $0.12 ($0.02 per task, estimate).', { exact: true }),
  ).toBeVisible();

  await form.getByRole('button', { name: /^Generate/ }).click();
  const card = page.getByRole('feed', { name: 'Task history' }).locator('.task-batch').first();
  await expect(card.getByText('6 tasks', { exact: true })).toBeVisible();
  const results = card.getByRole('article');
  await expect(results).toHaveCount(6);
  for (const prompt of PROMPTS) {
    const result = card.getByRole('article', { name: prompt, exact: true });
    await expect(result.getByText('Completed', { exact: true })).toBeAttached({
      timeout: DONE_TIMEOUT,
    });
    await expectLoadedImage(result.getByRole('img', { name: prompt }));
  }
  expect((await fal.tasks()).map((task) => task.prompt).sort()).toEqual([...PROMPTS].sort());

  // "Run again with…": the template and the values it was run with, back in the form.
  await form.getByLabel('Template', { exact: true }).selectOption({ label: 'None' });
  await expect(preview(form)).toHaveCount(0);
  await card.getByRole('button', { name: 'Use this prompt' }).click();
  await expect(form.getByLabel('Template', { exact: true }).locator('option:checked')).toHaveText(
    TEMPLATE,
  );
  await expect(form.getByLabel('subject', { exact: true })).toHaveValue(VALUES.subject);
  await expect(form.getByLabel('style', { exact: true })).toHaveValue(VALUES.style);
  await expect(form.getByLabel('Service', { exact: true })).toHaveValue('fal');
  await expect(preview(form).getByRole('listitem')).toHaveText(PROMPTS);
  // The same run again: six tasks, one per prompt, not six per prompt.
  await expect(form.getByLabel('Number of tasks', { exact: true })).toHaveValue('1');
  await expect(
    form.getByText('This submit costs about $0.12 ($0.02 per task, estimate).', { exact: true }),
  ).toBeVisible();
}

/** The names of a batch card's tasks, in the order the card shows them. */
function tileNames(card: Locator): Promise<(string | null)[]> {
  return card
    .getByRole('article')
    .evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label')));
}

/**
 * The template batch's card, headed by the template and its six prompts, its tasks in the order
 * the template expanded them; its Rerun sends each prompt once more as one new batch, shown the
 * same way, whose six tasks complete.
 */
async function rerunTemplateBatch(page: Page): Promise<void> {
  const batches = page.getByRole('feed', { name: 'Task history' }).locator('.task-batch');
  const heading = `Template “${TEMPLATE}”, 6 prompts`;
  await expect(batches.first().getByRole('button', { name: heading })).toBeVisible();
  expect(await tileNames(batches.first())).toEqual(PROMPTS);
  await batches.first().getByRole('button', { name: 'Rerun' }).click();
  await expect(batches).toHaveCount(2);
  const fresh = batches.first();
  await expect(fresh.getByRole('button', { name: heading })).toBeVisible();
  expect(await tileNames(fresh)).toEqual(PROMPTS);
  for (const prompt of PROMPTS) {
    await expect(
      fresh.getByRole('article', { name: prompt, exact: true }).getByText('Completed', {
        exact: true,
      }),
    ).toBeAttached({ timeout: DONE_TIMEOUT });
  }
  // Each prompt sent once more, never the first one six times.
  const sent = (await fal.tasks()).map((task) => task.prompt).sort();
  expect(sent).toEqual([...PROMPTS, ...PROMPTS].sort());
}

async function compareRun(page: Page): Promise<Locator> {
  const form = composeForm(page);
  await form.getByLabel('Template', { exact: true }).selectOption({ label: 'None' });
  await form.getByLabel('Prompt', { exact: true }).fill(COMPARED);
  await form.getByRole('button', { name: 'Compare…' }).click();
  const plan = page.getByRole('dialog', { name: 'Compare on several services' });
  await expect(plan.getByText(`Prompt: ${COMPARED}`, { exact: true })).toBeVisible();
  // The form's service first; then Replicate, Black Forest Labs and DashScope, which has no key.
  await expect(
    plan.getByRole('group', { name: 'Target 1', exact: true }).getByLabel('Service'),
  ).toHaveValue('fal');
  await setCompareTarget(plan, 2, 'Replicate');
  await plan.getByRole('button', { name: 'Add a target' }).click();
  await setCompareTarget(plan, 3, 'Black Forest Labs');
  await plan.getByRole('button', { name: 'Add a target' }).click();
  await setCompareTarget(plan, 4, NO_KEY);
  await expect(plan.getByText(new RegExp(`^Left out: ${NO_KEY}`))).toBeVisible();
  // Only fal.ai has a price: its share is estimated, the other two are said to have none.
  await expect(plan.getByText('Estimated total: $0.02', { exact: true })).toBeVisible();
  await expect(plan.getByText('2 tasks have no price.', { exact: true })).toBeVisible();
  await plan.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(plan).toHaveCount(0);

  const view = page.getByRole('dialog', { name: 'Compare', exact: true });
  await expect(view.getByRole('gridcell')).toHaveCount(3);
  for (const service of SERVICES) {
    const cell = compareCell(view, service);
    await expect(cell).toHaveAttribute('data-status', 'completed', { timeout: DONE_TIMEOUT });
    await expectLoadedImage(cell.getByRole('img', { name: COMPARED }));
  }
  for (const demo of [fal, replicate, bfl]) {
    expect((await demo.tasks()).filter((task) => task.prompt === COMPARED)).toHaveLength(1);
  }
  return view;
}

async function keepTheWinner(page: Page, view: Locator): Promise<void> {
  // The first cell has the focus; → moves to Replicate's, P picks it.
  await expect(compareCell(view, SERVICES[0])).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(compareCell(view, SERVICES[1])).toBeFocused();
  await page.keyboard.press('KeyP');
  await expectFlags(view, [null, 'Pick', null]);

  // Ctrl+Enter: the winner kept, the rest rejected, as one step.
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectFlags(view, ['Reject', 'Pick', 'Reject']);
  await expect(
    page.getByText('Kept the winner and rejected 2 other images.', { exact: true }),
  ).toBeVisible();
  await page.keyboard.press('ControlOrMeta+KeyZ');
  await expectFlags(view, [null, 'Pick', null]);
  await page.keyboard.press('ControlOrMeta+Shift+KeyZ');
  await expectFlags(view, ['Reject', 'Pick', 'Reject']);
  await expect(compareCell(view, SERVICES[1])).toBeFocused();

  // Esc closes the view; the gallery holds the two rejects and the winner as picked.
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await showScreen(page, 'Gallery');
  await expect(page.locator('.gallery-tile__image')).toHaveCount(2 * PROMPTS.length + 3);
  await expect(page.locator('.gallery-tile--rejected')).toHaveCount(2);
}

/** Briefly in Arabic: the template's preview, right to left, and the compare view's marks. */
async function inArabic(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  await page.getByLabel('Language', { exact: true }).selectOption({ label: 'العربية' });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const ar = (key: string) => uiText('ar', key);
  await page
    .getByRole('navigation')
    .getByRole('button', { name: new RegExp(`^${ar('nav.tasks')}`) })
    .click();
  const form = page.getByRole('form', { name: ar('compose.label') });
  await form.getByLabel(ar('compose.template.label'), { exact: true }).selectOption({
    label: TEMPLATE,
  });
  await form.getByLabel('subject', { exact: true }).fill(VALUES.subject);
  await form.getByLabel('style', { exact: true }).fill(VALUES.style);
  const items = preview(form, ar('compose.template.previewLabel')).getByRole('listitem');
  await expect(items).toHaveText(PROMPTS);
  // Each prompt keeps its own (left-to-right) direction inside the mirrored list.
  for (const item of await items.all()) await expect(item).toHaveAttribute('dir', 'auto');

  await page
    .getByRole('feed', { name: ar('tasks.list.label') })
    .getByRole('article', { name: COMPARED, exact: true })
    .first()
    .getByRole('button', { name: ar('compare.open') })
    .click();
  const view = page.getByRole('dialog', { name: ar('compare.title'), exact: true });
  await expect(view.getByRole('gridcell')).toHaveCount(3);
  await expect(view.locator('.compare-cell__marks')).toHaveText([
    ar('triage.flag.reject'),
    ar('triage.flag.pick'),
    ar('triage.flag.reject'),
  ]);
  // Right to left, ← moves to the next cell.
  await expect(view.getByRole('gridcell').first()).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(view.getByRole('gridcell').nth(1)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
}

test('a template of two variables priced and run as six tasks, then one prompt compared on three services, the winner kept by keyboard, undone and redone', async () => {
  test.setTimeout(240_000);
  const { page } = await session.launch();
  await showScreen(page, 'Settings');
  await connectDialect(page, 'fal.ai', fal.directUrl, KEYS.fal);
  await connectDialect(page, 'Replicate', replicate.directUrl, KEYS.replicate);
  await connectDialect(page, 'Black Forest Labs', bfl.directUrl, KEYS.bfl);
  await setFalPrice(page);

  await templateRun(page);
  await rerunTemplateBatch(page);
  const view = await compareRun(page);
  await keepTheWinner(page, view);
  await inArabic(page);

  // The history: six tasks of the template at version 1 with their values, and six more of its
  // batch's Rerun (another batch); three of one group.
  const { folders } = session;
  await session.close();
  const history = readHistory(folders.userDataDir);
  const fromTemplate = history.filter((record) => record.template !== undefined);
  expect(fromTemplate.map((record) => record.request.prompt).sort()).toEqual(
    [...PROMPTS, ...PROMPTS].sort(),
  );
  expect(new Set(fromTemplate.map((record) => record.batchId)).size).toBe(2);
  for (const record of fromTemplate) {
    expect(record.template).toMatchObject({
      name: TEMPLATE,
      version: 1,
      values: VALUES,
      mode: 'combinatorial',
    });
  }
  const compared = history.filter((record) => record.compare !== undefined);
  expect(compared.map((record) => record.provider).sort()).toEqual(['bfl', 'fal', 'replicate']);
  expect(new Set(compared.map((record) => record.compare?.group)).size).toBe(1);
});
