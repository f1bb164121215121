/**
 * Builds the renderer with the fake API (gallery-harness.html), serves it on 127.0.0.1, and in
 * headless Chromium screenshots the gallery and the viewer in light and dark
 * (docs/screenshots/gallery-<theme>.png, viewer-<theme>.png) and runs axe-core on each (in a
 * real browser, so colour contrast is checked too).
 *
 *   npx tsx tests/unit/renderer/gallery/harness/gallery-screenshots.ts [--size 1280x800] [--suffix -800x600]
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { audit, option, SCREENSHOT_DIR, shown, runScreenshots } from '../../harness/harness-server';
import { PICTURES, pictureSize } from './gallery-scene';

const THEMES = ['light', 'dark'] as const;

/** Pictures with some depth (gradients, a horizon, a sun) so thumbnails look like images. */
function pictureSvg(n: number, width: number, height: number): string {
  const hue = (n * 47) % 360;
  const horizon = Math.round(height * (0.55 + (n % 4) * 0.06));
  const sunX = Math.round(width * (0.2 + ((n * 13) % 60) / 100));
  const sunR = Math.round(Math.min(width, height) * (0.08 + (n % 3) * 0.03));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="hsl(${hue},55%,32%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},70%,72%)"/>
      </linearGradient>
      <linearGradient id="land" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${(hue + 180) % 360},35%,28%)"/><stop offset="1" stop-color="hsl(${(hue + 210) % 360},45%,14%)"/>
      </linearGradient>
    </defs>
    <rect width="${width}" height="${height}" fill="url(#sky)"/>
    <circle cx="${sunX}" cy="${horizon - sunR * 1.6}" r="${sunR}" fill="hsl(${(hue + 60) % 360},90%,88%)" opacity="0.9"/>
    <path d="M0 ${horizon} Q ${width * 0.3} ${horizon - height * 0.12} ${width * 0.55} ${horizon} T ${width} ${horizon - height * 0.05} V ${height} H 0 Z" fill="url(#land)"/>
    <path d="M0 ${horizon + height * 0.12} Q ${width * 0.4} ${horizon + height * 0.02} ${width} ${horizon + height * 0.16} V ${height} H 0 Z" fill="hsl(${(hue + 200) % 360},40%,10%)" opacity="0.7"/>
  </svg>`;
}

async function makePictures(dir: string): Promise<void> {
  await mkdir(join(dir, 'gallery/g'), { recursive: true });
  for (let n = 0; n < PICTURES; n += 1) {
    const { width, height } = pictureSize(n);
    const full = sharp(Buffer.from(pictureSvg(n, width, height))).png();
    await full.toFile(join(dir, `gallery/g/${String(n)}.png`));
    await sharp(Buffer.from(pictureSvg(n, width, height)))
      .resize(384, 384, { fit: 'inside' })
      .png()
      .toFile(join(dir, `gallery/g/${String(n)}.thumb.png`));
  }
}

async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
  );
}

async function shoot(page: Page, theme: string, suffix: string): Promise<number> {
  await page.waitForSelector('.gallery-tile img');
  await imagesLoaded(page);
  // Keyboard focus on the third tile, to show the focus ring.
  await page.focus('[role="gridcell"][tabindex="0"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  const gallery = join(SCREENSHOT_DIR, `gallery-${theme}${suffix}.png`);
  await page.screenshot({ path: gallery });
  let problems = await audit(page, `gallery-${theme}${suffix}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.viewer-stage__image');
  await imagesLoaded(page);
  await page.waitForTimeout(300);
  const viewer = join(SCREENSHOT_DIR, `viewer-${theme}${suffix}.png`);
  await page.screenshot({ path: viewer });
  problems += await audit(page, `viewer-${theme}${suffix}`);
  console.log(`wrote ${shown(gallery)}, ${shown(viewer)}`);
  return problems;
}

async function main(): Promise<void> {
  const suffix = option('suffix') ?? '';
  const harness = {
    html: join(import.meta.dirname, 'gallery-harness.html'),
    addFiles: makePictures,
  };
  const problems = await runScreenshots(harness, async (open) => {
    let found = 0;
    for (const theme of THEMES) {
      const page = await open(`theme=${theme}`, theme, theme);
      found += await shoot(page, theme, suffix);
      await page.close();
    }
    return found;
  });
  if (problems > 0) process.exitCode = 1;
}

await main();
