/**
 * The gallery slice's own flows (pages by cursor, one page at a time, events before the first
 * show, the viewer after a delete) over the app's real wiring: main's own handlers, history and
 * gallery folder (tests/support/wired-api.ts), one main for the file. What main cannot be made to
 * do on demand (an answer held back, a failing read) goes through the contract's interceptor
 * over that main (tests/support/intercepted-api.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { interceptWired, type InterceptedApi } from '../../../support/intercepted-api';
import type { WiredApi } from '../../../support/wired-api';
import { UNTIL } from '../../../support/waits';
import { sharedWiredMain } from '../shared-wired-main';
import { seedGallery } from './gallery-wired';

const state = () => useAppStore.getState();
const fileMain = sharedWiredMain();

const build = (index: number) => ({
  request: { prompt: `Prompt ${String(index)}`, model: index % 2 ? 'm-odd' : 'm-even' },
});

/** Main with `count` tasks of one saved image each (files behind them), as the page's API. */
async function mainWith(count: number, seed = build): Promise<WiredApi> {
  const main = await fileMain();
  seedGallery(main, count, seed);
  (window as { pictor?: unknown }).pictor = main.api;
  return main;
}

// Fault: the same main behind the contract's interceptor, for the tests below that hold main's
// answer back or make it fail.
async function interceptedWith(count: number, seed = build): Promise<InterceptedApi> {
  const main = interceptWired(await mainWith(count, seed));
  (window as { pictor?: unknown }).pictor = main.api;
  return main;
}

describe('the gallery slice', () => {
  it('loads the first page, then the next ones by cursor until there are no more', async () => {
    const main = await mainWith(450);
    await state().galleryLoad();
    expect(state().galleryStatus).toBe('ready');
    expect(selectGalleryItems(state())).toHaveLength(200);
    const cursors = [state().galleryNextCursor];
    expect(cursors[0]).toEqual(expect.any(String));
    expect(state().galleryModels).toEqual(['m-even', 'm-odd']);
    await state().galleryLoadMore();
    expect(selectGalleryItems(state())).toHaveLength(400);
    cursors.push(state().galleryNextCursor);
    await state().galleryLoadMore();
    expect(state().galleryNextCursor).toBeNull();
    await state().galleryLoadMore();
    // Each page asked with main's cursor after the last, and nothing asked once there is no more.
    expect(main.callsTo('gallery:list').map((query) => query.cursor)).toEqual([
      undefined,
      ...cursors,
    ]);
    // Every image once, newest first: the pages meet without a gap or a repeat.
    expect(selectGalleryItems(state()).map((item) => item.prompt)).toEqual(
      Array.from({ length: 450 }, (_, index) => `Prompt ${String(index)}`),
    );
  });

  it('asks for one page at a time', async () => {
    const main = await mainWith(450);
    await state().galleryLoad();
    await Promise.all([state().galleryLoadMore(), state().galleryLoadMore()]);
    expect(main.callsTo('gallery:list')).toHaveLength(2);
    expect(selectGalleryItems(state())).toHaveLength(400);
  });

  // Fault: main's answer to the first page held back until the filters changed.
  it('drops a page that answers after the filters changed', async () => {
    // Only the fourth task's prompt matches the search the filters change to.
    const main = await interceptedWith(10, (index) =>
      index === 3 ? { request: { prompt: 'Match', model: 'm-odd' } } : build(index),
    );
    // The first page (no search) is held; the search's page goes straight to main and answers.
    const held = main.intercept.request['gallery:list'].hold(1);
    const first = state().galleryLoad();
    state().gallerySetFilters({ search: 'match' });
    const matching = () => selectGalleryItems(state()).map((item) => item.localId);
    await vi.waitFor(() => expect(matching()).toEqual(['seed-000003']), UNTIL);
    expect(held.waiting).toBe(1);
    held.release();
    await first;
    expect(main.callsTo('gallery:list')).toHaveLength(2);
    expect(matching()).toEqual(['seed-000003']);
  });

  // Fault: gallery:list fails once, then fails again on a later page.
  it('says why the gallery could not be read, and keeps loaded images when a later page fails', async () => {
    const main = await interceptedWith(300);
    const gallery = main.intercept.request['gallery:list'];
    gallery.fail({ code: 'failed', message: 'The gallery folder is gone.', detail: 'ENOENT' }, 1);
    await state().galleryLoad();
    expect(state()).toMatchObject({
      galleryStatus: 'error',
      galleryError: { message: 'The gallery folder is gone.', detail: 'ENOENT' },
    });
    await state().galleryLoad();
    gallery.fail({ code: 'failed', message: 'Busy.' }, 1);
    await state().galleryLoadMore();
    expect(selectGalleryItems(state())).toHaveLength(200);
    expect(state()).toMatchObject({ galleryStatus: 'ready', galleryLoadingMore: false });
    expect(state().galleryError?.message).toBe('Busy.');
  });

  it('does nothing on events before the gallery was first shown', async () => {
    const main = await mainWith(3);
    await state().galleryRefresh();
    const record = main.runtime.core.history.get('seed-000000')!;
    state().galleryApplyTaskUpdate({ record, live: null });
    expect(main.callsTo('gallery:list')).toHaveLength(0);
    expect(selectGalleryItems(state())).toEqual([]);
  });

  it('moves the open viewer to the next image when its image is deleted', async () => {
    const main = await mainWith(3);
    await state().galleryLoad();
    const [first, second] = selectGalleryItems(state());
    state().galleryOpenViewer('seed-000001/0');
    await state().galleryDelete(second!);
    expect(state().galleryViewerKey).toBe('seed-000002/0');
    await state().galleryDelete(selectGalleryItems(state())[1]!);
    expect(state().galleryViewerKey).toBe('seed-000000/0');
    await state().galleryDelete(first!);
    expect(state().galleryViewerKey).toBeNull();
    expect(selectGalleryItems(state())).toEqual([]);
    // Main deleted them: its gallery lists none.
    const left = await main.api.invoke('gallery:list', { limit: 10 });
    expect(left.ok && left.value.items).toEqual([]);
  });
});
