/**
 * Changing the gallery folder in Settings: the question depends on what the
 * chosen folder holds, a move shows its progress with Cancel, and the result is reported.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FolderChange } from '../../../../shared/ipc/contract';
import { startApp } from '../render-app';

async function openSettings(prepare?: NonNullable<Parameters<typeof startApp>[0]>['prepare']) {
  const app = await startApp(prepare ? { prepare } : {});
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const region = screen.getByRole('region', { name: 'Gallery' });
  await app.user.click(within(region).getByRole('button', { name: 'Change…' }));
  return { ...app, region };
}

const question = () => screen.findByRole('dialog', { name: 'Change the gallery folder' });

describe('changing the gallery folder', () => {
  it('asks to open the library already in the chosen folder, or move this one there', async () => {
    const { user, fake, region } = await openSettings((fake) => {
      fake.seedTasks(3);
      fake.chosenLibrary = { tasks: 12, files: 36, bytes: 5_000_000 };
    });
    const dialog = await question();
    expect(dialog.textContent).toMatch(/already holds a Pictor library: 12 tasks, 36 files/);
    expect(dialog.textContent).toMatch(/\/home\/ada\/Images\/Pictor/);
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).toEqual(
      expect.arrayContaining(['Open the library there', 'Move this library there', 'Cancel']),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Open the library there' }));
    await waitFor(() =>
      expect(within(region).getByRole('status').textContent).toMatch(
        /The gallery is now \/home\/ada\/Images\/Pictor; 12 of its tasks were added/,
      ),
    );
    expect(fake.callsTo('library:open')).toEqual([{ ticket: 'ticket-1' }]);
    expect(fake.callsTo('library:move')).toEqual([]);
  });

  it('offers to move or start empty when the folder holds no library; Cancel changes nothing', async () => {
    const { user, fake } = await openSettings();
    const dialog = await question();
    expect(dialog.textContent).toMatch(/holds no Pictor library/);
    expect(
      within(dialog).getByRole('button', { name: 'Start an empty library there' }),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Open the library there' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Change the gallery folder' })).toBeNull();
    expect([...fake.callsTo('library:move'), ...fake.callsTo('library:open')]).toEqual([]);
    expect(fake.settings.galleryDir).toBe('');
  });

  it('says a folder chosen is the gallery folder already, and offers no move onto itself', async () => {
    const { user, fake } = await openSettings((fake) => {
      fake.seedTasks(3);
      // A link to the gallery folder: only main, comparing on disk, can tell it is the same.
      fake.chosenFolder = '/home/ada/Desktop/Pictor link';
      fake.chosenIsCurrent = true;
    });
    const dialog = await screen.findByRole('dialog', {
      name: 'This is the gallery folder already',
    });
    expect(within(dialog).queryByRole('button', { name: /Move this library/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Open the library/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect([...fake.callsTo('library:move'), ...fake.callsTo('library:open')]).toEqual([]);
  });

  it('asks as for any folder when main says a folder spelled like the current one is another', async () => {
    // The page takes main's word: it never decides from how two paths are spelled.
    await openSettings((fake) => {
      fake.chosenFolder = '/home/ada/Pictures/Pictor';
      fake.chosenIsCurrent = false;
    });
    const dialog = await question();
    expect(within(dialog).getByRole('button', { name: 'Move this library there' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'This is the gallery folder already' })).toBeNull();
  });

  it('shows a move’s progress with Cancel, and reports a cancelled move', async () => {
    let finish: (result: FolderChange) => void = () => undefined;
    const { user, fake, region } = await openSettings((fake) => {
      fake.handle('library:move', () => new Promise<FolderChange>((resolve) => (finish = resolve)));
      fake.handle('library:cancel', () => {
        finish({
          outcome: 'cancelled',
          path: '/home/ada/Pictures/Pictor',
          moved: 0,
          leftBehind: 0,
          imported: 0,
        });
        return { cancelling: true };
      });
    });
    await user.click(
      within(await question()).getByRole('button', { name: 'Move this library there' }),
    );
    const progress = await screen.findByRole('dialog', { name: 'Moving the library' });
    fake.emit('library:progress', {
      tasks: 4,
      tasksDone: 1,
      files: 12,
      filesDone: 5,
      bytes: 4_000_000,
      bytesDone: 1_500_000,
    });
    await waitFor(() => expect(progress.textContent).toMatch(/Copied 5 of 12 files/));
    const bar = within(progress).getByRole('progressbar', { name: 'Moving the library' });
    expect(bar.getAttribute('value')).toBe('1500000');
    await user.click(within(progress).getByRole('button', { name: 'Cancel the move' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Moving the library' })).toBeNull(),
    );
    expect(within(region).getByRole('status').textContent).toMatch(
      /The move was cancelled. Your library is still in \/home\/ada\/Pictures\/Pictor, complete/,
    );
    expect(fake.callsTo('library:cancel')).toHaveLength(1);
  });

  it('reports a refused folder as an error the user can read', async () => {
    const { user, fake, region } = await openSettings((fake) => {
      fake.fail('library:move', {
        message: 'The gallery cannot be /etc: it is a system folder.',
      });
    });
    await user.click(
      within(await question()).getByRole('button', { name: 'Move this library there' }),
    );
    await waitFor(() =>
      expect(within(region).getByRole('alert').textContent).toMatch(/system folder/),
    );
    expect(fake.settings.galleryDir).toBe('');
  });
});
