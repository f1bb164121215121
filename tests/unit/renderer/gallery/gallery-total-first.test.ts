/**
 * The gallery's first load over the app's real wiring (main's own handlers and history): the
 * scrollbar's length (the count) is set as soon as main answers it, and the models, a second walk
 * of the library in main's history worker, are asked only after the count is in, so their walk
 * neither holds the length back nor delays the count (gallery-list-actions.ts). main's answers
 * are held through the contract's interceptor.
 */
import { describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { interceptWired } from '../../../support/intercepted-api';
import { UNTIL } from '../../../support/waits';
import { sharedWiredMain } from '../shared-wired-main';
import { seedGallery } from './gallery-wired';

const state = () => useAppStore.getState();
const fileMain = sharedWiredMain();

describe('the gallery’s first load', () => {
  it('sets the count as it arrives, and asks the models after it', async () => {
    const wired = await fileMain();
    seedGallery(wired, 30, (index) => ({
      request: { prompt: `Prompt ${String(index)}`, model: index % 2 ? 'm-odd' : 'm-even' },
    }));
    const main = interceptWired(wired);
    (window as { pictor?: unknown }).pictor = main.api;
    const count = main.intercept.request['gallery:count'].hold(1);
    const models = main.intercept.request['gallery:models'].hold(1);
    const load = state().galleryLoad();
    await vi.waitFor(() => expect(count.waiting).toBe(1), UNTIL);
    await vi.waitFor(() => expect(state().galleryStatus).toBe('ready'), UNTIL);
    // The count held: the models' walk is not asked yet.
    expect(models.waiting).toBe(0);
    count.release();
    // The models held: the scrollbar's length is there all the same.
    await vi.waitFor(() => expect(state().galleryTotal).toBe(30), UNTIL);
    await vi.waitFor(() => expect(models.waiting).toBe(1), UNTIL);
    models.release();
    await load;
    expect(state().galleryModels).toEqual(['m-even', 'm-odd']);
  });
});
