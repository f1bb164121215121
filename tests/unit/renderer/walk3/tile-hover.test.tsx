/** A gallery tile shows only its picture: its prompt is said on hover (the tile's tooltip). */
import { describe, expect, it } from 'vitest';
import { keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

describe('a gallery tile', () => {
  it('says its prompt on hover', async () => {
    await renderWired({
      prepare: (m) => seedGallery(m, 2, (i) => ({ prompt: `A long prompt number ${i}, in full` })),
    });
    expect(tile(keyOf(1)).getAttribute('title')).toBe('A long prompt number 1, in full');
  });
});
