/**
 * The image viewer covers the window: the status area is said in its frame, and only there
 * (the window's stays empty meanwhile).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const done = (): HTMLElement => screen.getByRole('status', { name: 'Done' });

describe('the status area over the image viewer', () => {
  it('over the image viewer, it is said in the viewer’s frame, and only there', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    await user.click(tile(keyOf(1)));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Copy image' }));
    expect(await within(viewer).findByText('Image copied.')).toBeTruthy();
    expect(screen.getAllByRole('status', { name: 'Done' })).toHaveLength(1);
    expect(viewer.contains(done())).toBe(true);
  });
});
