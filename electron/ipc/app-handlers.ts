/**
 * IPC handlers of the `app:` channels: what the page learns about the app, its logs folder, the
 * clipboard (one plain line: the contract's rule). No channel opens a link the page names: the
 * page has none to open (the update's download link is main's own: update-handlers.ts).
 */
import type { AppInfo } from '../../shared/ipc/contract';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import type { HandlersOf } from './ipc-main-bridge';

export interface AppHandlerDeps {
  readonly shell: Pick<ShellActions, 'openLogsFolder'>;
  /** Text to the system clipboard (Electron's clipboard in the app). */
  readonly copyText: (text: string) => void;
  /** The app's state now, read at each `app:getInfo` (it hands out one-time notices). */
  readonly info: () => AppInfo;
}

export function appHandlers(deps: AppHandlerDeps): HandlersOf<'app'> {
  return {
    'app:getInfo': () => deps.info(),
    'app:openLogs': async () => unwrap(await deps.shell.openLogsFolder()),
    'app:copyText': ({ text }) => deps.copyText(text),
  };
}
