/**
 * The chromium host's image engine: the app's own image renderer page (from the test build), in
 * the same browser as the journeys' window, driven by the app's RendererJobs
 * (tests/support/image-page-stand.ts). The journeys then save, check and thumbnail every image
 * with Chromium's codecs, as the app does in its hidden window.
 */
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { IMAGE_RENDERER_DIR } from '../../../electron/build/build-electron';
import type { ImageEngine } from '../../../electron/ports/image-engine';
import { currentTestBuild } from '../../support/test-build';
import { startImagePageStand } from '../../support/image-page-stand';

export interface PageImageEngine {
  readonly engine: ImageEngine;
  close(): Promise<void>;
}

export async function startPageImageEngine(browser: Browser): Promise<PageImageEngine> {
  const stand = await startImagePageStand({
    browser,
    pageRoot: join(currentTestBuild().electronDir, IMAGE_RENDERER_DIR),
  });
  return { engine: stand.engine, close: () => stand.close() };
}
