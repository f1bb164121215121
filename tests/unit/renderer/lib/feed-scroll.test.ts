import { describe, expect, it } from 'vitest';
import {
  drawnHeight,
  drawnStart,
  feedRatio,
  MAX_FEED_HEIGHT,
  toFeedOffset,
  toScrollerOffset,
} from '../../../../renderer/lib/feed-scroll';

const VIEW = 800;

describe('a feed taller than a page can lay out', () => {
  it('leaves a feed within the limit as it is', () => {
    for (const total of [0, 1_000, MAX_FEED_HEIGHT]) {
      expect(feedRatio(total, VIEW)).toBe(1);
      expect(drawnHeight(total)).toBe(total);
      expect(toFeedOffset(12_345, total, VIEW)).toBe(12_345);
      expect(toScrollerOffset(12_345, total, VIEW)).toBe(12_345);
      expect(drawnStart(40_000, 39_000, total, VIEW)).toBe(40_000);
    }
  });

  // Heights of a gallery of 2.5 million images (6 columns of 200 px rows), of a history of a
  // million 88 px rows, and just past the limit.
  for (const total of [83_333_400, 88_000_000, MAX_FEED_HEIGHT + 1]) {
    it(`draws ${total.toLocaleString('en')} px in a box of the limit, its ends the feed's ends`, () => {
      expect(drawnHeight(total)).toBe(MAX_FEED_HEIGHT);
      // Chromium cuts a box at 2^25 px; a compositor float holds whole pixels below 2^24.
      expect(drawnHeight(total)).toBeLessThan(2 ** 24);
      const end = MAX_FEED_HEIGHT - VIEW;
      expect(toFeedOffset(0, total, VIEW)).toBe(0);
      expect(toFeedOffset(end, total, VIEW)).toBeCloseTo(total - VIEW, 3);
      expect(toScrollerOffset(total - VIEW, total, VIEW)).toBeCloseTo(end, 3);
      // The middle of the scrollbar is the middle of the feed.
      expect(toFeedOffset(end / 2, total, VIEW)).toBeCloseTo((total - VIEW) / 2, 3);
    });

    it(`keeps the rows near the view one pixel per pixel at ${total.toLocaleString('en')} px`, () => {
      for (const feedTop of [0, total / 3, total - VIEW]) {
        const scrollTop = toScrollerOffset(feedTop, total, VIEW);
        // The row at the top of the view is drawn at the top of the view, the next ones below it.
        expect(drawnStart(feedTop, feedTop, total, VIEW)).toBeCloseTo(scrollTop, 6);
        expect(drawnStart(feedTop + 700, feedTop, total, VIEW)).toBeCloseTo(scrollTop + 700, 6);
        expect(drawnStart(feedTop - 200, feedTop, total, VIEW)).toBeCloseTo(scrollTop - 200, 6);
      }
      // The feed's last pixel is drawn at the box's last pixel when the view is at the end.
      const last = drawnStart(total, total - VIEW, total, VIEW);
      expect(last).toBeCloseTo(MAX_FEED_HEIGHT, 3);
    });
  }
});
