/**
 * When a tile fetches its thumbnail: a tile in view at once, at high priority; a tile of a row
 * drawn ahead of the view only once the thumbnails in view have arrived (or a bound passed, on
 * fake timers) and then the window is idle (its image is a blank data: pixel until then), and at
 * once when it comes into view. The tiles in view get the protocol first.
 */
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GalleryTile } from '../../../../renderer/features/gallery/gallery-tile';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import { galleryItem } from './gallery-builders';

const item = galleryItem({ n: 7 });
const props = {
  item,
  itemKey: itemKey(item),
  column: 0,
  size: 200,
  tabbable: false,
  onActivate: () => undefined,
  onOpen: () => undefined,
  onRetry: () => undefined,
  onStartDrag: () => undefined,
};
const image = (container: HTMLElement) => container.querySelector('img')!;

describe('a gallery tile fetches its thumbnail', () => {
  it('at once, at high priority, when it is in view', () => {
    const { container } = render(<GalleryTile {...props} urgent />);
    expect(image(container).getAttribute('src')).toMatch(/thumb/);
    expect(image(container).getAttribute('fetchpriority')).toBe('high');
    expect(image(container).alt).toBe(item.prompt);
  });

  it('once the window is idle when it is drawn ahead of the view, or at once when it comes into view', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    try {
      const first = render(<GalleryTile {...props} urgent={false} />);
      expect(image(first.container).getAttribute('src')).toMatch(/^data:image\/gif;base64,/);
      expect(image(first.container).alt).toBe(item.prompt);
      expect(idle).toHaveLength(1);
      idle[0]!();
      await waitFor(() => expect(image(first.container).getAttribute('src')).toMatch(/thumb/));
      expect(image(first.container).getAttribute('fetchpriority')).toBe('low');
      first.unmount();

      // Scrolled into view before the window was idle: fetched then, without waiting.
      const second = render(<GalleryTile {...props} urgent={false} />);
      expect(image(second.container).getAttribute('src')).toMatch(/^data:/);
      second.rerender(<GalleryTile {...props} urgent />);
      expect(image(second.container).getAttribute('src')).toMatch(/thumb/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('a tile drawn ahead of the view waits for the thumbnails in view', () => {
  const other = galleryItem({ n: 9 });
  const inView = { ...props, item: other, itemKey: itemKey(other) };

  it('asks for the idle window only once those in view have loaded or failed', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    try {
      const shown = [
        render(<GalleryTile {...inView} urgent />),
        render(<GalleryTile {...props} urgent />),
      ];
      const ahead = render(<GalleryTile {...props} urgent={false} />);
      expect(idle).toHaveLength(0);
      fireEvent.load(image(shown[0]!.container));
      expect(idle).toHaveLength(0);
      fireEvent.error(image(shown[1]!.container));
      expect(idle).toHaveLength(1);
      act(() => idle[0]!());
      await waitFor(() => expect(image(ahead.container).getAttribute('src')).toMatch(/thumb/));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('waits no more than its bound for a thumbnail in view that never arrives', () => {
    vi.useFakeTimers();
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    try {
      render(<GalleryTile {...inView} urgent />);
      const ahead = render(<GalleryTile {...props} urgent={false} />);
      act(() => vi.advanceTimersByTime(1499));
      expect(idle).toHaveLength(0);
      act(() => vi.advanceTimersByTime(1));
      expect(idle).toHaveLength(1);
      act(() => idle[0]!());
      expect(image(ahead.container).getAttribute('src')).toMatch(/thumb/);
    } finally {
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });

  it('does not wait for a tile in view that went', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    try {
      const shown = render(<GalleryTile {...inView} urgent />);
      render(<GalleryTile {...props} urgent={false} />);
      expect(idle).toHaveLength(0);
      shown.unmount();
      expect(idle).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('a tile whose thumbnail is pending (saved by a host with no image decoder)', () => {
  const pending = galleryItem({ n: 8, image: { thumbnail: undefined, thumbnailPending: true } });

  it('shows a placeholder saying so, and never fetches the full image for the tile', () => {
    const { container, getByText } = render(
      <GalleryTile {...props} item={pending} itemKey={itemKey(pending)} urgent />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(getByText('Thumbnail not made yet')).toBeTruthy();
    expect(container.querySelector('.gallery-tile__pulse')).not.toBeNull();
  });

  it('shows the thumbnail once it is made', () => {
    const made = galleryItem({ n: 8 });
    const { container } = render(
      <GalleryTile {...props} item={made} itemKey={itemKey(made)} urgent />,
    );
    expect(image(container).getAttribute('src')).toMatch(/thumb/);
  });
});
