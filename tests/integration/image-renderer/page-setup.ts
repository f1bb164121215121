/**
 * What each image renderer test file starts once: the page built by the release's own esbuild
 * options into a temporary folder, and Debian's Chromium launched as the journeys launch it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { IMAGE_RENDERER_DIR, buildImagePage } from '../../../electron/build/build-electron';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/host';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface PageSetup {
  readonly browser: Browser;
  /** The built page's folder. */
  readonly pageRoot: string;
  /** A scratch folder for the test's files. */
  readonly dir: string;
  close(): Promise<void>;
}

export async function setUpPage(): Promise<PageSetup> {
  const dir = await mkdtemp(join(tmpdir(), 'pictor-image-page-'));
  await buildImagePage({ rootDir: ROOT, outDir: join(dir, 'build') }, { logLevel: 'silent' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  return {
    browser,
    pageRoot: join(dir, 'build', IMAGE_RENDERER_DIR),
    dir,
    async close() {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
