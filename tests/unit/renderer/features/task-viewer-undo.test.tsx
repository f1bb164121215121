/**
 * Delete and Undo in the viewer over the Tasks screen: a delete moves on to the task's next
 * saved image and keeps the focus in the viewer; Ctrl+Z shows the image again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { galleryUrl } from '../../../../shared/ipc/api';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { startWiredApp } from '../render-wired-app';

const shownSource = (dialog: HTMLElement) =>
  within(dialog).getByAltText('A heron in fog').getAttribute('src');

describe('deleting in the viewer over Tasks', () => {
  it('moves to the next image, keeps the focus, and Ctrl+Z brings the image back', async () => {
    // One task of three real images on the demo, in main's real gallery and trash.
    let task: TaskRecord | undefined;
    const { user, main } = await startWiredApp({
      runtime: { demo: { durationMs: 100, imagesPerTask: 3 } },
      prepare: async (wired) => void ([task] = await wired.generate(['A heron in fog'])),
    });
    const [first, second, third] = task!.images.map((image) => image.file!);
    const source = (file: string) => galleryUrl(file, main.api.galleryBase);
    const onDisk = (file: string) => existsSync(join(main.runtime.galleryDir(), file));
    const row = screen.getAllByRole('article')[0]!;
    await user.click(within(row).getByRole('button', { name: 'Open image 2 of 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(shownSource(dialog)).toBe(source(second!));

    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(shownSource(dialog)).toBe(source(third!)));
    // Counted again once main's trash has the file (the move shows its progress meanwhile).
    await waitFor(() => expect(dialog.textContent).toContain('Image 2 of 2'));
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(main.callsTo('gallery:deleteImages')).toEqual([
      { images: [{ localId: task!.localId, index: 1 }] },
    ]);
    expect(onDisk(second!)).toBe(false);
    expect(onDisk(first!)).toBe(true);

    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(shownSource(dialog)).toBe(source(second!)));
    await waitFor(() => expect(dialog.textContent).toContain('Image 2 of 3'));
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(
      await within(screen.getByRole('status', { name: 'Done' })).findByText('Image restored.'),
    ).toBeTruthy();
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
    expect(onDisk(second!)).toBe(true);
  });
});
