/** IPC handlers of the `app:` channels: what the page learns about the app, links, logs, clipboard. */
import type { AppInfo } from '../../shared/ipc/contract';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import type { HandlersOf } from './ipc-main-bridge';

export interface AppHandlerDeps {
  readonly shell: Pick<ShellActions, 'openExternal' | 'openLogsFolder'>;
  /** Text to the system clipboard (Electron's clipboard in the app). */
  readonly copyText: (text: string) => void;
  /** The app's state now, read at each `app:getInfo` (it hands out one-time notices). */
  readonly info: () => AppInfo;
}

export function appHandlers(deps: AppHandlerDeps): HandlersOf<'app'> {
  return {
    'app:getInfo': () => deps.info(),
    // The port opens https links on the allow-list only (adapters/shell-actions.ts openLink).
    'app:openExternal': async ({ url }) => unwrap(await deps.shell.openExternal(url)), // eng-disable OPEN_EXTERNAL_JS_CHECK (the port checks: https and the allow-list)
    'app:openLogs': async () => unwrap(await deps.shell.openLogsFolder()),
    'app:copyText': ({ text }) => deps.copyText(text),
  };
}
