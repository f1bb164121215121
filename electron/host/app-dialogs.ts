/**
 * The main process's own dialogs, in the main process's language: the folder chooser for the
 * library and exports, the library archive's save and open dialogs, a problem found in the
 * settings file, and the error box when start-up failed.
 */
import { app, dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { createLibraryDialogs } from '../adapters/library-dialogs';
import { mainText, useSystemLanguages } from '../app/i18n/main-text';
import { messageOf } from '../core/errors';
import type { SettingsProblem } from '../core/settings';
import type { Logger } from '../ports/logger';

/** The folder dialog, opened at the library itself; `null` when cancelled. */
export async function chooseGalleryFolder(
  window: BrowserWindow | null,
  defaultPath: string,
): Promise<string | null> {
  const options = {
    title: mainText('dialog.libraryFolder'),
    buttonLabel: mainText('dialog.chooseFolder'),
    // Electron 43+ opens in Downloads unless told where: start at the library itself.
    defaultPath,
    properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
  };
  const result = window
    ? await dialog.showOpenDialog(window, options)
    : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

/** The library archive's dialogs (ipc/archive-handlers.ts) and the version its exports record. */
export function libraryOptions(window: () => BrowserWindow | null) {
  const dialogs = createLibraryDialogs({ dialog, window, saveDir: () => app.getPath('downloads') });
  return { dialogs, version: app.getVersion() };
}

/** Warns about each problem found in the settings file, in the current language. */
export function showSettingsProblems(problems: readonly SettingsProblem[], logger: Logger): void {
  for (const problem of problems) {
    logger.warn('settings problem', { problem: problem.message });
    void dialog.showMessageBox(settingsProblemBox(problem));
  }
}

function settingsProblemBox(problem: SettingsProblem): MessageBoxOptions {
  const detail = problem.sentences.map((said) => mainText(said.key, said.params)).join('\n');
  return { type: 'warning', message: mainText('app.settingsProblem'), detail };
}

/** The system's languages, most wanted first (the app's locale first, as the page reads them). */
export function systemLanguages(): string[] {
  return [app.getLocale(), ...app.getPreferredSystemLanguages()].filter(Boolean);
}

/** Start-up failed: logged, said in an error box in the system's language, and the app exits. */
export function failStart(logger: Logger, error: unknown): void {
  logger.error('start-up failed', { detail: String(error) });
  useSystemLanguages(systemLanguages);
  dialog.showErrorBox(
    mainText('app.startFailed'),
    mainText('app.startFailedDetail', { reason: messageOf(error), folder: app.getPath('logs') }),
  );
  app.exit(1);
}
