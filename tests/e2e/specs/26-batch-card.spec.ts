/**
 * Journey 26, a batch reads as one job: "Generate 10" on the built-in demo service is one card,
 * its prompt first, then its ten results as a grid that shows all ten (or some and a "+N" that
 * opens the rest) in a 1280x800 and an 800x600 window: each result whole inside the card and the
 * window, with its own buttons inside it, and no text of the card cut (in German and Arabic too,
 * at 800x600). The card's own Rerun sends a new batch of ten; its "Use this prompt" fills the form
 * with the prompt and 10 tasks. axe checks the card at both sizes and in Arabic.
 *
 * Only a browser shows here: the card's grid of ten measured in a real layout at two window sizes
 * and in German and Arabic (whole results, nothing cut); axe on it.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { uiText } from './support/catalogue';
import { useAppSession } from './support/session';
import { composeForm, expectLoadedImage } from './support/ui';

const PROMPT = 'Ten paper lanterns over a river at dusk, batch card journey';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

const session = useAppSession('batch-card');
// One test after another in one worker, as before the journeys ran fully parallel: each makes ten
// images, and two at once on 2 cores (load 24) left the second's pictures unsaved past its waits.
test.describe.configure({ mode: 'default' });

/** The history's batch cards, newest first; `feed` is the history's name in the page's language. */
function cards(page: Page, feed = 'Task history'): Locator {
  return page.getByRole('feed', { name: feed }).locator('.task-batch');
}

/**
 * What is wrong with the card's layout: a result outside the card or the window, a result's
 * button outside its result, cells that overlap, text cut by its box (sideways, or past a line
 * clamp). Text only screen readers read (visually hidden) is not drawn, so it is not measured.
 */
async function cardProblems(card: Locator): Promise<string[]> {
  return card.evaluate((element) => {
    const problems: string[] = [];
    const box = element.getBoundingClientRect();
    const windowWidth = document.documentElement.clientWidth;
    const inside = (
      inner: DOMRect,
      outer: { left: number; right: number; top: number; bottom: number },
    ) =>
      inner.left >= outer.left - 1 &&
      inner.right <= outer.right + 1 &&
      inner.top >= outer.top - 1 &&
      inner.bottom <= outer.bottom + 1;
    const cells = [...element.querySelectorAll<HTMLElement>('.task-tile, .task-batch__toggle')];
    const rects = cells.map((cell) => cell.getBoundingClientRect());
    rects.forEach((rect, index) => {
      const name = `cell ${index + 1}`;
      if (!inside(rect, box)) problems.push(`${name} is outside the card`);
      if (rect.left < 0 || rect.right > windowWidth + 1)
        problems.push(`${name} is outside the window`);
      rects.slice(index + 1).forEach((other, later) => {
        const overlap =
          Math.min(rect.right, other.right) - Math.max(rect.left, other.left) > 1 &&
          Math.min(rect.bottom, other.bottom) - Math.max(rect.top, other.top) > 1;
        if (overlap) problems.push(`${name} overlaps cell ${index + later + 2}`);
      });
    });
    for (const tile of element.querySelectorAll<HTMLElement>('.task-tile')) {
      const rect = tile.getBoundingClientRect();
      for (const button of tile.querySelectorAll<HTMLElement>('button')) {
        if (!inside(button.getBoundingClientRect(), rect)) {
          problems.push(
            `"${button.getAttribute('aria-label') ?? button.textContent}" leaves its result`,
          );
        }
      }
    }
    for (const node of element.querySelectorAll<HTMLElement>('*')) {
      if (node.closest('.visually-hidden') || node.offsetParent === null) continue;
      if (!node.textContent?.trim() || node.querySelector('img')) continue;
      const wide = node.scrollWidth > node.clientWidth + 1;
      const tall = node.scrollHeight > node.clientHeight + 1;
      const clips = getComputedStyle(node).overflow !== 'visible';
      if (clips && (wide || tall)) problems.push(`text cut: "${node.textContent.trim()}"`);
    }
    return problems;
  });
}

