/**
 * The gallery's "has Content Credentials" filter (schema v5's `has_credentials` column): images
 * whose record carries a verdict other than `none`, in the list, its count and every order, with
 * a search; and a prompt search finds a credentialed image (whose XMP is beside it, not in it)
 * the same as any other, since the history indexes prompts from records, not from files.
 */
import { describe, expect, it } from 'vitest';
import type { ContentCredentials } from '../../../../shared/domain/content-credentials';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { historyFilePerTest, makeImage, makeRecord } from './history-fixtures';

const history = historyFilePerTest();

const VALID: ContentCredentials = {
  state: 'valid',
  signer: 'Test Signer',
  trusted: false,
  aiGenerated: true,
};

function seed(store: HistoryStore): void {
  const credentialed = (index: number, credentials: ContentCredentials) => ({
    ...makeImage(index),
    xmpFile: `task/image-${index + 1}.xmp`,
    contentCredentials: credentials,
  });
  store.put(
    makeRecord({
      localId: 'signed',
      createdAt: 3,
      request: { prompt: 'a signed harbour at dawn' },
      images: [
        credentialed(0, VALID),
        credentialed(1, { state: 'invalid', codes: ['assertion.dataHash.mismatch'] }),
        { ...makeImage(2), contentCredentials: { state: 'none' } },
      ],
    }),
  );
  store.put(
    makeRecord({
      localId: 'plain',
      createdAt: 2,
      request: { prompt: 'a plain harbour at dusk' },
      images: [makeImage(0)],
    }),
  );
  store.put(
    makeRecord({
      localId: 'unreadable',
      createdAt: 1,
      request: { prompt: 'a broken manifest' },
      images: [{ ...makeImage(0), contentCredentials: { state: 'unreadable' } }],
    }),
  );
}

const keys = (page: ReturnType<HistoryStore['listImages']>) =>
  page.items.map((item) => `${item.localId}/${String(item.index)}`);

describe('the "has Content Credentials" filter', () => {
  it('lists and counts the images that carry credentials, whatever their verdict', () => {
    const store = HistoryStore.open(history.file);
    seed(store);
    const withCredentials = ['signed/0', 'signed/1', 'unreadable/0'];
    expect(keys(store.listImages({ contentCredentials: true }))).toEqual(withCredentials);
    expect(store.countImages({ contentCredentials: true })).toBe(3);
    expect(keys(store.listImages({ contentCredentials: false }))).toEqual(['signed/2', 'plain/0']);
    for (const sort of ['oldest', 'prompt'] as const) {
      expect(keys(store.listImages({ contentCredentials: true, sort })).sort()).toEqual(
        withCredentials,
      );
    }
    expect(keys(store.listImages({ contentCredentials: true, offset: 1, limit: 1 }))).toEqual([
      'signed/1',
    ]);
    store.close();
  });

  it('combines with a search; a search finds a credentialed image’s prompt like any other', () => {
    const store = HistoryStore.open(history.file);
    seed(store);
    expect(keys(store.listImages({ search: 'harbour' }))).toEqual([
      'signed/0',
      'signed/1',
      'signed/2',
      'plain/0',
    ]);
    expect(keys(store.listImages({ search: 'harbour', contentCredentials: true }))).toEqual([
      'signed/0',
      'signed/1',
    ]);
    expect(store.countImages({ search: 'dawn', contentCredentials: true })).toBe(2);
    store.close();
  });

  it('a history from before the column opens upgraded, its images without credentials', () => {
    const before = HistoryStore.open(history.file, { migrations: HISTORY_MIGRATIONS.slice(0, 4) });
    before.put(makeRecord({ localId: 'old', createdAt: 1, images: [makeImage(0)] }));
    before.close();
    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(store.countImages({ contentCredentials: true })).toBe(0);
    expect(store.countImages({ contentCredentials: false })).toBe(1);
    store.put(
      makeRecord({
        localId: 'old',
        createdAt: 1,
        images: [{ ...makeImage(0), contentCredentials: VALID }],
      }),
    );
    expect(keys(store.listImages({ contentCredentials: true }))).toEqual(['old/0']);
    store.close();
  });
});
