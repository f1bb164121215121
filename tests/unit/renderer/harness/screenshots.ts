/**
 * Builds the renderer with the fake API (harness.html), serves it on 127.0.0.1, and in headless
 * Chromium takes a screenshot of every scene in light and dark (docs/screenshots/<scene>-<theme>.png)
 * and runs axe-core on it (in a real browser, so colour contrast is checked too).
 *
 *   npx tsx tests/unit/renderer/harness/screenshots.ts [--size 1280x800] [--only tasks]
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  audit,
  option,
  SCREENSHOT_DIR,
  shown,
  runScreenshots,
  type OpenHarnessPage,
} from './harness-server';
import { IMAGE_COUNT } from './scenes';

const SCENES = [
  'tasks',
  'tasks-empty',
  'task-details',
  'tasks-offline',
  'settings',
  'settings-consent',
] as const;
const THEMES = ['light', 'dark'] as const;

async function makeImages(dir: string): Promise<void> {
  await mkdir(join(dir, 'gallery/g'), { recursive: true });
  for (let n = 0; n < IMAGE_COUNT; n += 1) {
    const hue = (n * 37) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 80) % 360},60%,30%)"/></linearGradient></defs><rect width="256" height="256" fill="url(#g)"/><circle cx="${80 + ((n * 23) % 100)}" cy="${90 + ((n * 17) % 80)}" r="${30 + (n % 4) * 10}" fill="hsl(${(hue + 180) % 360},80%,85%)" opacity="0.8"/></svg>`;
    await sharp(Buffer.from(svg))
      .png()
      .toFile(join(dir, `gallery/g/${n}.png`));
  }
}

/** Screenshots one scene in one theme and audits it; returns the serious axe violations. */
async function shoot(
  open: OpenHarnessPage,
  scene: (typeof SCENES)[number],
  theme: (typeof THEMES)[number],
  suffix: string,
): Promise<number> {
  const page = await open(`scene=${scene}&theme=${theme}`, theme, `${scene}/${theme}`);
  await page.waitForSelector('.app');
  await page.waitForTimeout(900);
  if (scene === 'settings-consent') {
    // Today's contract's key (each other service has a key field and a Save key of its own).
    const key = page.getByRole('region', { name: 'API key' });
    await key.getByRole('textbox', { name: 'API key', exact: true }).fill('sk-test-1234');
    await key.getByRole('button', { name: 'Save key' }).click();
    await page.waitForTimeout(300);
  }
  const file = join(SCREENSHOT_DIR, `${scene}${suffix}-${theme}.png`);
  await page.screenshot({ path: file });
  const problems = await audit(page, `${scene}${suffix}-${theme}`);
  console.log(`wrote ${shown(file)}`);
  await page.close();
  return problems;
}

async function main(): Promise<void> {
  const only = option('only');
  const suffix = option('suffix') ?? '';
  const harness = { html: join(import.meta.dirname, 'harness.html'), addFiles: makeImages };
  // Violations are printed for review; unlike the gallery's, this script does not fail on them.
  await runScreenshots(harness, async (open) => {
    let found = 0;
    for (const scene of SCENES.filter((name) => !only || name === only)) {
      for (const theme of THEMES) found += await shoot(open, scene, theme, suffix);
    }
    return found;
  });
}

await main();
