/**
 * Journey 30, images as inputs: an image generated on the built-in demo is opened in the viewer,
 * and "Edit…" fills a painted area of it. The mask is painted with the mouse on the mask editor
 * (the brush made larger with `]` first) and the fill is sent to two dialects with opposite mask
 * conventions: the built-in demo's "Demo edit" (an alpha-edit mask, inside the request as a data
 * URI) and fal.ai's FLUX Fill on a fal demo process (a white-edit mask). Each target shows where
 * its inputs go; the results open side by side in the compare view. On disk both tasks carry
 * their inputs (operation fill, the source as parent, the mask's digests), and the result PNG is
 * the demo's fill colour where the mouse painted and the source's pixel where it did not.
 *
 * The result in the viewer lists its versions (Original, then the fill); "Compare with original"
 * shows a before/after whose divider moves by keyboard. "Upscale ×2" on the result sends it to the
 * demo's edit model, whose image is twice the size; its stack lists Original → Fill → Upscale ×2.
 * Settings › Library › "Export all…" writes the library to an archive, and a fresh library imports
 * it: the upscale's stack is whole again and the input files are in the new gallery's `inputs/`.
 * Main's save and open dialogs are answered by the host's stand-ins (PICTOR_E2E_EXPORT_FILE,
 * PICTOR_E2E_IMPORT_SOURCE), on Chromium and on Electron alike.
 *
 * All of it real: the built-in demo and a fal demo process on loopback, real PNGs read back with
 * sharp (the demo's pixel rules: electron/demo-service/input-pixels.ts).
 *
 * Only a browser shows here: a mask painted with the mouse on a real canvas, and the result PNG's
 * pixels where the mouse painted.
 */
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { uiText } from './support/catalogue';
import { readHistory } from './support/disk';
import { crampedControls } from './support/layout';
import { useDemoProcess } from './support/service';
import { FAST_ENV, useAppSession } from './support/session';
import {
  closeDialog,
  compareCell,
  connectDialect,
  expectLoadedImage,
  generate,
  showScreen,
  taskRow,
  viewer,
  viewerImage,
} from './support/ui';

const FAL_KEY = 'fal-e2e-image-inputs-30-9c3e';
const fal = useDemoProcess({ dialect: 'fal', keys: [`ada:${FAL_KEY}`], durationMs: [300, 600] });
const session = useAppSession('image-inputs');
/** A fresh library the export is imported into. */
const imported = useAppSession('image-inputs-imported');
const ARCHIVE = 'library-export.zip';

const PROMPT = 'A teapot on a wooden table, image inputs journey';
const FILL_PROMPT = 'A small cactus where the paint is';
const DEMO_EDIT = 'Image task service (demo) · demo-edit';
const FAL_FILL = 'fal.ai · fal-ai/flux-pro/v1/fill';
/** The demo's fill colour (electron/demo-service/input-pixels.ts). */
const FILL_COLOUR = [255, 0, 255] as const;
const DONE_TIMEOUT = 30_000;
/**
 * How long a cell may take to be clickable (a trial click: visible, stable over two frames, and
 * the topmost element under its centre). A cell covered by the viewer never becomes so, whatever
 * the wait; one that is not covered needs its frames drawn, which took past 5 s on a machine at
 * load 16–30 (the compare view opens while the fills' first polls and image saves run). The
 * expectations' own limit (playwright.config.ts), not a shorter one.
 */
const POINTER_TIMEOUT = 15_000;

