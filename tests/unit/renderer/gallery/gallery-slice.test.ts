import { describe, expect, it } from 'vitest';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { useAppStore } from '../../../../renderer/store/app-store';
import { FakePictorApi, galleryCursorOf, installFakeApi } from '../../../fakes/fake-pictor-api';
import { makeImage } from '../../../support/task-records';

const state = () => useAppStore.getState();

function fakeWith(count: number): FakePictorApi {
  const fake = installFakeApi(new FakePictorApi());
  fake.seedTasks(count, (index) => ({
    images: [makeImage(0)],
    request: { prompt: `Prompt ${String(index)}`, model: index % 2 ? 'm-odd' : 'm-even' },
  }));
  return fake;
}

describe('the gallery slice', () => {
  it('loads the first page, then the next ones by cursor until there are no more', async () => {
    const fake = fakeWith(450);
    await state().galleryLoad();
    const after = (n: number) => galleryCursorOf(fake.galleryItemAt(n));
    expect(state()).toMatchObject({ galleryStatus: 'ready', galleryNextCursor: after(199) });
    expect(state().galleryModels).toEqual(['m-even', 'm-odd']);
    await state().galleryLoadMore();
    await state().galleryLoadMore();
    expect(state().galleryItems).toHaveLength(450);
    expect(state().galleryNextCursor).toBeNull();
    await state().galleryLoadMore();
    expect(fake.callsTo('gallery:list').map((query) => query.cursor)).toEqual([
      undefined,
      after(199),
      after(399),
    ]);
  });

  it('asks for one page at a time', async () => {
    const fake = fakeWith(450);
    await state().galleryLoad();
    await Promise.all([state().galleryLoadMore(), state().galleryLoadMore()]);
    expect(fake.callsTo('gallery:list')).toHaveLength(2);
  });

  it('drops a page that answers after the filters changed', async () => {
    const fake = fakeWith(10);
    let release: (() => void) | undefined;
    const slow: RequestOutput<'gallery:list'> = { items: [], nextCursor: null };
    fake.handle('gallery:list', (input) =>
      input.search === undefined
        ? new Promise((resolve) => {
            release = () => resolve(slow);
          })
        : {
            items: [
              {
                localId: 'match',
                taskId: null,
                index: 0,
                image: makeImage(0),
                prompt: 'Match',
                createdAt: 1,
              },
            ],
            nextCursor: null,
          },
    );
    const first = state().galleryLoad();
    state().gallerySetFilters({ search: 'match' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    release?.();
    await first;
    expect(state().galleryItems.map((item) => item.localId)).toEqual(['match']);
  });

  it('says why the gallery could not be read, and keeps loaded images when a later page fails', async () => {
    const fake = fakeWith(300);
    fake.fail('gallery:list', { message: 'The gallery folder is gone.', detail: 'ENOENT' }, 1);
    await state().galleryLoad();
    expect(state()).toMatchObject({
      galleryStatus: 'error',
      galleryError: { message: 'The gallery folder is gone.', detail: 'ENOENT' },
    });
    await state().galleryLoad();
    fake.fail('gallery:list', { message: 'Busy.' }, 1);
    await state().galleryLoadMore();
    expect(state().galleryItems).toHaveLength(200);
    expect(state()).toMatchObject({ galleryStatus: 'ready', galleryLoadingMore: false });
    expect(state().galleryError?.message).toBe('Busy.');
  });

  it('does nothing on events before the gallery was first shown', async () => {
    const fake = fakeWith(3);
    await state().galleryRefresh();
    state().galleryApplyTaskUpdate({ record: fake.task('seed-000000')!, live: null });
    expect(fake.callsTo('gallery:list')).toHaveLength(0);
    expect(state().galleryItems).toEqual([]);
  });

  it('moves the open viewer to the next image when its image is deleted', async () => {
    fakeWith(3);
    await state().galleryLoad();
    const [first, second] = state().galleryItems;
    state().galleryOpenViewer('seed-000001/0');
    await state().galleryDelete(second!);
    expect(state().galleryViewerKey).toBe('seed-000002/0');
    await state().galleryDelete(state().galleryItems[1]!);
    expect(state().galleryViewerKey).toBe('seed-000000/0');
    await state().galleryDelete(first!);
    expect(state().galleryViewerKey).toBeNull();
    expect(state().galleryItems).toEqual([]);
  });
});
