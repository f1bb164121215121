/**
 * Settings › Library in the real renderer over main's real archive handlers (the held-back and
 * never-answered imports answered in main's place by the contract's interceptor): the page asks
 * main to export or
 * import (never naming a path), shows progress from `archive:progress`, offers Cancel while it
 * runs, and words the summary, refusals included, and main's sentence when the archive could not
 * be written.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestOutput } from '../../../../../shared/ipc/contract';
import { localeInfo } from '../../../../../shared/domain/locales';
import { MainCatalogue } from '../../../../../shared/i18n/main-catalogue';
import { englishText, sentence } from '../../../../../shared/i18n/sentence';
import { applyLocale, t } from '../../../../../renderer/i18n';
import { useAppStore } from '../../../../../renderer/store/app-store';
import { startWiredApp } from '../../render-wired-app';
import { sharedWiredMain } from '../../shared-wired-main';

/** Settings › Library over main's real archive handlers and dialogs (main.env answers them). */
async function openWiredLibrary() {
  const app = await startWiredApp();
  act(() => useAppStore.getState().setView('settings'));
  const region = await screen.findByRole('region', { name: 'Library' });
  return { ...app, region };
}

/** One main for the tests whose imports the interceptor answers: main itself does nothing. */
const quietMain = sharedWiredMain();

async function openLibrary() {
  const app = await startWiredApp({ main: quietMain });
  act(() => useAppStore.getState().setView('settings'));
  const region = await screen.findByRole('region', { name: 'Library' });
  return { ...app, region };
}

