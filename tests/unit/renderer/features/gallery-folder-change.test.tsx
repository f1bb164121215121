/**
 * Changing the gallery folder in Settings: the question depends on what the
 * chosen folder holds, a move shows its progress with Cancel, and the result is reported.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyLibrary } from '../../../support/gallery-helpers';
import type { FolderChange } from '../../../../shared/ipc/contract';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** One main for the file: its tests only ask, and main changes nothing (refused or cancelled). */
const fileMain = sharedWiredMain();

/**
 * Settings › Gallery › Change… over main's real library: the OS's folder dialog answers
 * `folder(main)` (a real folder beside the gallery).
 */
async function openWiredSettings(folder: (main: WiredApi) => string, seeded = 0) {
  const app = await startWiredApp({
    main: fileMain,
    prepare: (main) => {
      seedHistory(main, seeded);
      main.env.PICTOR_E2E_CHOOSE_FOLDER = folder(main);
    },
  });
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const region = screen.getByRole('region', { name: 'Gallery' });
  await app.user.click(within(region).getByRole('button', { name: 'Change…' }));
  return { ...app, region };
}

/** An empty folder of the test's own, beside main's gallery. */
function emptyFolder(main: WiredApi): string {
  const folder = join(main.dir, 'Elsewhere');
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** The same over a main of the test's own (the test changes its gallery folder). */
async function openSettingsOver(prepare: (main: WiredApi) => Promise<void>) {
  const app = await startWiredApp({ prepare });
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const region = screen.getByRole('region', { name: 'Gallery' });
  await app.user.click(within(region).getByRole('button', { name: 'Change…' }));
  return { ...app, region };
}

const question = () => screen.findByRole('dialog', { name: 'Change the gallery folder' });

describe('changing the gallery folder', () => {
  it('asks to open the library already in the chosen folder, or move this one there', async () => {
    // Another Pictor library: two tasks made for real on the demo, their folders copied out of
    // the gallery, and the tasks then forgotten by this history.
    let other = '';
    const { user, main, region } = await openSettingsOver(async (wired) => {
      const made = await wired.generate(['A red kite', 'A blue boat']);
      other = join(wired.dir, 'Other library');
      await copyLibrary(wired.runtime.galleryDir(), other);
      for (const task of made) wired.runtime.core.history.delete(task.localId);
      seedHistory(wired, 3);
      wired.env.PICTOR_E2E_CHOOSE_FOLDER = other;
    });
    const dialog = await question();
    const held = /already holds a Pictor library: 2 tasks, (\d+) files/.exec(dialog.textContent);
    // At least each task's image.
    expect(Number(held?.[1])).toBeGreaterThanOrEqual(2);
    expect(dialog.textContent).toContain(other);
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).toEqual(
      expect.arrayContaining(['Open the library there', 'Move this library there', 'Cancel']),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Open the library there' }));
    await waitFor(() =>
      expect(within(region).getByRole('status').textContent).toContain(
        `The gallery is now ${other}; 2 of its tasks were added`,
      ),
    );
    expect(main.callsTo('library:open')).toEqual([{ ticket: expect.any(String) }]);
    expect(main.callsTo('library:move')).toEqual([]);
    expect(main.runtime.galleryDir()).toBe(other);
    expect(main.runtime.core.history.taskIds({}, 100)).toHaveLength(5);
  });

  it('offers to move or start empty when the folder holds no library; Cancel changes nothing', async () => {
    const { user, main } = await openWiredSettings(emptyFolder);
    const galleryBefore = main.runtime.galleryDir();
    const dialog = await question();
    expect(dialog.textContent).toMatch(/holds no Pictor library/);
    expect(
      within(dialog).getByRole('button', { name: 'Start an empty library there' }),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Open the library there' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Change the gallery folder' })).toBeNull();
    expect([...main.callsTo('library:move'), ...main.callsTo('library:open')]).toEqual([]);
    expect(main.callsTo('library:pick')).toHaveLength(1);
    expect(main.runtime.settings.get().galleryDir).toBe('');
    expect(main.runtime.galleryDir()).toBe(galleryBefore);
  });

  it('says a folder chosen is the gallery folder already, and offers no move onto itself', async () => {
    // A link to the gallery folder: only main, comparing on disk, can tell it is the same.
    const link = (main: WiredApi) => {
      const path = join(main.dir, 'Pictor link');
      mkdirSync(main.runtime.galleryDir(), { recursive: true });
      if (!existsSync(path)) symlinkSync(main.runtime.galleryDir(), path);
      return path;
    };
    const { user, main } = await openWiredSettings(link, 3);
    const dialog = await screen.findByRole('dialog', {
      name: 'This is the gallery folder already',
    });
    expect(within(dialog).queryByRole('button', { name: /Move this library/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Open the library/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect([...main.callsTo('library:move'), ...main.callsTo('library:open')]).toEqual([]);
  });

  it('asks as for any folder when main says a folder spelled like the current one is another', async () => {
    // The page takes main's word: it never decides from how two paths are spelled. A folder
    // named as the gallery is, elsewhere.
    const spelledAlike = (main: WiredApi) => {
      const path = join(main.dir, 'other', 'gallery');
      mkdirSync(path, { recursive: true });
      return path;
    };
    await openWiredSettings(spelledAlike);
    const dialog = await question();
    expect(within(dialog).getByRole('button', { name: 'Move this library there' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'This is the gallery folder already' })).toBeNull();
  });

  // Fault: library:move answered by the test in main's place (the contract's interceptor) once
  // Cancel is pressed, its progress injected: a real move of a small library is over before the
  // window could show it.
  it('shows a move’s progress with Cancel, and reports a cancelled move', async () => {
    let finish: (result: FolderChange) => void = () => undefined;
    // A main of its own: main's ticket for the chosen folder stays open (its move never ran).
    const { user, main, region } = await openSettingsOver(async (wired) => {
      wired.env.PICTOR_E2E_CHOOSE_FOLDER = emptyFolder(wired);
    });
    const gallery = main.runtime.galleryDir();
    main.intercept.request['library:move'].handle(
      () => new Promise<FolderChange>((resolve) => (finish = resolve)),
    );
    main.intercept.request['library:cancel'].handle(() => {
      finish({
        outcome: 'cancelled',
        path: gallery,
        moved: 0,
        leftBehind: 0,
        imported: 0,
        skipped: [],
        skippedTotal: 0,
      });
      return { cancelling: true };
    });
    await user.click(
      within(await question()).getByRole('button', { name: 'Move this library there' }),
    );
    const progress = await screen.findByRole('dialog', { name: 'Moving the library' });
    main.intercept.event['library:progress'].inject({
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
    expect(within(region).getByRole('status').textContent).toContain(
      `The move was cancelled. Your library is still in ${gallery}, complete`,
    );
    expect(main.intercept.request['library:cancel'].inputs).toHaveLength(1);
    expect(main.runtime.galleryDir()).toBe(gallery);
  });

  it('reports a refused folder as an error the user can read', async () => {
    // A system folder: main refuses it before anything moves.
    const { user, main, region } = await openWiredSettings(() => '/etc');
    await user.click(
      within(await question()).getByRole('button', { name: 'Move this library there' }),
    );
    await waitFor(() =>
      expect(within(region).getByRole('alert').textContent).toMatch(/system folder/),
    );
    expect(main.callsTo('library:move')).toHaveLength(1);
    expect(main.runtime.settings.get().galleryDir).toBe('');
  });
});
