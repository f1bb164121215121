/**
 * Guards for every web page the app hosts: no navigation away from the app, no new windows and
 * no link handed to the OS browser (`window.open`, a `target=_blank` link: the page has no link
 * of its own to the outside, so a page that asks is one that should not: refused and logged, so a
 * compromised page cannot open any address in the user's browser), no <webview>, no permission
 * ever granted, no download a page starts, and no `beforeunload` that keeps a window (and so the
 * app's quit) from closing. The navigation decision is in app/protocol/external-url; this file
 * only wires it to Electron. The links main opens itself (an update's download page) go through
 * its own port (adapters/shell-actions.ts), never through a page.
 */
import type { App, Session, WebContents } from 'electron';
import { isAppNavigation } from '../app/protocol/external-url';
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
    logger.warn('Refused a new window (nothing was opened)', { url: forLog(url) });
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
