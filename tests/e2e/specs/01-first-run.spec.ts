/**
 * Journey 1, first run: no key, so the built-in demo service runs and says so; one prompt from
 * the compose form becomes a completed task with a thumbnail, an image in the gallery, and a real
 * PNG on disk beside its pictor.json sidecar and thumbnail; the history on disk agrees.
 *
 * Only a browser shows here: the built bundle loading over the real protocols and an image decoded
 * and painted from the gallery protocol; the first screen a user meets, end to end.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { listFiles, readHistory } from './support/disk';
import { useAppSession } from './support/session';
import { expectLoadedImage } from './support/ui';

const PROMPT = 'A lighthouse on a cliff at dawn, first run';

const session = useAppSession('first-run');

test('first run: demo banner, generate one image, see it in tasks and gallery, find it on disk', async () => {
  const { folders } = session;
  const { page } = await session.launch({
    env: { PICTOR_DEMO_DURATION_MS: '1500', PICTOR_POLL_INTERVAL_MS: '300' },
  });

  const banner = page.getByRole('region', { name: 'Demo service' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('built-in demo service');
  await expect(banner.getByRole('button', { name: 'Connect a service' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No tasks yet' })).toBeVisible();

  const form = page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByRole('button', { name: 'Generate', exact: true }).click();

  const row = page.getByRole('article', { name: PROMPT });
  await expect(row).toBeVisible();
  await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('1 image');
  await expectLoadedImage(row.getByRole('img', { name: PROMPT }));

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Gallery' })
    .click();
  const grid = page.getByRole('grid', { name: 'Images' });
  await expect(grid.getByRole('gridcell')).toHaveCount(1);
  await expectLoadedImage(grid.getByRole('img', { name: PROMPT }));

  // The disk: one task folder with the image, its sidecar and its thumbnail. The image and its
  // thumbnail are there before the task says so; the sidecar is written again after that, to say
  // the image is saved, through a temporary file in .pictor-tmp: read until that write is done.
  const files = await listFiles(folders.galleryDir);
  const image = files.find((file) => file.endsWith('/image-1.png'));
  expect(image, `gallery files: ${files.join(', ')}`).toBeDefined();
  const folder = (image ?? '').slice(0, -'/image-1.png'.length);
  const sidecarFile = join(folders.galleryDir, folder, 'pictor.json');
  const sidecarRecord = async () => {
    const parsed = parseSidecar(await readFile(sidecarFile, 'utf8'));
    if (!parsed.ok) throw new Error(`sidecar: ${parsed.reason}`);
    return parsed.record;
  };
  await expect
    .poll(async () => (await sidecarRecord()).images)
    .toMatchObject([{ index: 0, state: 'saved', file: `${folder}/image-1.png` }]);
  await expect
    .poll(() => listFiles(folders.galleryDir))
    .toEqual([`${folder}/.thumbs/image-1.webp`, `${folder}/image-1.png`, `${folder}/pictor.json`]);
  const png = await sharp(join(folders.galleryDir, folder, 'image-1.png')).metadata();
  expect(png).toMatchObject({ format: 'png', width: 1024, height: 1024 });
  const thumbnail = await sharp(
    join(folders.galleryDir, folder, '.thumbs', 'image-1.webp'),
  ).metadata();
  expect(thumbnail.format).toBe('webp');

  const sidecar = await sidecarRecord();
  expect(sidecar).toMatchObject({
    status: 'completed',
    endpoint: 'demo:',
    folder,
    request: { prompt: PROMPT },
    images: [{ index: 0, state: 'saved', file: `${folder}/image-1.png` }],
  });
  // The demo service's own id, as it handed it out.
  expect(sidecar.taskId).toMatch(/^task_[0-9a-f]{24}$/);

  // The history, read back after the app closed, holds the same task.
  await session.close();
  const history = readHistory(folders.userDataDir);
  expect(history).toHaveLength(1);
  expect(history[0]).toMatchObject({
    localId: sidecar.localId,
    taskId: sidecar.taskId,
    status: 'completed',
    images: [
      {
        state: 'saved',
        file: `${folder}/image-1.png`,
        thumbnail: `${folder}/.thumbs/image-1.webp`,
      },
    ],
  });
});
