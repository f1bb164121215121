/** The library's dialogs are main's own: a save dialog for a ZIP, an open dialog for a ZIP or a folder. */
import { describe, expect, it } from 'vitest';
import type { Dialog } from 'electron';
import {
  createLibraryDialogs,
  exportFileName,
} from '../../../../electron/adapters/library-dialogs';

function fakeDialog(answer: { canceled: boolean; path?: string }) {
  const asked: unknown[] = [];
  const dialog = {
    showSaveDialog: async (...args: unknown[]) => {
      asked.push(args.at(-1));
      return { canceled: answer.canceled, filePath: answer.path ?? '' };
    },
    showOpenDialog: async (...args: unknown[]) => {
      asked.push(args.at(-1));
      return { canceled: answer.canceled, filePaths: answer.path ? [answer.path] : [] };
    },
  } as unknown as Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;
  return { dialog, asked };
}

describe('library dialogs', () => {
  it('suggests a dated ZIP in the save folder and returns the chosen path', async () => {
    const { dialog, asked } = fakeDialog({ canceled: false, path: '/home/me/lib.zip' });
    const dialogs = createLibraryDialogs({
      dialog,
      window: () => null,
      saveDir: () => '/home/me/Downloads',
      now: () => new Date(Date.UTC(2026, 10, 23, 7)),
    });
    expect(await dialogs.chooseExportFile()).toBe('/home/me/lib.zip');
    expect(asked[0]).toMatchObject({
      defaultPath: '/home/me/Downloads/pictor-library-2026-11-23.zip',
      filters: [{ extensions: ['zip'] }],
    });
    expect(exportFileName(new Date(Date.UTC(2025, 0, 31)))).toBe('pictor-library-2025-01-31.zip');
  });

  it('opens a ZIP or a folder as asked, and null when cancelled', async () => {
    const chosen = fakeDialog({ canceled: false, path: '/x/export' });
    const dialogs = createLibraryDialogs({
      dialog: chosen.dialog,
      window: () => null,
      saveDir: () => '/d',
    });
    expect(await dialogs.chooseImportSource('folder')).toBe('/x/export');
    expect(await dialogs.chooseImportSource('archive')).toBe('/x/export');
    expect(chosen.asked).toMatchObject([
      { properties: ['openDirectory'] },
      { properties: ['openFile'], filters: [{ extensions: ['zip'] }] },
    ]);
    expect(chosen.asked[0]).not.toHaveProperty('filters');
    const cancelled = fakeDialog({ canceled: true });
    const none = createLibraryDialogs({
      dialog: cancelled.dialog,
      window: () => null,
      saveDir: () => '/d',
    });
    expect(await none.chooseExportFile()).toBeNull();
    expect(await none.chooseImportSource('archive')).toBeNull();
  });
});

describe('the cost ledger’s save dialog', () => {
  it('suggests a dated CSV in the save folder, and says null when cancelled', async () => {
    const { dialog, asked } = fakeDialog({ canceled: false, path: '/home/me/costs.csv' });
    const options = {
      dialog,
      window: () => null,
      saveDir: () => '/home/me/Downloads',
      now: () => new Date(Date.UTC(2026, 10, 25, 7)),
    };
    const chooseLedgerFile = createLibraryDialogs(options).chooseLedgerFile;
    expect(await chooseLedgerFile?.()).toBe('/home/me/costs.csv');
    expect(asked[0]).toMatchObject({
      defaultPath: '/home/me/Downloads/pictor-costs-2026-11-25.csv',
      filters: [{ extensions: ['csv'] }],
      properties: expect.arrayContaining(['showOverwriteConfirmation']),
    });
    const cancelled = createLibraryDialogs({
      ...options,
      dialog: fakeDialog({ canceled: true }).dialog,
    });
    expect(await cancelled.chooseLedgerFile?.()).toBeNull();
  });

  it('saves and opens a template file of the format asked: CSV for A1111, JSON for the others', async () => {
    const chosen = fakeDialog({ canceled: false, path: '/t/styles.csv' });
    const dialogs = createLibraryDialogs({
      dialog: chosen.dialog,
      window: () => null,
      saveDir: () => '/d',
      now: () => new Date(Date.UTC(2026, 10, 23, 7)),
    });
    expect(await dialogs.chooseTemplateExportFile?.('a1111')).toBe('/t/styles.csv');
    expect(await dialogs.chooseTemplateImportFile?.('fooocus')).toBe('/t/styles.csv');
    expect(chosen.asked).toMatchObject([
      {
        defaultPath: '/d/pictor-templates-a1111-2026-11-23.csv',
        filters: [{ extensions: ['csv'] }],
      },
      { properties: ['openFile'], filters: [{ extensions: ['json'] }] },
    ]);
    const cancelled = createLibraryDialogs({
      dialog: fakeDialog({ canceled: true }).dialog,
      window: () => null,
      saveDir: () => '/d',
    });
    expect(await cancelled.chooseTemplateImportFile?.('pictor')).toBeNull();
  });
});