interface Pixel {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/** The RGB of the pixel at (x, y) of a PNG file, and the image's size. */
async function pixelAt(file: string, x: number, y: number) {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  const pixel: Pixel = { r: data[at] ?? -1, g: data[at + 1] ?? -1, b: data[at + 2] ?? -1 };
  return { pixel, width: info.width, height: info.height };
}

/** The built-in demo's image, generated and opened in the viewer from the gallery. */
async function generateAndView(page: Page): Promise<void> {
  await showScreen(page, 'Tasks');
  await generate(page, PROMPT);
  await expect(taskRow(page, PROMPT).getByText('Completed', { exact: true })).toBeVisible({
    timeout: DONE_TIMEOUT,
  });
  await showScreen(page, 'Gallery');
  const tile = page
    .getByRole('grid', { name: 'Images' })
    .getByRole('gridcell')
    .filter({ has: page.getByRole('img', { name: PROMPT, exact: true }) });
  await tile.click();
  await expect(viewer(page)).toBeVisible();
}

/**
 * A horizontal stroke across the middle of the mask canvas, from 30 % to 70 % of its width;
 * returns the stroke's row and ends as fractions of the image.
 */
async function paintStroke(page: Page, canvas: Locator): Promise<void> {
  const box = await canvas.boundingBox();
  if (!box) throw new Error('The mask canvas is not shown.');
  const y = box.y + box.height * STROKE.y;
  await page.mouse.move(box.x + box.width * STROKE.from, y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) {
    const x = STROKE.from + ((STROKE.to - STROKE.from) * step) / 8;
    await page.mouse.move(box.x + box.width * x, y);
  }
  await page.mouse.up();
}

/** Where the stroke goes, as fractions of the image's width and height. */
const STROKE = { y: 0.5, from: 0.3, to: 0.7 } as const;

async function fillOnTwoDialects(page: Page): Promise<Locator> {
  await viewer(page).getByRole('button', { name: 'Edit…' }).click();
  const panel = page.getByRole('dialog', { name: 'Edit an image' });
  await expectLoadedImage(panel.getByTestId('edit-source'));
  await panel.getByRole('radio', { name: 'Fill a painted area' }).check();

  const mask = panel
    .getByRole('region', { name: 'Mask' })
    .or(panel.getByRole('group', { name: 'Mask' }));
  const canvas = mask.getByRole('img', {
    name: 'Mask over the image: paint where the image is to be changed',
  });
  await expect(mask.getByText('Nothing is painted yet', { exact: false })).toBeVisible();
  const size = mask.getByText(/^Brush size: \d+ px$/);
  const before = await size.textContent();
  await canvas.focus();
  await page.keyboard.press(']');
  await expect(size).not.toHaveText(before ?? '');
  await paintStroke(page, canvas);
  await expect(mask.getByText('The painted part of the image will be changed.')).toBeVisible();

  await panel.getByRole('textbox', { name: 'Prompt' }).fill(FILL_PROMPT);
  await panel.getByRole('checkbox', { name: DEMO_EDIT }).check();
  await panel.getByRole('checkbox', { name: FAL_FILL }).check();
  await expect(panel.getByTestId('edit-route-1')).toHaveText(
    'Target 1: Image task service (demo) · demo-edit Inside the request',
  );
  await expect(panel.getByTestId('edit-route-2')).toHaveText(
    'Target 2: fal.ai · fal-ai/flux-pro/v1/fill Inside the request',
  );
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel).toHaveCount(0);

  const view = page.getByRole('dialog', { name: 'Compare', exact: true });
  await expect(view.getByRole('gridcell')).toHaveCount(2);
  // Over the viewer the edit was sent from (which stays under it): its cells take the pointer.
  await compareCell(view, 'Image task service').click({ trial: true, timeout: POINTER_TIMEOUT });
  for (const service of ['Image task service', 'fal.ai']) {
    const cell = compareCell(view, service);
    await expect(cell).toHaveAttribute('data-status', 'completed', { timeout: DONE_TIMEOUT });
    await expectLoadedImage(cell.getByRole('img'));
  }
  return view;
}

/** The viewer's list of the shown image's versions. */
function stackOf(page: Page): Locator {
  return viewer(page).getByRole('listbox', { name: 'Versions of this image' }).getByRole('option');
}

/** The fal fill's version in a stack. */
const FAL_FILL_ENTRY = 'Fill · fal-ai/flux-pro/v1/fill';

/**
 * The viewer's stack: "Original" first, then `made` (versions made at once come in either
 * order: the same instant), with `shown` the version chosen.
 */
async function expectStack(page: Page, made: readonly string[], shown: string): Promise<void> {
  await expect(stackOf(page)).toHaveCount(made.length + 1);
  const [first, ...rest] = await stackOf(page).allTextContents();
  expect(first).toBe('Original');
  expect(rest.slice(0, 2).sort()).toEqual(made.slice(0, 2).sort());
  expect(rest.slice(2)).toEqual(made.slice(2));
  const chosen = stackOf(page).and(page.locator('[aria-selected="true"]'));
  await expect(chosen).toHaveText(shown);
  const at = rest.indexOf(shown) + 2;
  await expect(
    viewer(page).getByText(`Version ${String(at)} of ${String(made.length + 1)}`, { exact: true }),
  ).toBeVisible();
}

