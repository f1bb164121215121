/** IPC handlers of the `updates:` channels: the page asks; the update service decides. */
import type { UpdateState } from '../../shared/domain/update-state';
import { sentence } from '../../shared/i18n/sentence';
import { UserFacingError } from '../core/errors';
import { toDisposable, type Disposable } from '../ports/disposable';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import type { HandlersOf } from './ipc-main-bridge';

/** What the handlers use of the update service (app/updates/update-service.ts). */
export interface UpdatesControl {
  state(): UpdateState;
  onDidChange(listener: (state: UpdateState) => void): Disposable;
  checkNow(): Promise<UpdateState>;
  download(): Promise<UpdateState>;
  restart(): void;
  /** The version on offer's download, for a copy that cannot install it; else null. */
  downloadLink(): string | null;
}

/** Where nothing updates (the test harnesses, which run no packaged app): says so, does nothing. */
export const noUpdates: UpdatesControl = {
  state: () => ({ status: 'unavailable', reason: 'development', canInstall: false }),
  onDidChange: () => toDisposable(() => undefined),
  checkNow: () => Promise.resolve(noUpdates.state()),
  download: () => Promise.resolve(noUpdates.state()),
  restart: () => undefined,
  downloadLink: () => null,
};

export function updateHandlers(
  updates: UpdatesControl,
  shell: Pick<ShellActions, 'openExternal'>,
): HandlersOf<'updates'> {
  return {
    'updates:getState': () => updates.state(),
    'updates:check': () => updates.checkNow(),
    'updates:download': () => updates.download(),
    'updates:restart': () => updates.restart(),
    'updates:openDownload': async () => {
      const link = updates.downloadLink();
      if (link === null) {
        throw new UserFacingError(sentence('error.settings.noUpdateDownload'), {
          code: 'bad_input',
        });
      }
      // The port opens https links on the allow-list only (adapters/shell-actions.ts openLink).
      unwrap(await shell.openExternal(link)); // eng-disable OPEN_EXTERNAL_JS_CHECK (main's own link from the feed; the port checks https and the allow-list)
    },
  };
}
