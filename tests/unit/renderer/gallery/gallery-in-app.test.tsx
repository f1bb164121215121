import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../fakes/fake-pictor-api';
import { giveSize, startApp } from '../render-app';

describe('the gallery inside the app', () => {
  it('opens from the sidebar, shows a task completed elsewhere and takes the search shortcut', async () => {
    const { user, fake } = await startApp({
      prepare: (f) =>
        f.seedTasks(5, (index) => ({ images: [makeImage(0, { file: `g/${String(index)}.png` })] })),
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const grid = await screen.findByRole('grid', { name: 'Images' });
    await waitFor(() => expect(within(grid).getAllByRole('gridcell')).toHaveLength(5));

    // A task completes while the gallery is open: its image arrives through the store's events.
    fake.addTasks([
      {
        ...fake.task('seed-000000')!,
        localId: 'later',
        createdAt: Date.UTC(2026, 0, 16),
        request: { prompt: 'Arrived later' },
        images: [makeImage(0)],
      },
    ]);
    act(() => {
      fake.updateTask('later', {});
    });
    expect(await within(grid).findByAltText('Arrived later')).toBeTruthy();

    act(() => fake.emit('menu:command', { command: 'focus-search' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('searchbox', { name: 'Search prompts' }),
      ),
    );
    expect(useAppStore.getState().view).toBe('gallery');
  });
});
