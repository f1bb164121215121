/**
 * Starring a selection answers at once: the loaded tiles' stars change before main has answered,
 * one request goes for them all (not one per image), and an action that takes more than a moment
 * says how far it is in the status area.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { withImageFavourite } from '../../../../shared/domain/favourites';
import type { RequestOutput } from '../../../../shared/ipc/contract';
import { keyOf, renderGallery, seedImages, tile } from '../gallery/gallery-harness';

describe('starring a selection of images', () => {
  // Fault: main's answer to the favourites is held back, to see the page before it comes.
  it('shows the stars at once, sends one request, and says how far a slow one is', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { user, fake } = await renderGallery({ prepare: (f) => seedImages(f, 50) });
    fake.handle('gallery:setFavourites', async ({ images, favourite }) => {
      await answered;
      const items = images.map(({ localId, index }) =>
        fake.updateTask(localId, withImageFavourite(fake.task(localId)!, index, favourite)),
      );
      return { items, failed: 0 } satisfies RequestOutput<'gallery:setFavourites'>;
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected images' });
    await user.click(within(bar).getByRole('button', { name: 'Pick' }));
    // Before main answers: the stars are there, and the status area says what is going on.
    expect(within(tile(keyOf(0))).getByRole('img', { name: 'Pick' })).toBeTruthy();
    expect(await screen.findByRole('progressbar', { name: 'Picking…' })).toBeTruthy();
    expect(screen.getByText('0 of 50')).toBeTruthy();
    release();
    await screen.findByText('Picked 50 images.');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(fake.callsTo('gallery:setFavourites')).toHaveLength(1);
    await waitFor(() => expect(fake.task('seed-000049')?.images[0]?.favourite).toBe(true));
  });
});
