/**
 * The application menu in the main process's language (app/i18n), which follows the `language`
 * setting: a change rebuilds the menu, and later notifications and dialogs use it. On the
 * packaged macOS app it offers "Install Command Line Tool…" (/usr/local/bin/pictor, if agreed).
 */
import { join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { installApplicationMenu } from '../adapters/app-menu';
import { nodeCommandLineToolFs } from '../adapters/command-line-tool-fs';
import { createCommandLineToolPrompts } from '../adapters/dialog-prompts';
import { followMainLanguage, useSystemLanguages } from '../app/i18n/main-text';
import { installCommandLineTool } from '../app/os/command-line-tool';
import type { MenuOptions } from '../app/os/menu-template';
import type { AppRuntime } from '../app/app-runtime';
import { messageOf } from '../core/errors';
import type { Disposable } from '../ports/disposable';
import type { Logger } from '../ports/logger';
import { systemLanguages } from './app-dialogs';

export function localizedMenu(
  started: Pick<AppRuntime, 'settings'>,
  actions: Pick<MenuOptions, 'onCommand' | 'onOpenLogs' | 'onInstallCommandLineTool'>,
): Disposable {
  useSystemLanguages(systemLanguages);
  const install = () =>
    installApplicationMenu({
      platform: process.platform,
      appName: app.name,
      packaged: app.isPackaged,
      ...actions,
    });
  const following = followMainLanguage(started.settings, install);
  install();
  return following;
}

/** The packaged macOS app's "Install Command Line Tool…": /usr/local/bin/pictor, if agreed. */
export function commandLineToolAction(
  logger: Logger,
  window: () => BrowserWindow | null,
): Pick<MenuOptions, 'onInstallCommandLineTool'> {
  if (process.platform !== 'darwin' || !app.isPackaged) return {};
  const install = () =>
    installCommandLineTool({
      fs: nodeCommandLineToolFs,
      prompts: createCommandLineToolPrompts(dialog, window),
      target: join(process.resourcesPath, 'bin', 'pictor'),
    });
  return {
    onInstallCommandLineTool: () =>
      void install().then(
        (outcome) => logger.info('command line tool', { outcome: outcome.kind }),
        (error: unknown) => logger.warn('command line tool failed', { detail: messageOf(error) }),
      ),
  };
}
