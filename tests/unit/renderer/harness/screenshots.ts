/**
 * Builds the renderer with the fake API (harness.html), serves it on 127.0.0.1, and in headless
 * Chromium takes a screenshot of every scene in light and dark (docs/screenshots/<scene>-<theme>.png)
 * and runs axe-core on it (in a real browser, so colour contrast is checked too).
 *
 *   npx tsx tests/unit/renderer/harness/screenshots.ts [--size 1280x800] [--only tasks]
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { build } from 'vite';
import { IMAGE_COUNT } from './scenes';

const ROOT = resolve(import.meta.dirname, '../../../..');
const OUT = join(ROOT, 'docs/screenshots');
const SCENES = [
  'tasks',
  'tasks-empty',
  'task-details',
  'tasks-offline',
  'settings',
  'settings-consent',
] as const;
const THEMES = ['light', 'dark'] as const;
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.map': 'application/json',
};

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

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

function serve(dir: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((request, response) => {
    const path = normalize(
      decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname),
    ).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'harness.html' : path);
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://127.0.0.1:${port}/harness.html`, close: () => server.close() });
    }),
  );
}

async function main(): Promise<void> {
  const [width, height] = (option('size') ?? '1280x800').split('x').map(Number) as [number, number];
  const only = option('only');
  const suffix = option('suffix') ?? '';
  const dir = await mkdtemp(join(tmpdir(), 'pictor-harness-'));
  await build({
    root: import.meta.dirname,
    base: './',
    logLevel: 'warn',
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'chrome130',
      rollupOptions: { input: join(import.meta.dirname, 'harness.html') },
    },
  });
  await makeImages(dir);
  await mkdir(OUT, { recursive: true });
  const server = await serve(dir);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const axeSource = await readFile(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  let problems = 0;
  try {
    for (const scene of SCENES.filter((name) => !only || name === only)) {
      for (const theme of THEMES) {
        const page = await browser.newPage({ viewport: { width, height }, colorScheme: theme });
        page.on('pageerror', (error) =>
          console.error(`[${scene}/${theme}] page error:`, error.message),
        );
        await page.goto(`${server.url}?scene=${scene}&theme=${theme}`);
        await page.waitForSelector('.app');
        await page.waitForTimeout(900);
        if (scene === 'settings-consent') {
          await page.getByRole('textbox', { name: 'API key' }).fill('sk-test-1234');
          await page.getByRole('button', { name: 'Save key' }).click();
          await page.waitForTimeout(300);
        }
        const file = join(OUT, `${scene}${suffix}-${theme}.png`);
        await page.screenshot({ path: file });
        await page.addScriptTag({ content: axeSource });
        const result = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: {
                run: (
                  context: Document,
                  options: object,
                ) => Promise<{
                  violations: Array<{
                    id: string;
                    impact: string;
                    nodes: Array<{ target: string[] }>;
                  }>;
                }>;
              };
            }
          ).axe;
          return axe.run(document, { resultTypes: ['violations'] });
        });
        const serious = result.violations.filter(
          (v) => v.impact === 'serious' || v.impact === 'critical',
        );
        problems += serious.length;
        const summary = result.violations
          .map(
            (v) =>
              `${v.id}(${v.impact}, ${v.nodes.length}: ${v.nodes
                .slice(0, 2)
                .map((n) => n.target.join(' '))
                .join(' | ')})`,
          )
          .join('; ');
        console.log(
          `${scene}${suffix}-${theme}: ${file.replace(`${ROOT}/`, '')} axe: ${summary || 'no violations'}`,
        );
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    problems === 0
      ? 'axe: no serious or critical violations'
      : `axe: ${problems} serious/critical violations`,
  );
}

await main();
