/**
 * What each image renderer test file starts once: the page built by the release's own esbuild
 * options into a temporary folder, and Debian's Chromium launched as the journeys launch it.
 */
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll } from 'vitest';
import { startImagePageStand, type ImagePageStand } from '../../support/image-page-stand';
import { IMAGE_RENDERER_DIR, buildImagePage } from '../../../electron/build/build-electron';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/host';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { REPO_ROOT } from '../../support/source-files';

export interface PageSetup {
  readonly browser: Browser;
  /** The built page's folder. */
  readonly pageRoot: string;
  /** A scratch folder for the test's files. */
  readonly dir: string;
  close(): Promise<void>;
}

export async function setUpPage(): Promise<PageSetup> {
  const dir = await tempFolder('image-page');
  await buildImagePage({ rootDir: REPO_ROOT, outDir: join(dir, 'build') }, { logLevel: 'silent' });
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
      await removeFolder(dir);
    },
  };
}

/** A test file's page and its stand, started before its tests and closed after them. */
export interface PageAndStand {
  setup(): PageSetup;
  stand(): ImagePageStand;
}

/** Sets up the page once for the calling test file and runs its jobs through a stand. */
export function usePageStand(jobTimeoutMs: number): PageAndStand {
  let setup: PageSetup | undefined;
  let stand: ImagePageStand | undefined;
  beforeAll(async () => {
    setup = await setUpPage();
    stand = await startImagePageStand({
      browser: setup.browser,
      pageRoot: setup.pageRoot,
      jobTimeoutMs,
    });
  });
  afterAll(async () => {
    await stand?.close();
    await setup?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The page is not set up yet.');
    return value;
  };
  return { setup: () => started(setup), stand: () => started(stand) };
}
