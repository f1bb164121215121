import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { focusedKey, keyOf, seriousViolations, tile } from './gallery-harness';
import { seedHistory } from '../render-wired-app';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';
import { UNTIL } from '../../../support/waits';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

/** Image `n` of a seeded gallery: a 1536 × 1024 high-quality render. */
const viewerImage = (n: number) => ({
  request: {
    prompt: `Prompt number ${String(n)}`,
    model: 'gpt-image-1',
    size: '1536x1024',
    quality: 'high' as const,
  },
  images: [
    makeImage(0, {
      file: `g/${String(n)}.png`,
      thumbnail: `g/${String(n)}.thumb.webp`,
      width: 1536,
      height: 1024,
      bytes: 2_345_678,
    }),
  ],
});

async function openViewer(index = 1, count = 10) {
  const rendered = await renderWired({ prepare: (m) => void seedGallery(m, count, viewerImage) });
  await rendered.user.click(screen.getByAltText(`Prompt number ${String(index)}`));
  const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
  return { ...rendered, dialog };
}

/** The toast corner's confirmations: a polite live region, so they are said as they are shown. */
const confirmations = (): HTMLElement => screen.getByRole('status', { name: 'Done' });
const stage = (): HTMLElement => screen.getByRole('group', { name: /^Image at/ });
const scaleOf = (): number => Number(stage().dataset['scale']);

