/**
 * The desktop app's log: a rotating file in the OS's logs folder (after the environment chose the
 * data folder), and the process's uncaught errors written into it. Its lines are held until the
 * keys' redactor is set (APP_LOG_OPTIONS), so none is written before the key's text is known. Disposing stops listening to
 * the process; the caller closes the log last, once everything that writes to it has ended.
 */
import { app } from 'electron';
import { APP_LOG_OPTIONS, RotatingFileLogger } from '../core/logging';
import { toDisposable, type Disposable } from '../ports/disposable';

export function openAppLog(): { readonly logger: RotatingFileLogger } & Disposable {
  const logger = new RotatingFileLogger({
    dir: app.getPath('logs'),
    minimumLevel: app.isPackaged ? 'info' : 'debug',
    // Its lines wait for the keys' redactor (desktop-start.ts redactKeyIn): read after this opens.
    ...APP_LOG_OPTIONS,
  });
  const uncaught = (error: unknown) =>
    logger.error('uncaught exception', { detail: String(error) });
  const unhandled = (error: unknown) =>
    logger.error('unhandled rejection', { detail: String(error) });
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', unhandled);
  const listening = toDisposable(() => {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', unhandled);
  });
  return { logger, dispose: () => listening.dispose() };
}
