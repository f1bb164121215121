/** A task's pictures open the gallery's image viewer, over the Tasks screen. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history and handlers (tests/support/wired-api.ts), one runtime for the file. */
const main = sharedWiredMain();

const row = (index: number) => screen.getAllByRole('article')[index]!;

/** A completed task with two saved images around one whose link expired. */
async function startWithImages() {
  const started = await startWiredApp({
    main,
    prepare: (wired) =>
      void seedHistory(wired, 2, (i) => ({
        status: 'completed',
        images:
          i === 0
            ? [makeImage(0), makeImage(1, { state: 'expired', file: undefined }), makeImage(2)]
            : [makeImage(0)],
      })),
  });
  return started;
}

const viewer = () => screen.findByRole('dialog', { name: 'Image viewer' });
const shownSource = (dialog: HTMLElement) =>
  within(dialog).getByAltText('Prompt number 0').getAttribute('src');

describe('opening a task’s images', () => {
  it('a row thumbnail opens the viewer in place, on that image, among the task’s saved images', async () => {
    const { user, main: wired } = await startWithImages();
    const thumbnails = within(row(0)).getAllByRole('button', { name: /^Open image/ });
    // The expired image has no picture to open.
    expect(thumbnails.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Open image 1 of 2',
      'Open image 2 of 2',
    ]);
    await user.click(thumbnails[1]!);
    const dialog = await viewer();
    expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/2.png');
    expect(dialog.textContent).toContain('Image 2 of 2');
    // In place: still the Tasks screen, and the gallery was never asked for anything.
    expect(useAppStore.getState().view).toBe('tasks');
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toBeTruthy();
    expect(wired.callsTo('gallery:list')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Previous image' }));
    await waitFor(() => expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/0.png'));
    expect(within(dialog).getByRole('button', { name: 'Previous image' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('opens with Enter and Space, and Escape gives the focus back to the thumbnail', async () => {
    const { user } = await startWithImages();
    const first = within(row(0)).getByRole('button', { name: 'Open image 1 of 2' });
    first.focus();
    await user.keyboard('{Enter}');
    const dialog = await viewer();
    expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/0.png');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(first);

    const second = within(row(0)).getByRole('button', { name: 'Open image 2 of 2' });
    second.focus();
    await user.keyboard(' ');
    expect(shownSource(await viewer())).toBe('pictor-gallery://gallery/task/2.png');
    await user.click(screen.getByRole('button', { name: 'Close the viewer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(second);
  });

  it('the picture in Task details opens the viewer over the details, and closing returns to it', async () => {
    const { user } = await startWithImages();
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    const picture = within(details).getByRole('button', { name: 'Open image 2 of 2' });
    await user.click(picture);
    const dialog = await viewer();
    expect(shownSource(dialog)).toBe('pictor-gallery://gallery/task/2.png');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Image viewer' })).toBeNull());
    // Escape closed only the viewer: the details stay, with the focus on the picture.
    expect(screen.getByRole('dialog', { name: 'Task details' })).toBeTruthy();
    expect(document.activeElement).toBe(picture);
  });

  it('"Use this prompt" in the viewer fills the form, closes the viewer and focuses the prompt', async () => {
    const { user } = await startWithImages();
    await user.click(within(row(1)).getByRole('button', { name: 'Open image 1 of 1' }));
    const dialog = await viewer();
    await user.click(within(dialog).getByRole('button', { name: 'Use this prompt' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    expect(prompt).toHaveProperty('value', 'Prompt number 1');
    await waitFor(() => expect(document.activeElement).toBe(prompt));
  });
});
