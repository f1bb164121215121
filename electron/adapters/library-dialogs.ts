/**
 * The main process's own dialogs for the library archive: where to save an export, which archive
 * or folder to import. Drawn by main, so the page never names a path (see ipc/archive-handlers.ts).
 */
import type { BaseWindow, Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { LibraryDialogs, TemplateFileKind } from '../ports/library-dialogs';
import { mainText } from '../app/i18n/main-text';

export interface LibraryDialogOptions {
  readonly dialog: Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;
  readonly window: () => BaseWindow | null;
  /** Where the save dialog starts (the Downloads folder). */
  readonly saveDir: () => string;
  readonly now?: () => Date;
}

/** `pictor-library-2025-01-31.zip`: the day the export was made. */
export function exportFileName(at: Date): string {
  return `pictor-library-${at.toISOString().slice(0, 10)}.zip`;
}

/** `pictor-costs-2025-01-31.csv`: the day the ledger was saved. */
function ledgerFileName(at: Date): string {
  return `pictor-costs-${at.toISOString().slice(0, 10)}.csv`;
}

/** A template file's name and filter: A1111's `styles.csv`, JSON for the others. */
function templateFile(format: TemplateFileKind, at: Date) {
  const csv = format === 'a1111';
  const extension = csv ? 'csv' : 'json';
  const filter = {
    name: mainText(csv ? 'dialog.csvFile' : 'dialog.jsonFile'),
    extensions: [extension],
  };
  const day = at.toISOString().slice(0, 10);
  return { name: `pictor-templates-${format}-${day}.${extension}`, filter };
}

function zipFilter() {
  return { name: mainText('dialog.zipArchive'), extensions: ['zip'] };
}

/** Main's save and open dialogs over the window when there is one: the path, or null. */
function dialogAsks(options: LibraryDialogOptions) {
  const { dialog } = options;
  const askSave = async (save: SaveDialogOptions): Promise<string | null> => {
    const parent = options.window();
    const result = parent
      ? await dialog.showSaveDialog(parent, save)
      : await dialog.showSaveDialog(save);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
  const askOpen = async (open: OpenDialogOptions): Promise<string | null> => {
    const parent = options.window();
    const result = parent
      ? await dialog.showOpenDialog(parent, open)
      : await dialog.showOpenDialog(open);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
  return { askSave, askOpen };
}

/** The template files' dialogs: where an export is saved, which file an import reads. */
function templateDialogs(
  options: LibraryDialogOptions,
  today: () => Date,
): Required<Pick<LibraryDialogs, 'chooseTemplateExportFile' | 'chooseTemplateImportFile'>> {
  const { askSave, askOpen } = dialogAsks(options);
  return {
    chooseTemplateExportFile: (format) => {
      const file = templateFile(format, today());
      return askSave({
        title: mainText('dialog.exportTemplates'),
        buttonLabel: mainText('dialog.export'),
        defaultPath: `${options.saveDir()}/${file.name}`,
        filters: [file.filter],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
    },
    chooseTemplateImportFile: (format) =>
      askOpen({
        title: mainText('dialog.importTemplates'),
        buttonLabel: mainText('dialog.import'),
        properties: ['openFile'],
        filters: [templateFile(format, today()).filter],
      }),
  };
}

export function createLibraryDialogs(options: LibraryDialogOptions): LibraryDialogs {
  const today = () => (options.now ?? (() => new Date()))();
  const { askSave, askOpen } = dialogAsks(options);
  // A ComfyUI workflow and a model's options are both one JSON file.
  const askJson = () =>
    askOpen({
      title: mainText('dialog.import'),
      buttonLabel: mainText('dialog.import'),
      properties: ['openFile'],
      filters: [{ name: mainText('dialog.jsonFile'), extensions: ['json'] }],
    });
  return {
    chooseExportFile: () =>
      askSave({
        title: mainText('dialog.exportLibrary'),
        buttonLabel: mainText('dialog.export'),
        defaultPath: `${options.saveDir()}/${exportFileName(today())}`,
        filters: [zipFilter()],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }),
    chooseLedgerFile: () =>
      askSave({
        title: mainText('dialog.exportCosts'),
        buttonLabel: mainText('dialog.export'),
        defaultPath: `${options.saveDir()}/${ledgerFileName(today())}`,
        filters: [{ name: mainText('dialog.csvFile'), extensions: ['csv'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }),
    ...templateDialogs(options, today),
    chooseWorkflowFile: () => askJson(),
    chooseModelOptionsFile: () => askJson(),
    async chooseImportSource(from) {
      const open: OpenDialogOptions = {
        title: mainText('dialog.importLibrary'),
        buttonLabel: mainText('dialog.import'),
        ...(from === 'folder'
          ? { properties: ['openDirectory'] }
          : { properties: ['openFile'], filters: [zipFilter()] }),
      };
      return askOpen(open);
    },
  };
}