/**
 * Enter on the compare view's first cell (the demo's fill) opens it in the viewer: its versions
 * are the original and the fill; the before/after's divider moves by keyboard.
 */
async function beforeAndAfter(page: Page, view: Locator): Promise<void> {
  await expect(compareCell(view, 'Image task service')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(view).toHaveCount(0);
  await expect(viewer(page)).toBeVisible();
  // The stack is the original's: both fills, made at once (in either order), after it.
  await expectStack(page, ['Fill · demo-edit', FAL_FILL_ENTRY], 'Fill · demo-edit');

  await viewer(page).getByRole('button', { name: 'Compare with original' }).click();
  const both = page.getByRole('dialog', { name: 'Original and this image' });
  const divider = both.getByRole('slider', {
    name: 'Divider between the original and this image',
  });
  await expect(divider).toHaveAttribute('aria-valuetext', '50 % of the original shown');
  await divider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(divider).toHaveAttribute('aria-valuetext', '55 % of the original shown');
  await page.keyboard.press('Home');
  await expect(divider).toHaveAttribute('aria-valuetext', '0 % of the original shown');
  // The arrows moved the divider, not the viewer under the dialog.
  await expect(stackOf(page).and(page.locator('[aria-selected="true"]'))).toHaveText(
    'Fill · demo-edit',
  );
  await both.getByRole('button', { name: 'Close' }).first().click();
  await expect(both).toHaveCount(0);
}

/**
 * "Upscale ×2" on the fill: the panel opens on Upscale ×2; the demo's edit model sends it, and
 * the new image's stack is Original → Fill → Upscale ×2.
 */
async function upscaleTheFill(page: Page): Promise<void> {
  await viewer(page).getByRole('button', { name: 'Upscale ×2' }).click();
  const panel = page.getByRole('dialog', { name: 'Edit an image' });
  await expectLoadedImage(panel.getByTestId('edit-source'));
  await expect(panel.getByRole('radio', { name: 'Upscale' })).toBeChecked();
  await panel.getByRole('checkbox', { name: DEMO_EDIT }).check();
  await expect(panel.getByTestId('edit-route-1')).toHaveText(
    'Target 1: Image task service (demo) · demo-edit Inside the request',
  );
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel).toHaveCount(0);

  // Its one result opens in the compare view too; Enter shows it in the viewer.
  const view = page.getByRole('dialog', { name: 'Compare', exact: true });
  await expect(view.getByRole('gridcell')).toHaveCount(1);
  const cell = compareCell(view, 'Image task service');
  // Over the Tasks screen's viewer the upscale was sent from: the cell takes the pointer.
  await cell.click({ trial: true, timeout: POINTER_TIMEOUT });
  await expect(cell).toHaveAttribute('data-status', 'completed', { timeout: DONE_TIMEOUT });
  await expectLoadedImage(cell.getByRole('img'));
  await expect(cell).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(view).toHaveCount(0);
  await expectLoadedImage(viewerImage(page));
  await expectStack(
    page,
    ['Fill · demo-edit', FAL_FILL_ENTRY, 'Upscale ×2 · demo-edit'],
    'Upscale ×2 · demo-edit',
  );
}

/** Settings › Library › "Export all…", the archive written where main's save dialog says. */
async function exportLibrary(page: Page, archive: string): Promise<void> {
  await closeDialog(viewer(page));
  await showScreen(page, 'Settings');
  const library = page.getByRole('region', { name: 'Library', exact: true });
  await library.getByRole('button', { name: 'Export all…' }).click();
  await expect(library.getByText(/^Exported 4 tasks and 4 images \(.+\) to /)).toBeVisible({
    timeout: DONE_TIMEOUT,
  });
  expect(session.app.osCalls().filter((call) => call.action === 'chooseExportFile')).toEqual([
    { action: 'chooseExportFile', arg: archive },
  ]);
}

