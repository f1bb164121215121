/**
 * Where the keyboard's focus goes when the edit panel, opened from the image viewer, closes: after
 * Send the compare view opens over the viewer with the focus (its own frame while main still
 * reads the group), Escape closes it back to the viewer's button that opened the panel, and
 * Escape again closes the viewer, whose focus goes back to the tile or thumbnail that opened it;
 * Cancel and Escape on the panel give the focus back to that button too. Over the app's real main
 * (the built-in demo's "demo-edit" upscales a real PNG), in the Gallery and the Tasks screen.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const main = sharedWiredMain();
const PROMPT = 'A teapot on a table';
const DEMO_EDIT = 'Image task service (demo) · demo-edit';

type User = Awaited<ReturnType<typeof startWiredApp>>['user'];

const viewer = () => screen.findByRole('dialog', { name: 'Image viewer' });
const focusedIn = (element: HTMLElement) =>
  document.activeElement !== document.body && element.contains(document.activeElement);

/** The generated image opened in the Gallery's viewer (from its tile) or the Tasks screen's. */
async function openViewer(where: 'gallery' | 'tasks', user: User): Promise<HTMLElement> {
  if (where === 'gallery') {
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await act(() => useAppStore.getState().setView('gallery'));
    const grid = await screen.findByRole('grid', { name: 'Images' });
    const tile = await within(grid).findByRole('gridcell');
    tile.focus();
    await user.keyboard('{Enter}');
    return tile;
  }
  const [row] = screen.getAllByRole('article');
  const thumbnail = within(row!).getByRole('button', { name: 'Open image 1 of 1' });
  thumbnail.focus();
  await user.keyboard('{Enter}');
  return thumbnail;
}

/** "Upscale ×2" pressed from the keyboard: the panel, open on it. */
async function openUpscale(user: User, dialog: HTMLElement) {
  const upscale = within(dialog).getByRole('button', { name: 'Upscale ×2' });
  upscale.focus();
  await user.keyboard('{Enter}');
  const panel = await screen.findByRole('dialog', { name: 'Edit an image' });
  return { upscale, panel };
}

/** The demo's edit model chosen, Send pressed from the keyboard once main's plan allows it. */
async function send(user: User, panel: HTMLElement): Promise<void> {
  await user.click(within(panel).getByRole('checkbox', { name: DEMO_EDIT }));
  const button = within(panel).getByRole('button', { name: 'Send' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  button.focus();
  await user.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit an image' })).toBeNull());
}

describe('the focus after the edit panel, opened from the viewer', () => {
  for (const where of ['gallery', 'tasks'] as const) {
    it(`after Send, is in the compare view over the ${where} viewer, then back in the viewer; Escape closes each`, async () => {
      const { user } = await startWiredApp({
        main,
        prepare: async (wired) => void (await wired.generate([PROMPT])),
      });
      const opener = await openViewer(where, user);
      const dialog = await viewer();
      const { upscale, panel } = await openUpscale(user, dialog);
      await send(user, panel);

      const compare = await screen.findByRole('dialog', { name: 'Compare' });
      expect(focusedIn(compare)).toBe(true);
      // The viewer the edit came from stays under it.
      expect(await viewer()).toBe(dialog);
      await waitFor(() => expect(within(compare).getAllByRole('gridcell')).toHaveLength(1));
      expect(focusedIn(compare)).toBe(true);

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog', { name: 'Compare' })).toBeNull();
      expect(document.activeElement).toBe(upscale);
      expect(focusedIn(dialog)).toBe(true);

      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(document.activeElement).toBe(opener);
    });
  }

  it('Cancel, the panel’s Close and Escape give the focus back to the viewer’s button', async () => {
    const { user } = await startWiredApp({
      main,
      prepare: async (wired) => void (await wired.generate([PROMPT])),
    });
    await openViewer('tasks', user);
    const dialog = await viewer();
    const ways = [
      (panel: HTMLElement) => user.click(within(panel).getByRole('button', { name: 'Cancel' })),
      (panel: HTMLElement) => user.click(within(panel).getByRole('button', { name: 'Close' })),
      () => user.keyboard('{Escape}'),
    ];
    for (const close of ways) {
      const { upscale, panel } = await openUpscale(user, dialog);
      await close(panel);
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Edit an image' })).toBeNull(),
      );
      expect(document.activeElement).toBe(upscale);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  // Fault: compare:show and main's task changes held in the contract's interceptor (main still
  // reading the group when the compare view opens: the new task's change would join it).
  it('is on the compare view itself while main reads the group, not on the viewer it covers', async () => {
    const { user, main: wired } = await startWiredApp({
      main,
      prepare: async (own) => void (await own.generate([PROMPT])),
    });
    const held = wired.intercept.request['compare:show'].hold();
    await openViewer('tasks', user);
    const dialog = await viewer();
    const { upscale, panel } = await openUpscale(user, dialog);
    const changes = wired.intercept.event['tasks:updated'].hold();
    await send(user, panel);

    const compare = await screen.findByRole('dialog', { name: 'Compare' });
    expect(within(compare).queryAllByRole('gridcell')).toHaveLength(0);
    expect(document.activeElement).toBe(compare);
    // The cells, once in, take it.
    await waitFor(() => expect(held.waiting).toBe(1));
    act(() => {
      held.release();
      changes.release();
    });
    const cell = await within(compare).findByRole('gridcell');
    await waitFor(() => expect(document.activeElement).toBe(cell));

    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(upscale);
  });
});