/** How many of the batch's results the card accounts for: those shown, and those its "+N" holds. */
async function resultsAccountedFor(card: Locator): Promise<number> {
  const shown = await card.getByRole('article', { name: PROMPT, exact: true }).count();
  const more = card.getByRole('button', { name: /^Show the other \d+ results/ });
  if ((await more.count()) === 0) return shown;
  const label = (await more.getAttribute('aria-label')) ?? '';
  return shown + Number(/\d+/.exec(label)?.[0] ?? Number.NaN);
}

test('Generate 10 is one card that shows its ten results whole at 1280 and 800 px, with its own Rerun and Use this prompt', async () => {
  const { page } = await session.launch({ viewport: SIZES[0] });
  const form = composeForm(page);
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByLabel('Number of tasks', { exact: true }).fill('10');
  await form.getByRole('button', { name: 'Generate 10' }).click();

  const card = cards(page).first();
  await expect(cards(page)).toHaveCount(1);
  const results = card.getByRole('article', { name: PROMPT, exact: true });
  // The prompt leads: the card's head comes before its results.
  await expect(card.locator('.task-batch__head').getByText(PROMPT, { exact: true })).toBeVisible();
  await expect(card.getByText('10 tasks', { exact: true })).toBeVisible();
  await expect(results).toHaveCount(10);
  for (const result of await results.all()) {
    await expect(result.getByText('Completed', { exact: true })).toBeAttached({ timeout: 30_000 });
    await expectLoadedImage(result.getByRole('img', { name: PROMPT }));
  }

  for (const size of SIZES) {
    await page.setViewportSize(size);
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => resultsAccountedFor(card), { message: `${size.width} px` }).toBe(10);
    await expect.poll(() => cardProblems(card), { message: `${size.width} px` }).toEqual([]);
    // Every result's own buttons are there and inside it: the last result's trash too.
    const last = results.last();
    await last.hover();
    await expect(last.getByRole('button', { name: 'Remove from history' })).toBeVisible();
    await expectAccessible(page, `a batch card at ${size.width} px`);
  }
  // At 800 px a batch of ten still shows all ten: two lines of results, no "+N".
  await expect(results).toHaveCount(10);

  // "Use this prompt": the form holds the prompt and the batch's number of tasks.
  await card.getByRole('button', { name: 'Use this prompt' }).click();
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(PROMPT);
  await expect(form.getByLabel('Number of tasks', { exact: true })).toHaveValue('10');
  await expect(form.getByLabel('Prompt', { exact: true })).toBeFocused();

  // Rerun: the same request again as a new batch of ten, one card more at the top.
  await card.getByRole('button', { name: 'Rerun' }).click();
  await expect(cards(page)).toHaveCount(2);
  await expect(cards(page).first().getByRole('article', { name: PROMPT, exact: true })).toHaveCount(
    10,
  );
});

for (const [locale, tag] of [
  ['de-DE', 'de'],
  ['ar', 'ar'],
] as const) {
  test(`in ${tag} at 800x600 the card shows its ten results and none of its words is cut`, async () => {
    const { page } = await session.launch({ viewport: SIZES[1], locale });
    const form = page.getByRole('form', { name: uiText(tag, 'compose.label') });
    await form.getByLabel(uiText(tag, 'compose.count.label'), { exact: true }).fill('10');
    const prompt = form.getByLabel(uiText(tag, 'compose.prompt.label'), { exact: true });
    await prompt.fill(PROMPT);
    await prompt.press('Enter');
    const card = cards(page, uiText(tag, 'tasks.list.label')).first();
    const results = card.getByRole('article', { name: PROMPT, exact: true });
    await expect(results).toHaveCount(10);
    for (const result of await results.all()) {
      await expectLoadedImage(result.getByRole('img', { name: PROMPT }));
    }
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => cardProblems(card)).toEqual([]);
    await expectAccessible(page, `a batch card in ${tag} at 800 px`);
  });
}