/**
 * A fresh library imports the archive: the upscale's stack is whole again (Original, both fills,
 * Upscale ×2) and the stored inputs are in the new gallery folder.
 */
async function importIntoAFreshLibrary(archive: string, inputs: readonly string[]): Promise<void> {
  const { page } = await imported.launch({
    env: { ...FAST_ENV, PICTOR_E2E_IMPORT_SOURCE: archive },
  });
  await showScreen(page, 'Settings');
  const library = page.getByRole('region', { name: 'Library', exact: true });
  await library.getByRole('button', { name: 'Import archive…' }).click();
  await expect(library.getByText('Added 4 tasks and 4 images.', { exact: true })).toBeVisible({
    timeout: DONE_TIMEOUT,
  });
  expect(imported.app.osCalls().filter((call) => call.action === 'chooseImportSource')).toEqual([
    { action: 'chooseImportSource', arg: `archive:${archive}` },
  ]);
  await showScreen(page, 'Tasks');
  const rows = page.getByRole('feed', { name: 'Task history' }).getByRole('article');
  await expect(rows).toHaveCount(4);
  const upscale = rows.first();
  await expect(upscale).toHaveAccessibleName(FILL_PROMPT);
  await upscale.getByRole('button', { name: 'Open image 1 of 1' }).click();
  await expectLoadedImage(viewerImage(page));
  await expectStack(
    page,
    ['Fill · demo-edit', FAL_FILL_ENTRY, 'Upscale ×2 · demo-edit'],
    'Upscale ×2 · demo-edit',
  );
  for (const sha256 of inputs) {
    const file = await stat(join(imported.folders.galleryDir, 'inputs', `${sha256}.png`));
    expect(file.isFile()).toBe(true);
  }
}

test('a painted area filled on two dialects, compared with the original, upscaled ×2', async () => {
  test.setTimeout(120_000);
  const archive = join(tmpdir(), `pictor-e2e-30-${String(process.pid)}-${ARCHIVE}`);
  const { page } = await session.launch({ env: { ...FAST_ENV, PICTOR_E2E_EXPORT_FILE: archive } });
  await showScreen(page, 'Settings');
  await connectDialect(page, 'fal.ai', fal.directUrl, FAL_KEY);
  await generateAndView(page);
  const view = await fillOnTwoDialects(page);
  await beforeAndAfter(page, view);
  await upscaleTheFill(page);
  await exportLibrary(page, archive);

  const { folders } = session;
  await session.close();
  const history = readHistory(folders.userDataDir);
  const source = history.find((record) => record.request.prompt === PROMPT) as TaskRecord;
  const fills = history.filter((record) => record.request.inputs?.operation === 'fill');
  expect(fills.map((record) => record.provider ?? 'pictor').sort()).toEqual(['fal', 'pictor']);
  // Both carry the source as their parent and the painted mask, in both conventions, by digest.
  const [first] = fills;
  const digest = /^[0-9a-f]{64}$/;
  for (const record of fills) {
    const inputs = record.request.inputs;
    expect(inputs?.parent).toEqual({ localId: source.localId, index: 0 });
    expect(inputs?.mask?.sha256).toMatch(digest);
    expect(inputs?.maskAlpha?.sha256).toMatch(digest);
    expect(inputs?.mask?.sha256).toBe(first?.request.inputs?.mask?.sha256);
    expect(inputs?.maskAlpha?.sha256).toBe(first?.request.inputs?.maskAlpha?.sha256);
    expect(inputs?.source.sha256).toMatch(digest);
  }
  const sourceFile = join(folders.galleryDir, source.images[0]?.file ?? '');
  const { width, height } = await pixelAt(sourceFile, 0, 0);
  const painted = [Math.round(width * 0.5), Math.round(height * STROKE.y)] as const;
  for (const record of fills) {
    const file = join(folders.galleryDir, record.images[0]?.file ?? '');
    expect((await pixelAt(file, ...painted)).pixel).toEqual({
      r: FILL_COLOUR[0],
      g: FILL_COLOUR[1],
      b: FILL_COLOUR[2],
    });
    expect((await pixelAt(file, 2, 2)).pixel).toEqual((await pixelAt(sourceFile, 2, 2)).pixel);
  }

  // The upscale: the demo's fill, twice the size, its parent that fill, nearest neighbour.
  const demoFill = fills.find((record) => record.provider === undefined) as TaskRecord;
  const upscales = history.filter((record) => record.request.inputs?.operation === 'upscale');
  expect(upscales).toHaveLength(1);
  const upscaled = upscales[0] as TaskRecord;
  expect(upscaled.request.inputs).toMatchObject({
    factor: 2,
    parent: { localId: demoFill.localId, index: 0 },
  });
  const upscaledFile = join(folders.galleryDir, upscaled.images[0]?.file ?? '');
  const big = await pixelAt(upscaledFile, painted[0] * 2, painted[1] * 2);
  expect([big.width, big.height]).toEqual([width * 2, height * 2]);
  expect(big.pixel).toEqual({ r: FILL_COLOUR[0], g: FILL_COLOUR[1], b: FILL_COLOUR[2] });

  // The library exported, imported into a fresh one: lineage and inputs came along.
  const stored = [...fills, upscaled].flatMap((record) => {
    const inputs = record.request.inputs;
    return [inputs?.source.sha256, inputs?.mask?.sha256, inputs?.maskAlpha?.sha256];
  });
  const digests = [...new Set(stored.filter((one): one is string => one !== undefined))];
  expect(digests.length).toBeGreaterThanOrEqual(4);
  await importIntoAFreshLibrary(archive, digests);
  await rm(archive, { force: true });
});

