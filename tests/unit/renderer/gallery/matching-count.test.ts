/**
 * The count every gallery surface says: the library's once main has counted, else what is loaded
 * with "+" while more pages wait, and never a count older than what is loaded.
 */
import { describe, expect, it } from 'vitest';
import { matchingCount } from '../../../../renderer/features/gallery/matching-count';

describe('the gallery’s matching count', () => {
  it.each([
    // loaded, total, more pages: what is said
    [200, 300, true, { count: 300, more: false }],
    [300, 300, false, { count: 300, more: false }],
    [200, null, true, { count: 200, more: true }],
    [200, null, false, { count: 200, more: false }],
    // Images arrived since main counted: the loaded figure, "+" only while pages wait.
    [205, 200, false, { count: 205, more: false }],
    [205, 200, true, { count: 205, more: true }],
    [0, 0, false, { count: 0, more: false }],
  ])('%i loaded, %s counted, more %s', (loaded, total, hasMore, said) => {
    expect(matchingCount(loaded, total, hasMore)).toEqual(said);
  });
});
