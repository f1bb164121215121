/**
 * Delete and Undo in the viewer over the Tasks screen: a delete moves on to the task's next
 * saved image and keeps the focus in the viewer; Ctrl+Z shows the image again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeImage } from '../../../support/task-records';
import { startApp } from '../render-app';

const shownSource = (dialog: HTMLElement) =>
  within(dialog).getByAltText('Prompt number 0').getAttribute('src');

describe('deleting in the viewer over Tasks', () => {
  it('moves to the next image, keeps the focus, and Ctrl+Z brings the image back', async () => {
    const { user, fake } = await startApp({
      prepare: (api) =>
        api.seedTasks(1, () => ({
          status: 'completed',
          images: [makeImage(0), makeImage(1), makeImage(2)],
        })),
    });
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Open image 2 of 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/1.png');

    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/2.png'));
    expect(dialog.textContent).toContain('Image 2 of 2');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(fake.callsTo('gallery:deleteImages')).toEqual([
      { images: [{ localId: 'seed-000000', index: 1 }] },
    ]);

    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/1.png'));
    expect(dialog.textContent).toContain('Image 2 of 3');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(
      await within(screen.getByRole('status', { name: 'Done' })).findByText('Image restored.'),
    ).toBeTruthy();
  });
});