/**
 * The edit panel's model lines name each service as the compose form's Service box does
 * ("(Demo)", "(kein Schlüssel)"): at 800x600 in German and the pseudo-locale every line lies in
 * the panel, nothing in the panel (its library references' prompts too) scrolls sideways or is cut
 * at its edge, no button is cut.
 */
for (const [tag, option] of [
  ['de', 'Deutsch'],
  ['en-XA', 'Pseudo (ƥšéûđö)'],
] as const) {
  test(`in ${tag} at 800x600 the edit panel’s model lines fit, each service named by its state`, async () => {
    test.setTimeout(120_000);
    const { page } = await session.launch({ env: FAST_ENV, viewport: { width: 800, height: 600 } });
    await generateAndView(page);
    await page.keyboard.press('Escape');
    const nav = page.getByRole('navigation', { name: 'Main' }).getByRole('button');
    const gallery = (await nav.allTextContents()).findIndex((text) => text.startsWith('Gallery'));
    await showScreen(page, 'Settings');
    await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await page.getByRole('navigation').first().getByRole('button').nth(gallery).click();
    await page.getByRole('img', { name: PROMPT, exact: true }).first().click();
    const edit = tag === 'de' ? uiText('de', 'edit.open') : pseudoMessage('Edit…');
    // The viewer (named in the shown language) offers it.
    await page.getByRole('dialog').getByRole('button', { name: edit, exact: true }).click();
    const panel = page.getByRole('dialog').filter({ has: page.locator('.edit-targets') });
    const lines = panel.locator('.edit-choice label');
    await expect(lines.first()).toBeVisible();
    const texts = await lines.allTextContents();
    // fal.ai has no key here: its line says so, as its Service box does.
    expect(texts.some((text) => text.includes('fal.ai') && !text.includes('fal.ai ·'))).toBe(true);
    const outside = await panel.evaluate((dialog) => {
      const room = dialog.getBoundingClientRect();
      const cut = [...dialog.querySelectorAll<HTMLElement>('.edit-choice label, .edit-choice p')]
        .filter((line) => {
          const box = line.getBoundingClientRect();
          return box.left < room.left - 1 || box.right > room.right + 1;
        })
        .map((line) => line.textContent ?? '');
      // The panel and every box in it: none scrolls sideways, nor cuts its words at its edge.
      const wide = [dialog, ...dialog.querySelectorAll<HTMLElement>('*')]
        .filter((one) => one.scrollWidth > one.clientWidth + 1)
        .filter((one) => getComputedStyle(one).overflowX !== 'visible')
        .map((one) => `${one.tagName} ${one.className} (${(one.textContent ?? '').slice(0, 40)})`);
      return [...cut, ...wide.map((name) => `scrolls sideways: ${name}`)];
    });
    expect(outside).toEqual([]);
    expect(await crampedControls(page)).toEqual([]);
  });
}
