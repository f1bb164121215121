/** A gallery tile shows only its picture: its prompt is said on hover (the tile's tooltip). */
import { describe, expect, it } from 'vitest';
import { keyOf, renderGallery, seedImages, tile } from '../gallery/gallery-harness';

describe('a gallery tile', () => {
  it('says its prompt on hover', async () => {
    await renderGallery({
      prepare: (f) => seedImages(f, 2, (i) => ({ prompt: `A long prompt number ${i}, in full` })),
    });
    expect(tile(keyOf(1)).getAttribute('title')).toBe('A long prompt number 1, in full');
  });
});
