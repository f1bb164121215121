/**
 * The gallery harness (gallery-harness.tsx: layout sizes, the test-driven ResizeObserver, scroll
 * events, for every test of a file that calls wiredGallery or wiredLargeGallery) over the app's
 * real wiring: the gallery screen asks main's own handlers, history and trash (tests/support/wired-api.ts), one main per test file (shared-wired-main.ts). The page's
 * side goes through the interceptor made from the contract (tests/support/intercepted-api.ts),
 * fresh for each render: a test injects its faults with `main.intercept`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderResult } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type userEvent from '@testing-library/user-event';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { interceptWired, type InterceptedApi } from '../../../support/intercepted-api';
import { makeImage } from '../../../support/task-records';
import { startWiredApi, type WiredApi, type WiredApiOptions } from '../../../support/wired-api';
import { seedHistory, seedRecords } from '../render-wired-app';
import { runCachedFile } from '../../../support/run-cache';
import { HistoryStore } from '../../../../electron/core/history';
import { sharedWiredMain } from '../shared-wired-main';
import { galleryLayout, mountGallery } from './gallery-harness';

export interface WiredGalleryOptions {
  /** Prepares main before the screen starts (history records, settings…). */
  readonly prepare?: (main: InterceptedApi) => unknown;
  /**
   * Subscribe to main's events as the app does (the default: a triage change reaches the page
   * only as `tasks:updated`); false: the page hears only its own requests' answers.
   */
  readonly events?: boolean;
}

export interface RenderedWiredGallery extends RenderResult {
  readonly main: InterceptedApi;
  readonly user: ReturnType<typeof userEvent.setup>;
}

/**
 * Registers the file's main (call at the top of a test file) and gives the gallery's render over
 * it: the gallery (with the toasts and the live region), waited for until its first page.
 */
export function wiredGallery(
  options: WiredApiOptions = {},
): (render?: WiredGalleryOptions) => Promise<RenderedWiredGallery> {
  const main = sharedWiredMain(options);
  galleryLayout();
  return async (renderOptions = {}) => {
    const wired = interceptWired(await main());
    await renderOptions.prepare?.(wired);
    (window as { pictor?: unknown }).pictor = wired.api;
    return { ...(await mountGallery(renderOptions.events ?? true)), main: wired };
  };
}

/**
 * `count` tasks of one saved image each in main's history, newest first (`seed-000000` is the
 * newest), with a file behind each image and thumbnail
 * (placeholder bytes: the grid shows thumbnails by address, which jsdom does not load, and the
 * trash moves files without reading them).
 */
export function seedGallery(
  main: WiredApi,
  count: number,
  build: (index: number) => Partial<TaskRecord> & { prompt?: string } = () => ({}),
): TaskRecord[] {
  const folder = join(main.runtime.galleryDir(), 'g');
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    writeFileSync(join(folder, `${String(index)}.png`), 'image');
    writeFileSync(join(folder, `${String(index)}.thumb.webp`), 'thumbnail');
  }
  return seedHistory(main, count, (index) => ({
    images: [
      makeImage(0, { file: `g/${String(index)}.png`, thumbnail: `g/${String(index)}.thumb.webp` }),
    ],
    taskId: `svc-${String(index)}`,
    ...build(index),
  }));
}

/**
 * How long a large gallery's main may take to start: 50,000 tasks written (seconds of CPU on a
 * quiet machine, past two minutes at a load of 38 on 2 cores), or waited for while another file
 * writes them.
 */
const LARGE_GALLERY_MS = 240_000;

/**
 * A main of a describe's own whose tests share one history of `count` tasks as
 * {@link seedLargeGallery} makes them, with files behind the images `withFiles` names: the history
 * is written once per run (it takes seconds) and copied in before main starts (run-cache.ts).
 * Each test starts with the record of the page's requests cleared, and must leave the history as
 * the next test expects.
 */
export function wiredLargeGallery(
  count: number,
  withFiles: (index: number) => boolean,
): (render?: WiredGalleryOptions) => Promise<RenderedWiredGallery> {
  let main: WiredApi | undefined;
  galleryLayout();
  beforeAll(async () => {
    main = await startWiredApi({ history: await largeHistory(count) });
    writeImageFiles(main, count, withFiles);
  }, LARGE_GALLERY_MS);
  beforeEach(() => {
    if (main) main.calls.length = 0;
  });
  afterAll(async () => {
    await main?.close();
  });
  return async (renderOptions = {}) => {
    if (!main) throw new Error('The describe’s main did not start.');
    const wired = interceptWired(main);
    (window as { pictor?: unknown }).pictor = wired.api;
    return { ...(await mountGallery(renderOptions.events ?? true)), main: wired };
  };
}

/**
 * The run's history file of {@link largeGalleryRecords}(count), written by the first to ask, a
 * slice at a time: the thread's event loop turns between slices (its stall watchdog watches it).
 */
function largeHistory(count: number): Promise<string> {
  return runCachedFile(
    `large-gallery-${String(count)}.sqlite`,
    async (file) => {
      const records = largeGalleryRecords(count);
      const store = HistoryStore.open(file);
      try {
        for (let start = 0; start < count; start += 5_000) {
          store.putMany(records.slice(start, start + 5_000));
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        store.close();
      }
    },
    LARGE_GALLERY_MS,
  );
}

/** `count` tasks of one image each at `g/<index>.png` (its thumbnail beside), as seedGallery's. */
function largeGalleryRecords(count: number): TaskRecord[] {
  return seedRecords(count, (index) => ({
    images: [
      makeImage(0, { file: `g/${String(index)}.png`, thumbnail: `g/${String(index)}.thumb.webp` }),
    ],
    taskId: `svc-${String(index)}`,
  }));
}

/** Placeholder files behind the images and thumbnails of the tasks `withFiles` names. */
function writeImageFiles(main: WiredApi, count: number, withFiles: (index: number) => boolean) {
  const folder = join(main.runtime.galleryDir(), 'g');
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    if (!withFiles(index)) continue;
    writeFileSync(join(folder, `${String(index)}.png`), 'image');
    writeFileSync(join(folder, `${String(index)}.thumb.webp`), 'thumbnail');
  }
}

/**
 * `count` tasks of one saved image each in main's history, as {@link seedGallery} makes them, with
 * files behind the images `withFiles` names only (writing 100,000 files for a scroll would take
 * longer than the test).
 */
export function seedLargeGallery(
  main: WiredApi,
  count: number,
  withFiles: (index: number) => boolean,
): void {
  writeImageFiles(main, count, withFiles);
  main.runtime.core.history.putMany(largeGalleryRecords(count));
}
