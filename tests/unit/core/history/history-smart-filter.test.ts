/**
 * A smart board's rules as the history's image query runs them (electron/core/history/
 * smart-filter.ts), on a real history file with a handful of images: each kind of rule alone,
 * groups of all and any inside a top level of the other, a rule naming a board or tag that is
 * gone (the board still opens: that rule matches nothing), the rules with the query's other
 * filters, in every order and for counts and whole sets, and hostile values bound, never spliced.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { imageFilter } from '../../../../electron/core/history/history-query';
import type { SmartItem, SmartRule, SmartRules } from '../../../../shared/domain/smart-board';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { historyStorePerTest, makeImage, makeRecord } from './history-fixtures';

const history = historyStorePerTest();

const VALID = { state: 'valid', signer: 'Signer', trusted: true, aiGenerated: true } as const;

beforeEach(() => {
  history.store.putMany([
    makeRecord({
      localId: 'a',
      createdAt: 1_000,
      provider: 'fal',
      request: { prompt: 'a red lighthouse at dusk', model: 'flux' },
      cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
      images: [
        makeImage(0, {
          rating: 5,
          flag: 'pick',
          tags: ['Cat', 'night'],
          boards: ['Clients/Acme'],
          width: 2048,
          height: 1024,
          bytes: 500_000,
          contentCredentials: VALID,
        }),
        makeImage(1, { rating: 2, tags: ['dog'], width: 512, height: 512, bytes: 10_000 }),
      ],
    }),
    makeRecord({
      localId: 'b',
      createdAt: 2_000,
      provider: 'bfl',
      request: { prompt: 'blue sea', model: 'kontext' },
      cost: { source: 'estimated', micros: 5_000, unit: 'EUR', basis: 'image' },
      images: [
        makeImage(0, {
          rating: 4,
          flag: 'reject',
          tags: ['cat'],
          boards: ['Kept'],
          contentCredentials: { state: 'invalid', codes: ['assertion.dataHash.mismatch'] },
        }),
      ],
    }),
    makeRecord({
      localId: 'c',
      createdAt: 3_000,
      request: { prompt: 'an ox in a field', model: 'model-a' },
      images: [
        makeImage(0, { height: 4096, contentCredentials: { ...VALID, trusted: false } }),
        makeImage(1, { rating: 3, contentCredentials: { state: 'unreadable' } }),
      ],
    }),
  ]);
});

const keys = (items: readonly GalleryItem[]) =>
  items.map((item) => `${item.localId}/${String(item.index)}`).sort();
/** The images `rules` list, sorted, checked to be what every other way of asking finds. */
function matched(smart: SmartRules): string[] {
  const newest = keys(history.store.listImages({ smart }).items);
  for (const sort of ['oldest', 'prompt'] as const) {
    expect(keys(history.store.listImages({ smart, sort }).items), sort).toEqual(newest);
  }
  expect(history.store.countImages({ smart })).toBe(newest.length);
  const whole = history.store
    .imageKeys({ smart }, 100)
    .map((key) => `${key.localId}/${String(key.index)}`);
  expect(whole.sort()).toEqual(newest);
  return newest;
}
const all = (...items: SmartItem[]): SmartRules => ({ match: 'all', items });
const any = (...items: SmartItem[]): SmartRules => ({ match: 'any', items });
const one = (rule: SmartRule) => matched(all(rule));

