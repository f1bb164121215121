/**
 * The gallery harness (gallery-harness.tsx: layout sizes, the test-driven ResizeObserver, scroll
 * events) over the app's real wiring: the gallery screen asks main's own handlers, history and
 * trash (tests/support/wired-api.ts), one main per test file (shared-wired-main.ts). The page's
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
import { seedHistory } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';
import { mountGallery } from './gallery-harness';

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
 * A main of a describe's own whose tests share one large history, written once before them (a
 * history of 50,000 tasks takes seconds to write): `seed` prepares it. Each test starts with the
 * record of the page's requests cleared, and must leave the history as the next test expects.
 */
export function wiredGalleryOnce(
  seed: (main: WiredApi) => unknown,
  options: WiredApiOptions = {},
): (render?: WiredGalleryOptions) => Promise<RenderedWiredGallery> {
  let main: WiredApi | undefined;
  beforeAll(async () => {
    main = await startWiredApi(options);
    await seed(main);
  }, 120_000);
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
 * `count` tasks of one saved image each in main's history, as {@link seedGallery} makes them, with
 * files behind the images `withFiles` names only (writing 100,000 files for a scroll would take
 * longer than the test).
 */
export function seedLargeGallery(
  main: WiredApi,
  count: number,
  withFiles: (index: number) => boolean,
): void {
  const folder = join(main.runtime.galleryDir(), 'g');
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    if (!withFiles(index)) continue;
    writeFileSync(join(folder, `${String(index)}.png`), 'image');
    writeFileSync(join(folder, `${String(index)}.thumb.webp`), 'thumbnail');
  }
  seedHistory(main, count, (index) => ({
    images: [
      makeImage(0, { file: `g/${String(index)}.png`, thumbnail: `g/${String(index)}.thumb.webp` }),
    ],
    taskId: `svc-${String(index)}`,
  }));
}