describe('Settings › Library', () => {
  // Fault: archive:import answered in main's place when the test says (to see its progress and
  // Cancel while it runs), its progress injected.
  it('imports an archive with progress and Cancel, then shows what came in and what was refused', async () => {
    const { user, main, region } = await openLibrary();
    let answer: (value: RequestOutput<'archive:import'>) => void = () => undefined;
    const { request, event } = main.intercept;
    request['archive:import'].handle(() => new Promise((resolve) => (answer = resolve)));
    request['archive:cancel'].reply({ cancelled: true });
    await user.click(within(region).getByRole('button', { name: 'Import archive…' }));
    await waitFor(() => expect(request['archive:import'].inputs).toEqual([{ from: 'archive' }]));
    event['archive:progress'].inject({ operation: 'import', done: 3, total: 10, bytes: 2_000_000 });
    const bar = await within(region).findByRole('progressbar', { name: 'Import progress' });
    expect(bar.getAttribute('value')).toBe('3');
    expect(within(region).getByText(/Importing: 3 of 10 tasks/)).toBeTruthy();
    await user.click(within(region).getByRole('button', { name: 'Cancel' }));
    expect(request['archive:cancel'].inputs).toHaveLength(1);
    act(() =>
      answer({
        summary: {
          addedTasks: 3,
          addedImages: 5,
          duplicateTasks: 1,
          duplicateImages: 2,
          refused: [{ path: '../evil.png', reason: 'The path leaves the folder.' }],
          refusedTotal: 4,
          cancelled: true,
          notes: [{ key: 'error.triage.importTagsDropped', params: { max: 64, count: 6 } }],
        },
      }),
    );
    await within(region).findByText('Added 3 tasks and 5 images.');
    expect(within(region).getByText(/Import cancelled/)).toBeTruthy();
    expect(
      within(region).getByText('Already in the library, skipped: 1 task and 2 images.'),
    ).toBeTruthy();
    expect(within(region).getByText('4 files were refused:')).toBeTruthy();
    expect(within(region).getByText('../evil.png')).toBeTruthy();
    expect(within(region).getByText('…and 3 more.')).toBeTruthy();
    // What the import did not keep of the images' tags, in main's sentence.
    expect(within(region).getByText(/\b6\b.*\b64\b|\b64\b.*\b6\b/)).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  // Fault: archive:import never answers (an operation still running), in main's place.
  it('starts no second operation while one runs, whoever asks: main runs one at a time', async () => {
    const { user, main, region } = await openLibrary();
    const { request } = main.intercept;
    request['archive:import'].handle(() => new Promise(() => undefined));
    await user.click(within(region).getByRole('button', { name: 'Import folder…' }));
    for (const name of ['Export all…', 'Import archive…', 'Import folder…']) {
      expect((within(region).getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    }
    await act(() => useAppStore.getState().archiveExport());
    await act(() => useAppStore.getState().archiveImport('archive'));
    expect(request['archive:export'].inputs).toHaveLength(0);
    expect(request['archive:import'].inputs).toEqual([{ from: 'folder' }]);
    expect(within(region).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('shows a refusal’s catalogue sentence in the window’s language', async () => {
    // A folder to import holding a symbolic link: main leaves it out, saying why as a sentence.
    const { user, main, region } = await openWiredLibrary();
    const folder = join(main.dir, 'to-import');
    await mkdir(folder);
    await symlink('/etc/hostname', join(folder, 'evil.png'));
    main.env.PICTOR_E2E_OPEN_ARCHIVE = folder;
    const said = sentence('error.library.entryIsLink');
    await user.click(within(region).getByRole('button', { name: 'Import folder…' }));
    const item = (await within(region).findByText('evil.png')).closest('li');
    expect(item?.textContent).toBe(`evil.png ${englishText(said)}`);
    expect(main.callsTo('archive:import')).toEqual([{ from: 'folder' }]);
    try {
      await act(() => applyLocale('en-XA'));
      // The sentence, not main's English reason beside it, in the window's language.
      const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined).text(said.key, said.params);
      expect(pseudo).not.toBe(englishText(said));
      const shown = await screen.findByRole('region', { name: t('settings.archive.title') });
      await user.click(
        within(shown).getByRole('button', { name: t('settings.archive.importFolder') }),
      );
      await waitFor(() => expect(main.callsTo('archive:import')).toHaveLength(2));
      const again = (await within(shown).findByText('evil.png')).closest('li');
      await waitFor(() => expect(again?.textContent).toBe(`evil.png ${pseudo}`));
    } finally {
      await act(() => applyLocale('en'));
    }
  });

  it('exports everything and says where; a cancelled dialog says nothing; a refusal is shown', async () => {
    const { user, main, region } = await openWiredLibrary();
    await main.generate(['A red kite']);
    // The save dialog cancelled.
    await user.click(within(region).getByRole('button', { name: 'Export all…' }));
    await waitFor(() => expect(main.callsTo('archive:export')).toEqual([{}]));
    expect(within(region).queryByRole('status')).toBeNull();
    const file = join(main.dir, 'lib.zip');
    main.env.PICTOR_E2E_SAVE_ARCHIVE = file;
    await user.click(within(region).getByRole('button', { name: 'Export all…' }));
    await within(region).findByText(
      new RegExp(`Exported 1 task and 1 image \\(.+\\) to ${file.replace(/[.\\/]/g, '\\$&')}\\.`),
    );
    expect((await stat(file)).size).toBeGreaterThan(0);
    // An "archive" that is not one: main refuses it as a whole.
    const bogus = join(main.dir, 'not-an-archive.zip');
    await writeFile(bogus, 'plain text, not a zip');
    main.env.PICTOR_E2E_OPEN_ARCHIVE = bogus;
    await user.click(within(region).getByRole('button', { name: 'Import archive…' }));
    const alert = await within(region).findByRole('alert');
    expect(alert.textContent).toContain(
      'Pictor did not import this archive: it is not a ZIP archive Pictor can read.',
    );
    expect(main.runtime.core.history.taskIds({}, 10)).toHaveLength(1);
  });

  it('says why an archive could not be written where main’s dialog chose, in the window’s language', async () => {
    const { user, main, region } = await openWiredLibrary();
    await main.generate(['A red kite']);
    // A folder the dialog returned that is gone by the time the export writes there.
    const file = join(main.dir, 'unplugged', 'lib.zip');
    main.env.PICTOR_E2E_SAVE_ARCHIVE = file;
    await user.click(within(region).getByRole('button', { name: 'Export all…' }));
    const said = sentence('error.library.exportNotWritten', {
      file,
      problem: 'noFolder',
      code: 'ENOENT',
    });
    const alert = await within(region).findByRole('alert');
    expect(alert.querySelector('.message__text')?.textContent).toBe(englishText(said));
    expect(alert.textContent).toContain(
      'because its folder does not exist (ENOENT). Nothing was exported there; choose another folder, then export again.',
    );
    expect(within(region).queryByRole('status')).toBeNull();
    expect(within(region).queryByRole('progressbar')).toBeNull();
    const exportAll = within(region).getByRole('button', { name: 'Export all…' });
    expect((exportAll as HTMLButtonElement).disabled).toBe(false);
    try {
      await act(() => applyLocale('en-XA'));
      const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined).text(said.key, said.params);
      const shown = await screen.findByRole('region', { name: t('settings.archive.title') });
      await waitFor(() =>
        expect(within(shown).getByRole('alert').querySelector('.message__text')?.textContent).toBe(
          pseudo,
        ),
      );
    } finally {
      await act(() => applyLocale('en'));
    }
    // Another folder: the export goes through and the sentence gives way to the summary.
    const elsewhere = join(main.dir, 'lib.zip');
    main.env.PICTOR_E2E_SAVE_ARCHIVE = elsewhere;
    const again = await screen.findByRole('region', { name: 'Library' });
    await user.click(within(again).getByRole('button', { name: 'Export all…' }));
    await within(again).findByText(/Exported 1 task and 1 image/);
    expect(within(again).queryByRole('alert')).toBeNull();
    expect((await stat(elsewhere)).size).toBeGreaterThan(0);
  });
});