describe('a smart board’s rules in the image query', () => {
  it('each kind of rule alone', () => {
    expect(one({ kind: 'prompt', words: 'lighthouse dusk' })).toEqual(['a/0', 'a/1']);
    // A word too short for the index, tested on the prompt read by the image's task row.
    expect(one({ kind: 'prompt', words: 'ox' })).toEqual(['c/0', 'c/1']);
    expect(one({ kind: 'service', provider: 'bfl' })).toEqual(['b/0']);
    expect(one({ kind: 'service', provider: 'pictor' })).toEqual(['c/0', 'c/1']);
    expect(one({ kind: 'model', model: 'kontext' })).toEqual(['b/0']);
    expect(one({ kind: 'date', from: 1_500, to: 2_500 })).toEqual(['b/0']);
    expect(one({ kind: 'date', from: 2_000 })).toEqual(['b/0', 'c/0', 'c/1']);
    expect(one({ kind: 'rating', op: '>=', value: 4 })).toEqual(['a/0', 'b/0']);
    expect(one({ kind: 'rating', op: '=', value: 0 })).toEqual(['c/0']);
    expect(one({ kind: 'rating', op: '<=', value: 2 })).toEqual(['a/1', 'c/0']);
    expect(one({ kind: 'flag', flag: 'pick' })).toEqual(['a/0']);
    expect(one({ kind: 'flag', flag: 'none' })).toEqual(['a/1', 'c/0', 'c/1']);
    expect(one({ kind: 'tags', mode: 'any', tags: ['CAT', 'dog'] })).toEqual(['a/0', 'a/1', 'b/0']);
    expect(one({ kind: 'tags', mode: 'all', tags: ['cat', 'night'] })).toEqual(['a/0']);
    expect(one({ kind: 'tags', mode: 'none', tags: ['cat'] })).toEqual(['a/1', 'c/0', 'c/1']);
    expect(one({ kind: 'board', board: 'clients/acme' })).toEqual(['a/0']);
    expect(one({ kind: 'unfiled' })).toEqual(['a/1', 'c/0', 'c/1']);
  });

  it('cost, Content Credentials and size, which have no filter of their own', () => {
    expect(one({ kind: 'cost', unit: 'USD', min: 10_000 })).toEqual(['a/0', 'a/1']);
    expect(one({ kind: 'cost', unit: 'USD', max: 10_000 })).toEqual([]);
    expect(one({ kind: 'cost', unit: 'EUR', min: 5_000, max: 5_000 })).toEqual(['b/0']);
    expect(one({ kind: 'credentials', verdict: 'present' })).toEqual(['a/0', 'b/0', 'c/0', 'c/1']);
    expect(one({ kind: 'credentials', verdict: 'absent' })).toEqual(['a/1']);
    expect(one({ kind: 'credentials', verdict: 'trusted' })).toEqual(['a/0']);
    expect(one({ kind: 'credentials', verdict: 'unverified' })).toEqual(['c/0']);
    expect(one({ kind: 'credentials', verdict: 'tampered' })).toEqual(['b/0']);
    expect(one({ kind: 'credentials', verdict: 'unreadable' })).toEqual(['c/1']);
    expect(one({ kind: 'size', measure: 'width', min: 2000 })).toEqual(['a/0']);
    expect(one({ kind: 'size', measure: 'height', min: 1024, max: 1024 })).toEqual([
      'a/0',
      'b/0',
      'c/1',
    ]);
    expect(one({ kind: 'size', measure: 'bytes', max: 100_000 })).toEqual([
      'a/1',
      'b/0',
      'c/0',
      'c/1',
    ]);
  });

  it('groups of all inside any, and of any inside all, each parenthesised', () => {
    const rated: SmartRule = { kind: 'rating', op: '>=', value: 3 };
    const cat: SmartRule = { kind: 'tags', mode: 'any', tags: ['cat'] };
    const fromC: SmartRule = { kind: 'prompt', words: 'ox' };
    // (rating >= 3 AND cat) OR (prompt "ox" AND unfiled AND rating <= 0)
    expect(
      matched(
        any(
          { match: 'all', rules: [rated, cat] },
          {
            match: 'all',
            rules: [fromC, { kind: 'unfiled' }, { kind: 'rating', op: '<=', value: 0 }],
          },
        ),
      ),
    ).toEqual(['a/0', 'b/0', 'c/0']);
    // rejected AND (cat OR height over 2000)
    expect(
      matched(
        all({ kind: 'flag', flag: 'reject' } as SmartRule, {
          match: 'any',
          rules: [cat, { kind: 'size', measure: 'height', min: 2000 }],
        }),
      ),
    ).toEqual(['b/0']);
    expect(
      matched(
        all(
          {
            match: 'any',
            rules: [
              { kind: 'flag', flag: 'pick' },
              { kind: 'flag', flag: 'none' },
            ],
          },
          { match: 'any', rules: [cat, { kind: 'size', measure: 'height', min: 2000 }] },
        ),
      ),
    ).toEqual(['a/0', 'c/0']);
  });

  it('a rule naming a gone board or tag matches nothing, and the board still opens', () => {
    const goneBoard: SmartRule = { kind: 'board', board: 'Clients/Gone' };
    const goneTag: SmartRule = { kind: 'tags', mode: 'any', tags: ['gone'] };
    expect(matched(all(goneBoard))).toEqual([]);
    expect(matched(all(goneTag, { kind: 'rating', op: '>=', value: 0 }))).toEqual([]);
    expect(matched(any(goneBoard, goneTag, { kind: 'flag', flag: 'reject' }))).toEqual(['b/0']);
    // None of a gone tag: every image.
    expect(matched(all({ kind: 'tags', mode: 'none', tags: ['gone'] }))).toHaveLength(5);
  });

  it('runs beside the query’s other filters and its trash', () => {
    const picked = all({ kind: 'rating', op: '>=', value: 2 });
    expect(keys(history.store.listImages({ smart: picked, model: 'flux' }).items)).toEqual([
      'a/0',
      'a/1',
    ]);
    expect(keys(history.store.listImages({ smart: picked, search: 'sea' }).items)).toEqual(['b/0']);
    expect(history.store.countImages({ smart: picked, states: ['deleted'] })).toBe(0);
  });

  it('binds every value: a hostile tag, board or word is matched as text and never spliced', () => {
    const hostile = "x') OR 1=1; DROP TABLE images; --";
    const rules = any(
      { kind: 'tags', mode: 'all', tags: [hostile] },
      { kind: 'board', board: hostile },
      { kind: 'prompt', words: hostile },
      { kind: 'model', model: hostile },
    );
    const { where, params } = imageFilter({ smart: rules });
    expect(where).not.toContain('DROP');
    expect(params).toContain(hostile);
    expect(matched(rules)).toEqual([]);
    expect(history.store.countImages({})).toBe(5);
  });
});
