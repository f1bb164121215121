/**
 * Builds the renderer with the fake API (gallery-harness.html), serves it on 127.0.0.1, and in
 * headless Chromium screenshots the gallery and the viewer in light and dark
 * (docs/screenshots/gallery-<theme>.png, viewer-<theme>.png) and runs axe-core on each (in a
 * real browser, so colour contrast is checked too).
 *
 *   npx tsx tests/unit/renderer/gallery/harness/gallery-screenshots.ts [--size 1280x800] [--suffix -800x600]
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { build } from 'vite';
import { PICTURES, pictureSize } from './gallery-scene';

const ROOT = resolve(import.meta.dirname, '../../../../..');
const OUT = join(ROOT, 'docs/screenshots');
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

function serve(dir: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((request, response) => {
    const path = normalize(
      decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname),
    ).replace(/^(\.\.[/\\])+/, '');
    // axe-core comes from the same origin: the page's CSP allows scripts from 'self' only.
    const file =
      path === '/axe.min.js'
        ? join(ROOT, 'node_modules/axe-core/axe.min.js')
        : join(dir, path === '/' ? 'gallery-harness.html' : path);
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
      done({
        url: `http://127.0.0.1:${String(port)}/gallery-harness.html`,
        close: () => server.close(),
      });
    }),
  );
}

interface AxeViolation {
  id: string;
  impact: string;
  nodes: Array<{ target: string[] }>;
}

async function audit(page: Page, name: string): Promise<number> {
  await page.addScriptTag({ url: './axe.min.js' });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = violations
    .map(
      (v) =>
        `${v.id}(${v.impact}, ${String(v.nodes.length)}: ${v.nodes
          .slice(0, 2)
          .map((n) => n.target.join(' '))
          .join(' | ')})`,
    )
    .join('; ');
  console.log(`${name}: axe: ${summary || 'no violations'}`);
  return serious.length;
}

async function imagesLoaded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
  );
}

async function shoot(page: Page, url: string, theme: string, suffix: string): Promise<number> {
  await page.goto(`${url}?theme=${theme}`);
  await page.waitForSelector('.gallery-tile img');
  await imagesLoaded(page);
  // Keyboard focus on the third tile, to show the focus ring.
  await page.focus('[role="gridcell"][tabindex="0"]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  const gallery = join(OUT, `gallery-${theme}${suffix}.png`);
  await page.screenshot({ path: gallery });
  let problems = await audit(page, `gallery-${theme}${suffix}`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.viewer-stage__image');
  await imagesLoaded(page);
  await page.waitForTimeout(300);
  const viewer = join(OUT, `viewer-${theme}${suffix}.png`);
  await page.screenshot({ path: viewer });
  problems += await audit(page, `viewer-${theme}${suffix}`);
  console.log(`wrote ${gallery.replace(`${ROOT}/`, '')}, ${viewer.replace(`${ROOT}/`, '')}`);
  return problems;
}

async function main(): Promise<void> {
  const [width, height] = (option('size') ?? '1280x800').split('x').map(Number) as [number, number];
  const suffix = option('suffix') ?? '';
  const dir = await mkdtemp(join(tmpdir(), 'pictor-gallery-harness-'));
  await build({
    root: import.meta.dirname,
    base: './',
    logLevel: 'warn',
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'chrome130',
      rollupOptions: { input: join(import.meta.dirname, 'gallery-harness.html') },
    },
  });
  await makePictures(dir);
  await mkdir(OUT, { recursive: true });
  const server = await serve(dir);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  let problems = 0;
  try {
    for (const theme of THEMES) {
      const page = await browser.newPage({ viewport: { width, height }, colorScheme: theme });
      page.on('pageerror', (error) => console.error(`[${theme}] page error:`, error.message));
      page.on('response', (response) => {
        if (response.status() >= 400)
          console.error(`[${theme}] ${String(response.status())}: ${response.url()}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error') console.error(`[${theme}] console:`, message.text());
      });
      problems += await shoot(page, server.url, theme, suffix);
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    problems === 0
      ? 'axe: no serious or critical violations'
      : `axe: ${String(problems)} serious/critical violations`,
  );
  if (problems > 0) process.exitCode = 1;
}

await main();