describe('the image viewer', () => {
  it('shows the full image, the prompt, the parameters and the file’s facts', async () => {
    const { dialog } = await openViewer(1);
    const image = within(dialog).getByAltText('Prompt number 1');
    expect(image.getAttribute('src')).toBe('pictor-gallery://gallery/g/1.png');
    const text = dialog.textContent ?? '';
    for (const fact of [
      'gpt-image-1',
      '1536×1024',
      'High',
      // The file's size written as the request's is (formatDimensions), not '1,536 × 1,024'.
      '1536×1024 pixels',
      '2.3 MB',
      'svc-1',
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).toContain('Image 2 of 10');
    expect(text).toMatch(/Jan 15, 2026|15 Jan 2026/);
    expect(document.activeElement).toBe(stage());
  });

  it('closes with Escape and gives the focus back to the tile', async () => {
    const { user } = await openViewer(3);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));
  });

  it('keeps Tab inside the dialog', async () => {
    const { user, dialog } = await openViewer(1);
    for (let step = 0; step < 25; step += 1) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('goes to the previous and next image with the arrow keys and buttons', async () => {
    const { user, dialog } = await openViewer(1);
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByAltText('Prompt number 2')).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(within(dialog).getByAltText('Prompt number 0')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Previous image' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Next image' }));
    expect(within(dialog).getByAltText('Prompt number 1')).toBeTruthy();
    // Closing returns to the tile of the image last shown.
    await user.click(within(dialog).getByRole('button', { name: 'Close the viewer' }));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(1)));
  });

  it('zooms in and out, to 100 % and back to fit, and pans with the arrow keys when zoomed', async () => {
    const { user, dialog } = await openViewer(1);
    // The 800 × 600 stage (less 16 px margins) fits a 1536 × 1024 image at 50 %.
    expect(scaleOf()).toBeCloseTo(0.5);
    await user.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
    expect(scaleOf()).toBeCloseTo(0.5 * 1.25);
    await user.click(within(dialog).getByRole('button', { name: 'Actual size' }));
    expect(scaleOf()).toBe(1);
    expect(dialog.textContent).toContain('100 %');

    act(() => stage().focus());
    await user.keyboard('{ArrowRight}');
    // Zoomed: the arrow pans instead of changing image.
    expect(within(dialog).getByAltText('Prompt number 1')).toBeTruthy();
    expect(Number(stage().dataset['x'])).toBe(-48);
    await user.keyboard('{ArrowDown}');
    expect(Number(stage().dataset['y'])).toBe(-48);

    await user.keyboard('-');
    expect(scaleOf()).toBeCloseTo(0.8);
    await user.click(within(dialog).getByRole('button', { name: 'Fit to window' }));
    expect(scaleOf()).toBeCloseTo(0.5);
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByAltText('Prompt number 2')).toBeTruthy();
  });

  it('zooms with Ctrl+1 (100 %), Ctrl+0 (fit) and Z (either); digits rate instead, and Shift moves on', async () => {
    const { main, user, dialog } = await openViewer(1);
    act(() => stage().focus());
    await user.keyboard('{Control>}1{/Control}');
    expect(scaleOf()).toBe(1);
    await user.keyboard('{Control>}0{/Control}');
    expect(scaleOf()).toBeCloseTo(0.5);
    await user.keyboard('z');
    expect(scaleOf()).toBe(1);
    await user.keyboard('z');
    expect(scaleOf()).toBeCloseTo(0.5);
    // A digit alone rates the image shown: no zoom.
    await user.keyboard('1');
    await waitFor(() =>
      expect(main.runtime.core.history.get('seed-000001')?.images[0]?.rating).toBe(1),
    );
    expect(scaleOf()).toBeCloseTo(0.5);
    await user.keyboard('{Shift>}4{/Shift}');
    await waitFor(() =>
      expect(main.runtime.core.history.get('seed-000001')?.images[0]?.rating).toBe(4),
    );
    expect(await within(dialog).findByAltText('Prompt number 2')).toBeTruthy();
  });

  it('zooms with the wheel and pans by dragging', async () => {
    await openViewer(1);
    fireEvent.wheel(stage(), { deltaY: -100 });
    fireEvent.wheel(stage(), { deltaY: -100 });
    fireEvent.wheel(stage(), { deltaY: -100 });
    expect(scaleOf()).toBeCloseTo(0.5 * 1.25 ** 3);
    fireEvent.pointerDown(stage(), { button: 0, clientX: 100, clientY: 100, pointerId: 1 });
    fireEvent.pointerMove(stage(), { clientX: 70, clientY: 90, pointerId: 1 });
    fireEvent.pointerUp(stage(), { pointerId: 1 });
    expect(Number(stage().dataset['x'])).toBe(-30);
    expect(Number(stage().dataset['y'])).toBe(-10);
    fireEvent.wheel(stage(), { deltaY: 100 });
    expect(scaleOf()).toBeCloseTo(0.5 * 1.25 ** 2);
  });

  it('calls the right channel for each action', async () => {
    const { user, dialog, main } = await openViewer(4);
    const ref = { localId: 'seed-000004', index: 0 };
    const file = join(main.runtime.galleryDir(), 'g', '4.png');
    const button = (name: string) => within(dialog).getByRole('button', { name });
    const asked = (action: string) =>
      main.os.calls.filter((call) => call.action === action).map((call) => call.arg);

    await user.click(button('Copy image'));
    expect(main.callsTo('gallery:copyImage')).toEqual([ref]);
    await within(confirmations()).findByText('Image copied.');
    expect(asked('copyImage')).toEqual([file]);

    await user.click(button('Save as…'));
    expect(main.callsTo('gallery:saveAs')).toEqual([ref]);
    // Where it went: the file and its folder, from the path main saved to (the stand-in's
    // dialog answers <data>/downloads).
    // Saved once the write's own file (pictor-save-….part, chosen-file.ts) is renamed to its name.
    const saved = await vi.waitFor(async () => {
      const names = await readdir(join(main.dir, 'downloads'));
      if (names.length !== 1 || names[0]!.endsWith('.part')) throw new Error('not saved yet');
      return names[0]!;
    }, UNTIL);
    await within(confirmations()).findByText(`Saved “${saved}” in downloads.`);
    expect(await readFile(join(main.dir, 'downloads', saved), 'utf8')).toBe('image');

    await user.click(button('Show in folder'));
    expect(main.callsTo('gallery:reveal')).toEqual([ref]);
    expect(asked('reveal')).toEqual([file]);

    await user.click(button('Copy task id'));
    expect(main.callsTo('app:copyText')).toEqual([{ text: 'svc-4' }]);
    await within(confirmations()).findByText('Task id copied.');
    expect(asked('copyText')).toEqual(['svc-4']);

    // Pick and Reject are flags, each a pressed toggle, each a triage change (Undo on the list).
    await user.click(button('Pick'));
    await waitFor(() => expect(button('Pick').getAttribute('aria-pressed')).toBe('true'));
    expect(main.runtime.core.history.get('seed-000004')?.images[0]?.favourite).toBe(true);
    await user.click(button('Pick'));
    await waitFor(() => expect(button('Pick').getAttribute('aria-pressed')).toBe('false'));
    await user.click(button('Reject'));
    await waitFor(() =>
      expect(main.callsTo('triage:apply')).toEqual([
        { images: [ref], change: { kind: 'flag', flag: 'pick' } },
        { images: [ref], change: { kind: 'flag', flag: 'none' } },
        { images: [ref], change: { kind: 'flag', flag: 'reject' } },
      ]),
    );
    // The third step is kept when main's answer comes, after the request reached main.
    await waitFor(() => expect(useAppStore.getState().undoEntries).toHaveLength(3));
    await waitFor(() => expect(button('Reject').getAttribute('aria-pressed')).toBe('true'));
    expect(button('Pick').getAttribute('aria-pressed')).toBe('false');

    // Drag out: the OS drag of the file, not the page's own.
    const image = within(dialog).getByAltText('Prompt number 4');
    expect(image.getAttribute('draggable')).toBe('true');
    expect(fireEvent.dragStart(image)).toBe(false);
    await waitFor(() => expect(main.callsTo('gallery:startDrag')).toEqual([ref]));
    await waitFor(() => expect(asked('startDrag')).toEqual([file]));
  });

  it('says which file Save as… could not write and why, in the viewer', async () => {
    const { user, dialog, main } = await openViewer(3);
    const target = join(main.dir, 'unplugged', 'Prompt number 3.png');
    // Main's save dialog answers a file in a folder that is not there (a drive unplugged).
    main.env.PICTOR_E2E_SAVE_IMAGE = target;
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Save as…' }));
      const alert = await within(dialog).findByRole('alert');
      expect(alert.textContent).toContain(
        `Pictor could not save the file ${target} because its folder does not exist (ENOENT). Nothing was changed there; choose another folder, then try again.`,
      );
    } finally {
      main.env.PICTOR_E2E_SAVE_IMAGE = undefined;
    }
    expect(main.callsTo('gallery:saveAs').at(-1)).toEqual({ localId: 'seed-000003', index: 0 });
    expect(await readdir(main.dir)).not.toContain('unplugged');
    expect(within(confirmations()).queryByText(/^Saved/)).toBeNull();
  });

  // Fault: copying the image fails in main (gallery:copyImage answers an error, the contract's
  // interceptor).
  it('shows a failed action as a sentence with details, in the viewer', async () => {
    const { user, dialog, main } = await openViewer(1);
    main.intercept.request['gallery:copyImage'].fail(
      { code: 'failed', message: 'The image file is gone.', detail: 'ENOENT' },
      1,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Copy image' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The image file is gone.');
    expect(alert.textContent).toContain('ENOENT');
  });

  it('asks before deleting, then moves to the next image', async () => {
    const { user, dialog, main } = await openViewer(2);
    await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(main.callsTo('gallery:deleteImages')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() =>
      expect(main.callsTo('gallery:deleteImages')).toEqual([
        { images: [{ localId: 'seed-000002', index: 0 }] },
      ]),
    );
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 3')).toBeTruthy());
    await waitFor(() => expect(document.querySelector(`[data-key="${keyOf(2)}"]`)).toBeNull());
    await within(confirmations()).findByText('Image moved to the trash.');
    // The viewer stays open with the focus inside it.
    expect(screen.getByRole('dialog', { name: 'Image viewer' })).toBe(dialog);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('deletes with the Delete key, keeps the focus, and Ctrl+Z brings the image back', async () => {
    const { user, dialog, main } = await openViewer(2);
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 3')).toBeTruthy());
    expect(document.activeElement).toBe(stage());
    // Main's count follows its event.
    expect(await within(dialog).findByText('Image 3 of 9')).toBeTruthy();

    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() =>
      expect(main.callsTo('gallery:undoDelete')).toEqual([
        { images: [{ localId: 'seed-000002', index: 0 }] },
      ]),
    );
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 2')).toBeTruthy());
    expect(within(dialog).getByText('Image 3 of 10')).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await within(confirmations()).findByText('Image restored.');
  });

  it('undoes with the toast’s button too (Cmd+Z works as Ctrl+Z)', async () => {
    const { user, dialog, main } = await openViewer(4);
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 5')).toBeTruthy());
    await user.click(await within(confirmations()).findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 4')).toBeTruthy());
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);

    act(() => stage().focus());
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 5')).toBeTruthy());
    await user.keyboard('{Meta>}z{/Meta}');
    await waitFor(() => expect(within(dialog).getByAltText('Prompt number 4')).toBeTruthy());
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(2);
  });

  it('uses the prompt again: fills compose and shows the tasks screen', async () => {
    const { user, dialog } = await openViewer(5);
    await user.click(within(dialog).getByRole('button', { name: 'Use this prompt' }));
    const state = useAppStore.getState();
    expect(state.view).toBe('tasks');
    expect(state.composeDraft).toMatchObject({
      prompt: 'Prompt number 5',
      model: 'gpt-image-1',
      size: '1536x1024',
      quality: 'high',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('explains an image that was not saved and offers Retry', async () => {
    // The image's address expired before it was saved (the demo's do not).
    const { user, main } = await renderWired({
      prepare: (m) =>
        seedHistory(m, 1, () => ({
          prompt: 'A harbour',
          images: [makeImage(0, { state: 'expired', file: undefined, thumbnail: undefined })],
        })),
    });
    // Main takes the retry and has not fetched yet (a real retry would fetch the made-up address).
    const retry = main.intercept.request['tasks:retryImages'];
    retry.handle(({ localId }) => ({
      record: main.runtime.core.history.get(localId)!,
      live: null,
    }));
    act(() => tile('seed-000000/0').focus());
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('The link to this image expired before it was saved.');
    expect(within(dialog).getByRole('button', { name: 'Copy image' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Retry the download' }));
    expect(retry.inputs).toEqual([{ localId: 'seed-000000' }]);
  });

  it('has no serious or critical axe violations', async () => {
    await openViewer(1);
    expect(await seriousViolations()).toEqual([]);
  });
});
