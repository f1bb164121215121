import { describe, expect, it } from 'vitest';
import {
  ANY_COMPARE,
  EMPTY_GALLERY_FILTERS,
  canRetry,
  hasActiveFilters,
  dayEnd,
  dayStart,
  insertionIndex,
  listQuery,
  mergeFirstPage,
  withModels,
} from '../../../../renderer/store/gallery-list-model';
import { countQuery } from '../../../../renderer/store/gallery-browse';
import { galleryItem, galleryItems } from '../gallery/gallery-builders';

describe('listQuery', () => {
  it('asks for the visible states only, with no filters by default', () => {
    expect(listQuery(EMPTY_GALLERY_FILTERS, null)).toEqual({
      states: ['pending', 'saved', 'expired', 'invalid'],
      limit: 200,
    });
  });

  it('turns every filter into the channel query, dates as whole local days', () => {
    const query = listQuery(
      {
        search: '  fox ',
        favouriteOnly: true,
        credentialsOnly: true,
        model: 'm2',
        provider: 'fal',
        template: '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61',
        compare: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
        from: '2026-01-10',
        to: '2026-01-12',
        rating: 4,
        rejected: true,
        tags: ['Cat', 'dog'],
        board: 'Clients/Acme',
        unfiled: false,
        smart: 'Best of',
      },
      'cursor-1',
      50,
    );
    expect(query).toEqual({
      search: 'fox',
      favourite: true,
      contentCredentials: true,
      model: 'm2',
      provider: 'fal',
      template: '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61',
      compareGroup: '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
      from: new Date(2026, 0, 10).getTime(),
      to: new Date(2026, 0, 13).getTime() - 1,
      rating: { op: '>=', value: 4 },
      flag: 'reject',
      tags: { mode: 'any', keys: ['Cat', 'dog'] },
      board: 'Clients/Acme',
      smart: 'Best of',
      states: ['pending', 'saved', 'expired', 'invalid'],
      limit: 50,
      cursor: 'cursor-1',
    });
  });

  it('counts and selects the images the list shows, those of a template too', () => {
    const template = '0b6f1d7e-3c1a-4c55-9a0e-2f1d3c4b5a61';
    // "Select all" names what the count counts: without the template, every image of the others.
    expect(countQuery({ ...EMPTY_GALLERY_FILTERS, template })).toMatchObject({ template });
  });

  it('asks for every compare’s images, or one group’s, and counts and selects the same', () => {
    const any = { ...EMPTY_GALLERY_FILTERS, compare: ANY_COMPARE };
    expect(listQuery(any, null)).toMatchObject({ compared: true });
    expect(listQuery(any, null)).not.toHaveProperty('compareGroup');
    expect(countQuery(any)).toMatchObject({ compared: true });
    expect(hasActiveFilters(any)).toBe(true);
    const compareGroup = '7d6f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
    const one = { ...EMPTY_GALLERY_FILTERS, compare: compareGroup };
    expect(listQuery(one, null)).toMatchObject({ compareGroup });
    expect(listQuery(one, null)).not.toHaveProperty('compared');
    expect(countQuery(one)).toMatchObject({ compareGroup });
  });

  it('ignores a date that is not a day', () => {
    expect(dayStart('2026-1-1')).toBeUndefined();
    expect(dayEnd('')).toBeUndefined();
    expect(listQuery({ ...EMPTY_GALLERY_FILTERS, from: 'soon' }, null)).not.toHaveProperty('from');
  });
});

describe('canRetry', () => {
  it('is offered for failed downloads and expired links, not for invalid or saved images', () => {
    const withImage = (image: Parameters<typeof galleryItem>[0]['image']) =>
      galleryItem({ n: 0, image });
    expect(canRetry(withImage({ state: 'pending', error: 'Network down' }))).toBe(true);
    expect(canRetry(withImage({ state: 'expired' }))).toBe(true);
    expect(canRetry(withImage({ state: 'pending' }))).toBe(false);
    expect(canRetry(withImage({ state: 'invalid' }))).toBe(false);
    expect(canRetry(withImage({}))).toBe(false);
  });
});

describe('insertionIndex', () => {
  const items = galleryItems(5);

  it('finds the sorted place of an image', () => {
    const middle = galleryItem({ n: 2, index: 1 });
    expect(insertionIndex(items, middle)).toBe(3);
  });
});

describe('mergeFirstPage', () => {
  const loaded = galleryItems(10);

  it('keeps deeper pages and the cursor when the new first page overlaps', () => {
    const fresh = [galleryItem({ n: -1 }), ...loaded.slice(0, 4)];
    const merge = mergeFirstPage(loaded, 'c-deep', fresh, 'c-page');
    expect(merge.replaced).toBe(false);
    expect(merge.items).toHaveLength(11);
    expect(merge.nextCursor).toBe('c-deep');
  });

  it('replaces the list when the page does not overlap or is the whole gallery', () => {
    const other = [galleryItem({ n: 100 })];
    expect(mergeFirstPage(loaded, 'c', other, 'c2')).toMatchObject({
      replaced: true,
      nextCursor: 'c2',
    });
    expect(mergeFirstPage(loaded, 'c', loaded.slice(0, 3), null)).toMatchObject({
      replaced: true,
      nextCursor: null,
    });
  });
});

describe('small helpers', () => {
  it('collects models sorted, keeping the same array when nothing is new', () => {
    const known = withModels([], [{ model: 'b' }, { model: 'a' }, {}]);
    expect(known).toEqual(['a', 'b']);
    expect(withModels(known, [{ model: 'a' }])).toBe(known);
  });
});
