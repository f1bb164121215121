/**
 * The Node side shared by the screenshot scripts: builds a harness page (the real renderer over
 * the fake API) with Vite, serves it with its gallery files and axe-core on 127.0.0.1, opens it
 * in headless Chromium, and audits a page with axe-core (in a real browser, so colour contrast
 * is checked too).
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/harness/host';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, dirname, extname, join, normalize, relative } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { REPO_ROOT } from '../../../support/source-files';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

/** Where the scripts write their PNGs. */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'docs/screenshots');

const AXE_PATH = '/axe.min.js';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** The value after `--<name>` on the command line. */
export function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** A path of the repository as the scripts print it. */
export function shown(path: string): string {
  return relative(REPO_ROOT, path);
}

/** Serves `dir`, and axe-core from the same origin (a page's CSP may allow scripts from 'self' only). */
function serve(dir: string, page: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(
      decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname),
    ).replace(/^(\.\.[/\\])+/, '');
    const file =
      path === AXE_PATH
        ? join(REPO_ROOT, 'node_modules/axe-core/axe.min.js')
        : join(dir, path === '/' ? page : path);
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

function serverUrl(server: Server, page: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://127.0.0.1:${String(port)}/${page}`;
}

/** Opens the harness page with this query string, in this theme; `label` prefixes its errors. */
export type OpenHarnessPage = (
  query: string,
  theme: 'light' | 'dark',
  label: string,
) => Promise<Page>;

export interface HarnessOptions {
  /** The page to build (its script beside it). */
  readonly html: string;
  /** Writes the gallery files the page's scene points at into the built folder. */
  readonly addFiles: (dir: string) => Promise<void>;
  readonly viewport: { width: number; height: number };
}

/**
 * Builds and serves the page, launches Chromium, runs `body` with a way to open the page, and
 * cleans everything up; resolves what `body` resolves.
 */
export async function withHarness<T>(
  options: HarnessOptions,
  body: (open: OpenHarnessPage) => Promise<T>,
): Promise<T> {
  const page = basename(options.html);
  const dir = await tempFolder('harness');
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    await buildPage(options.html, dir);
    await options.addFiles(dir);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    server = await serve(dir, page);
    const url = serverUrl(server, page);
    const opened = (browser = await launchBrowser());
    return await body((query, theme, label) =>
      openPage(opened, `${url}?${query}`, { viewport: options.viewport, theme, label }),
    );
  } finally {
    await browser?.close();
    server?.close();
    await removeFolder(dir);
  }
}

/**
 * A screenshot script's run: {@link withHarness} in the `--size` viewport (1280x800 by
 * default), then the axe verdict. `body` resolves the serious axe violations it found, which
 * this resolves too.
 */
export async function runScreenshots(
  page: Omit<HarnessOptions, 'viewport'>,
  body: (open: OpenHarnessPage) => Promise<number>,
): Promise<number> {
  const [width, height] = (option('size') ?? '1280x800').split('x').map(Number) as [number, number];
  const problems = await withHarness({ ...page, viewport: { width, height } }, body);
  console.log(
    problems === 0
      ? 'axe: no serious or critical violations'
      : `axe: ${String(problems)} serious/critical violations`,
  );
  return problems;
}

/** The page and the renderer it starts, built into `outDir` with relative asset URLs. */
async function buildPage(html: string, outDir: string): Promise<void> {
  await build({
    root: dirname(html),
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'chrome153', rollupOptions: { input: html } },
  });
}

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
}

/** A new page at `url`, reporting the page's errors, failed requests and console errors. */
async function openPage(
  browser: Browser,
  url: string,
  how: { viewport: HarnessOptions['viewport']; theme: 'light' | 'dark'; label: string },
): Promise<Page> {
  const page = await browser.newPage({ viewport: how.viewport, colorScheme: how.theme });
  page.on('pageerror', (error) => console.error(`[${how.label}] page error:`, error.message));
  page.on('response', (response) => {
    if (response.status() >= 400)
      console.error(`[${how.label}] ${String(response.status())}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[${how.label}] console:`, message.text());
  });
  await page.goto(url);
  return page;
}

interface AxeViolation {
  id: string;
  impact: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core on the page as it is, prints every violation, returns the serious/critical count. */
export async function audit(page: Page, name: string): Promise<number> {
  await page.addScriptTag({ url: AXE_PATH });
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
