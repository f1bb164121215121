/**
 * The app for the benches that measure the built renderer over the real main (gallery, keypress,
 * ui): a test build of the renderer, a temporary folder with a `tasks`-task bench history (the
 * cached fixture) and the gallery's thumbnails of the bench tasks in the ranges given, the app
 * launched on them through the end-to-end harness; everything closed and removed after `body`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_FILE } from '../../electron/core/pictor-core';
import { launchApp, type LaunchedApp } from '../e2e/harness/launch-app';
import { acquireTestBuild } from '../support/test-build';
import { writeGallery, type TaskRange } from './gallery-folder';
import { bigHistory } from './history-fixture';
import { withNameShim } from './suites/renderer';

/** What the bench's app stands on: where its history came from, how many thumbnails it has. */
export interface BenchFixture {
  /** The history's origin (the cache, or built now). */
  readonly source: string;
  /** Thumbnail files written. */
  readonly images: number;
}

export async function withBenchApp<T>(
  name: string,
  tasks: number,
  thumbnails: readonly TaskRange[],
  body: (app: LaunchedApp, fixture: BenchFixture) => Promise<T>,
): Promise<T> {
  const acquired = await acquireTestBuild();
  console.error(`bench: ${name}: ${acquired.line}`);
  const root = mkdtempSync(join(tmpdir(), `pictor-bench-${name}-`));
  try {
    const data = join(root, 'data');
    mkdirSync(data, { recursive: true });
    // Only the source is kept: the harness's main runs in this process, and the fixture's records
    // held here would be its garbage collector's work.
    const { source } = bigHistory(join(data, HISTORY_FILE), tasks);
    console.error(`bench: ${name}: ${tasks.toLocaleString('en')} tasks ${source}`);
    const images = await writeGallery(root, thumbnails);
    return await withNameShim(async () => {
      const app = await launchApp({
        userDataDir: data,
        galleryDir: join(root, 'gallery'),
        http2: true,
        guardNavigation: false,
      });
      try {
        return await body(app, { source, images });
      } finally {
        await app.close();
      }
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
    await acquired.release();
  }
}
