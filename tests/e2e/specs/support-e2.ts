/**
 * Helpers shared by journeys 4–7 (watch timeout, offline, failures, tracking): temp folders, the
 * user's moves through the UI, what the demo service saw and what the disk holds. Things on
 * the page are found by the roles and names of renderer/i18n/en, as a user (or a screen reader)
 * finds them.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { DemoProcess } from '../harness/demo-process';

export { makeAppFolders, readHistory, type AppFolders } from '../harness/disk';

/** Polling fast enough for a test; the embedded demo is not used (tasks go to the demo process). */
export const POLL_ENV: Readonly<Record<string, string>> = { PICTOR_POLL_INTERVAL_MS: '400' };

/** What the service process saw, as DemoProcess reports it. */
export type ServiceLog = Awaited<ReturnType<DemoProcess['log']>>;
export type ServiceTask = Awaited<ReturnType<DemoProcess['tasks']>>[number];

export type Screen = 'Tasks' | 'Gallery' | 'Settings';

/** Clicks a sidebar entry and waits until it is the current page. */
export async function showScreen(page: Page, screen: Screen): Promise<void> {
  const item = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${screen}`) });
  await item.click();
  await expect(item).toHaveAttribute('aria-current', 'page');
}

/**
 * Settings → service address and API key, as a user types them. When the cipher offers only
 * weak storage (Electron on Linux without a keyring) the consent panel is accepted.
 */
export async function connectToService(page: Page, baseUrl: string, key: string): Promise<void> {
  await showScreen(page, 'Settings');
  const service = page.getByRole('region', { name: 'Service' });
  await service.getByLabel('Service address (base URL)').fill(baseUrl);
  await service.getByRole('button', { name: 'Save' }).click();
  await expect(service.getByRole('button', { name: 'Save' })).toBeDisabled();
  const section = page.getByRole('region', { name: 'API key', exact: true });
  await section.getByLabel('API key', { exact: true }).fill(key);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/^A key is stored\. Fingerprint:/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
  // With a key and an address the demo notice goes: tasks now go to this service.
  await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);
}

/** Settings → "Stop watching a task after (minutes)", committed with Enter as a user would. */
export async function setWatchTimeout(page: Page, minutes: number): Promise<Locator> {
  await showScreen(page, 'Settings');
  const field = page
    .getByRole('region', { name: 'Behaviour and appearance' })
    .getByLabel('Stop watching a task after (minutes)');
  await field.fill(String(minutes));
  await field.press('Enter');
  // The app's live region confirms the save (a refusal would show under the field instead).
  await expect(page.getByRole('status').filter({ hasText: /^Saved\.$/ })).toHaveCount(1);
  return field;
}

export function composeForm(page: Page): Locator {
  return page.getByRole('form', { name: 'New task' });
}

/** Types a prompt (and a custom size, if given) and presses Generate. */
export async function generate(
  page: Page,
  prompt: string,
  options: { customSize?: string } = {},
): Promise<void> {
  const form = composeForm(page);
  if (options.customSize !== undefined) {
    await form.getByLabel('Size', { exact: true }).selectOption({ label: 'Custom…' });
    await form.getByLabel('Custom size (width x height)').fill(options.customSize);
  }
  await form.getByLabel('Prompt', { exact: true }).fill(prompt);
  await form.getByRole('button', { name: /^Generate/ }).click();
  // The prompt empties once the submit went out to the main process.
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue('');
}

/** The history section of the Tasks screen. */
export function historySection(page: Page): Locator {
  return page.getByRole('region', { name: 'Tasks' });
}

/** The history's row of the task with this prompt (its accessible name is the prompt). */
export function taskRow(page: Page, prompt: string): Locator {
  return page
    .getByRole('feed', { name: 'Task history' })
    .getByRole('article', { name: prompt, exact: true });
}

/** The row's status badge ("Processing", "Stopped watching", "Not submitted"…). */
export function statusBadge(row: Locator): Locator {
  return row.locator('.badge');
}

/** Opens a row's details dialog and returns it. */
export async function openDetails(page: Page, prompt: string): Promise<Locator> {
  await taskRow(page, prompt).getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Task details' });
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function closeDialog(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
}

/** The gallery grid's cells. */
export function galleryTiles(page: Page): Locator {
  return page.getByRole('grid', { name: 'Images' }).getByRole('gridcell');
}

/** True once the image element has decoded real pixels (the file was served and read). */
export async function isDecoded(image: Locator): Promise<boolean> {
  return image.evaluate((node) => {
    const element = node as HTMLImageElement;
    return element.complete && element.naturalWidth > 0;
  });
}

/** The service's task with this prompt, once it has one (polls the control API). */
export async function serviceTask(demo: DemoProcess, prompt: string): Promise<ServiceTask> {
  let found: ServiceTask | undefined;
  await expect
    .poll(async () => {
      found = (await demo.tasks()).find((task) => task.prompt === prompt);
      return found !== undefined;
    })
    .toBe(true);
  if (!found) throw new Error(`The service has no task for “${prompt}”.`);
  return found;
}

/** Requests of one route that carried this account's key. */
export function byAccount<T extends { account: string | null }>(
  entries: readonly T[],
  account: string,
): T[] {
  return entries.filter((entry) => entry.account === account);
}

/** Polls of one task id. */
export function pollsOf(log: ServiceLog, taskId: string): ServiceLog['polls'] {
  return log.polls.filter((entry) => entry.path.startsWith(`/v1/tasks/${taskId}`));
}

export function recordFor(records: readonly TaskRecord[], prompt: string): TaskRecord {
  const record = records.find((entry) => entry.request.prompt === prompt);
  if (!record) throw new Error(`The history has no task for “${prompt}”.`);
  return record;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Checks that every image of `record` is saved on disk where the record says, with its
 * thumbnail, and that the task's folder holds its pictor.json sidecar.
 */
export async function expectSavedOnDisk(galleryDir: string, record: TaskRecord): Promise<void> {
  expect(record.folder, 'the task has a gallery folder').not.toBeNull();
  expect(record.images.length).toBeGreaterThan(0);
  for (const image of record.images) {
    expect(image.state).toBe('saved');
    expect(image.file).toMatch(/\/image-\d+\.png$/);
    expect(image.thumbnail).toMatch(/\/\.thumbs\/image-\d+\.webp$/);
    const file = await stat(join(galleryDir, image.file ?? ''));
    expect(file.size).toBe(image.bytes);
    expect(await exists(join(galleryDir, image.thumbnail ?? ''))).toBe(true);
  }
  expect(await exists(join(galleryDir, record.folder ?? '', 'pictor.json'))).toBe(true);
}

/** Every image file (png/jpeg/webp outside .thumbs) anywhere under the gallery folder. */
export async function imageFiles(galleryDir: string): Promise<string[]> {
  const entries = await readdir(galleryDir, { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries
    .filter((entry) => entry.isFile() && /^image-\d+\.(png|jpe?g|webp)$/.test(entry.name))
    .filter((entry) => !entry.parentPath.includes('.thumbs'))
    .map((entry) => join(entry.parentPath, entry.name));
}
