/**
 * Keeps the window usable when its renderer process dies (a GPU driver fault, out of memory, a
 * crash in Chromium): reloads it, and after repeated crashes asks in a native message box whether
 * to reload again or quit; a page that stops responding gets a box offering to reload it. The page
 * learns it was reloaded from `app:getInfo`'s notices.
 */
import type { BrowserWindow, Dialog } from 'electron';
import type { RendererCrashPolicy } from '../app/window/crash-policy';
import type { Logger } from '../ports/logger';
import { mainText } from '../app/i18n/main-text';

export interface RendererCrashOptions {
  readonly policy: RendererCrashPolicy;
  readonly logger: Logger;
  readonly dialog: Pick<Dialog, 'showMessageBox'>;
  /** Called before each reload, so the page can say what happened. */
  readonly onRecovered: () => void;
  readonly quit: () => void;
}

type CrashWindow = Pick<BrowserWindow, 'isDestroyed'> & {
  readonly webContents: Pick<
    BrowserWindow['webContents'],
    'on' | 'reload' | 'isDestroyed' | 'forcefullyCrashRenderer'
  >;
  on(event: 'unresponsive' | 'responsive', listener: () => void): unknown;
};

export function watchRendererCrashes(win: CrashWindow, options: RendererCrashOptions): void {
  const { policy, logger } = options;
  const reload = () => {
    if (win.isDestroyed() || win.webContents.isDestroyed()) return;
    options.onRecovered();
    win.webContents.reload();
  };
  const ask = async (message: string, detail: string) => {
    const { response } = await options.dialog.showMessageBox(win as BrowserWindow, {
      type: 'error',
      message,
      detail,
      buttons: [mainText('crash.reload'), mainText('crash.quit')],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    if (response === 1) options.quit();
    else {
      policy.reset();
      reload();
    }
  };
  win.webContents.on('render-process-gone', (_event, details) => {
    logger.error('window renderer gone', { reason: details.reason, exitCode: details.exitCode });
    const decision = policy.decide(details);
    if (decision === 'reload') reload();
    else if (decision === 'ask') {
      void ask(mainText('crash.message'), mainText('crash.detail', { reason: details.reason }));
    }
  });
  // A hung page (a long script, a stuck GPU process): offer to reload; the box closes by itself
  // when the page answers again. Reloading ends the hung renderer first (a hung one cannot
  // reload itself); its render-process-gone then reloads through the policy above.
  let hung: AbortController | null = null;
  win.on('unresponsive', () => {
    logger.warn('window unresponsive');
    if (hung) return;
    const asking = new AbortController();
    hung = asking;
    void options.dialog
      .showMessageBox(win as BrowserWindow, {
        type: 'warning',
        message: mainText('hang.message'),
        detail: mainText('hang.detail'),
        buttons: [mainText('hang.wait'), mainText('crash.reload')],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
        signal: asking.signal,
      })
      .then(
        ({ response }) => {
          if (hung === asking) hung = null;
          if (response !== 1 || asking.signal.aborted) return;
          if (win.isDestroyed() || win.webContents.isDestroyed()) return;
          logger.warn('window reloaded by the user while unresponsive');
          win.webContents.forcefullyCrashRenderer();
        },
        () => {
          if (hung === asking) hung = null;
        },
      );
  });
  win.on('responsive', () => {
    logger.info('window responsive again');
    hung?.abort();
    hung = null;
  });
}
