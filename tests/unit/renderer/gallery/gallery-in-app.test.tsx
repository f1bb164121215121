import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';

describe('the gallery inside the app', () => {
  it('opens from the sidebar, shows a task completed elsewhere and takes the search shortcut', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) =>
        void (await wired.generate(['One', 'Two', 'Three', 'Four', 'Five'])),
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const grid = await screen.findByRole('grid', { name: 'Images' });
    await waitFor(() => expect(within(grid).getAllByRole('gridcell')).toHaveLength(5));

    // A task the page did not send completes while the gallery is open: its image arrives
    // through the store's events.
    await main.generate(['Arrived later']);
    expect(await within(grid).findByAltText('Arrived later')).toBeTruthy();

    act(() => main.send('menu:command', { command: 'focus-search' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('searchbox', { name: 'Search prompts' }),
      ),
    );
    expect(useAppStore.getState().view).toBe('gallery');
  });
});
