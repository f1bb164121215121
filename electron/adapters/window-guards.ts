/**
 * Guards for every web page the app hosts: no navigation away from the app, no new windows
 * (links go to the OS browser after a check), no <webview>, no permission ever granted, no
 * download a page starts, and no `beforeunload` that keeps a window (and so the app's quit) from
 * closing. The decisions are in app/protocol/external-url; this file only wires them to Electron.
 */
import { shell, type App, type Session, type WebContents } from 'electron';
import {
  checkExternalUrl,
  isAppNavigation,
  type ExternalUrlCheck,
} from '../app/protocol/external-url';
import { silentLogger, type Logger } from '../ports/logger';

export interface GuardOptions {
  /** The page the window loads; navigation is allowed only within its scheme, host and port. */
  readonly appUrl: string;
  readonly logger?: Logger;
}

const guardedContents = new WeakSet<WebContents>();
const guardedSessions = new WeakSet<Session>();

/** A URL short enough for a log line. */
function forLog(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}

/**
 * Opens `url` in the OS browser only when `checkExternalUrl` accepts it, and then the
 * normalised form, never the raw text. Resolves to the check's verdict.
 */
export async function openExternalSafely(
  url: string,
  logger: Logger = silentLogger,
): Promise<ExternalUrlCheck> {
  const checked = checkExternalUrl(url);
  if (!checked.ok) {
    logger.warn('Refused to open a link in the browser', {
      reason: checked.reason,
      url: forLog(String(url)),
    });
    return checked;
  }
  await shell.openExternal(checked.url); // eng-disable OPEN_EXTERNAL_JS_CHECK (checked above: https, public host, no credentials)
  return checked;
}

/**
 * Denies every permission request and check in `session`, and every download a page in it starts
 * (once per session). The app saves files itself (Save As: adapters/shell-actions.ts) and fetches
 * with `net`, never through a session's download manager; left alone, a download a page starts
 * (`<a download>` of a blob it made, a link to any address) opens the system's Save dialog with
 * the page's file name and bytes: a compromised page would offer the user `Pictor-update.exe`.
 */
export function guardSession(session: Session): void {
  if (guardedSessions.has(session)) return;
  guardedSessions.add(session);
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}

/** Applies every guard to one webContents (idempotent). */
export function guardWebContents(contents: WebContents, options: GuardOptions): void {
  if (guardedContents.has(contents)) return;
  guardedContents.add(contents);
  const logger = options.logger ?? silentLogger;
  const stayInApp = (event: { preventDefault(): void }, url: string, what: string) => {
    if (isAppNavigation(url, options.appUrl)) return;
    event.preventDefault();
    logger.warn(`Blocked a ${what} away from the app`, { url: forLog(url) });
  };
  contents.on('will-navigate', (event) => stayInApp(event, event.url, 'navigation'));
  contents.on('will-frame-navigate', (event) => stayInApp(event, event.url, 'frame navigation'));
  contents.on('will-redirect', (event) => stayInApp(event, event.url, 'redirect'));
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url, logger).catch((error: unknown) => {
      logger.warn('The browser could not open a link', { error: String(error) });
    });
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('Refused a <webview>');
  });
  // A page's `beforeunload` that returns a value would silently cancel the window's close, and
  // with it every quit (app.quit closes each window first): the app never asks the page.
  contents.on('will-prevent-unload', (event) => event.preventDefault());
  guardSession(contents.session);
}

/**
 * Guards every webContents the app will ever create (windows, frames' hosts, DevTools), so a
 * window opened by any future code path is covered too. Call before `ready`.
 */
export function hardenApp(app: App, options: GuardOptions): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, options));
}
