/**
 * "Copy as command" (`tasks:copyCommand`): main builds the lines and puts them on the clipboard
 * itself, from the task's own record or from the form's draft (checked as a submit's request),
 * so the page never names the text that is pasted into a terminal (electron/core/service/
 * request-command.ts builds it; shared/text/shell-command.ts quotes every word so it holds no
 * control but its own new lines). The key is never read here: the lines say `$SERVICE_API_KEY`.
 */
import { ranRequest } from '../../shared/domain/ran-request';
import { recordTarget } from '../../shared/domain/submit-target';
import { sentence } from '../../shared/i18n/sentence';
import { EngineInputError, type TaskEngine } from '../core/engine';
import { commandText } from '../core/service';
import type { IpcHandlers } from './ipc-main-bridge';

export interface TaskCommandDeps {
  /** The task's record as main keeps it. */
  readonly engine: Pick<TaskEngine, 'get'>;
  /** Text to the system clipboard (Electron's clipboard in the app). */
  readonly copyText: (text: string) => void;
}

export function taskCommandHandlers(deps: TaskCommandDeps): Pick<IpcHandlers, 'tasks:copyCommand'> {
  return {
    'tasks:copyCommand': (input) => {
      if ('localId' in input) {
        const record = deps.engine.get(input.localId);
        if (!record) throw new EngineInputError(sentence('error.library.taskNotInHistory'));
        deps.copyText(commandText(recordTarget(record), ranRequest(record)));
      } else {
        deps.copyText(commandText(input.target, input.request));
      }
    },
  };
}
