/**
 * An image saved without the metadata that carried a held key (core/download/key-intake.ts) says
 * so in the viewer, in words: what was removed (its metadata; or its Content Credentials too,
 * which would no longer match), and that the pixels are as the service sent them. An image that
 * lost nothing shows no such row.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImageRecord } from '../../../../shared/domain/task-record';
import { makeImage } from '../../../support/task-records';
import { seedGallery, wiredGallery } from './gallery-wired';

const renderWired = wiredGallery();

const REMOVED: Array<ImageRecord['keyRemoved']> = ['metadata', 'credentials', undefined];

/** The viewer's "Metadata removed" text for image `n`, or null when it shows none. */
async function removedOf(n: number): Promise<string | null> {
  const { user } = await renderWired({
    prepare: (m) =>
      void seedGallery(m, REMOVED.length, (at) => ({
        request: { prompt: `Prompt number ${String(at)}` },
        images: [
          makeImage(0, {
            file: `g/${String(at)}.png`,
            thumbnail: `g/${String(at)}.thumb.webp`,
            ...(REMOVED[at] ? { keyRemoved: REMOVED[at] } : {}),
          }),
        ],
      })),
  });
  await user.click(screen.getByAltText(`Prompt number ${String(n)}`));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  const row = [...dialog.querySelectorAll('.viewer-details__row')].find(
    (each) => each.querySelector('dt')?.textContent === 'Metadata removed',
  );
  return row?.querySelector('dd')?.textContent ?? null;
}

describe('the viewer says what Pictor removed for a held key', () => {
  it('metadata: the part that carried the key, the pixels as sent', async () => {
    const text = await removedOf(0);
    expect(text).toContain('removed the part of its metadata that carried your API key');
    expect(text).toContain('The pixels are as the service sent them.');
    expect(text).not.toContain('Content Credentials');
  });

  it('credentials: they went with it, and why', async () => {
    expect(await removedOf(1)).toContain('and its Content Credentials with it');
  });

  it('nothing removed: no row', async () => {
    expect(await removedOf(2)).toBeNull();
  });
});
