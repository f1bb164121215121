/**
 * "Copy as command" (`tasks:copyCommand`): main builds the lines and puts them on the clipboard
 * itself, from the task's own record or from the form's draft (checked as a submit's request),
 * so the page never names the text that is pasted into a terminal (electron/core/service/
 * request-command.ts builds it; shared/text/shell-command.ts quotes every word so it holds no
 * control but its own new lines). The key is never read here: the lines say `$SERVICE_API_KEY`.
 * A draft's service is the form's: a built-in demo, or the address Settings gives that service;
 * any other address is refused, so a compromised page cannot leave on the clipboard, unasked, a
 * cURL line that would carry the key in the user's shell to its own server. The lines are for the
 * platform's shell (PowerShell on Windows, where a prompt with a line break or another control
 * is given escaped: shared/text/prompt-escapes.ts); one Windows cannot carry (such a character in
 * a model or an option) is refused with a sentence, never copied changed.
 */
import type { ProviderId } from '../../shared/domain/providers';
import type { GenerationRequest } from '../../shared/service/wire';
import { ranRequest } from '../../shared/domain/ran-request';
import { isDemoEndpoint, recordTarget, type SubmitTarget } from '../../shared/domain/submit-target';
import { sentence } from '../../shared/i18n/sentence';
import {
  EngineInputError,
  type EngineWorkflows,
  type TaskEngine,
  withWorkflow,
} from '../core/engine';
import { withTextsScrubbed } from '../core/batch';
import { UserFacingError } from '../core/errors';
import { commandText } from '../core/service';
import { commandShellOf, type CommandShell } from '../../shared/text/command-words';
import { UnwritableCommand } from '../../shared/text/windows-command';
import type { IpcHandlers } from './ipc-main-bridge';
import type { PictorCore } from '../core/pictor-core';

export interface TaskCommandDeps {
  /** The task's record as main keeps it. */
  readonly engine: Pick<TaskEngine, 'get'>;
  /**
   * A key-carrying task id's scrubber (PictorCore.keptIdScrubber): the lines of a task kept under
   * such an id before the sweep cleaned it (a tracked task's prompt holds its id) are copied with
   * every held key scrubbed out. Absent: none is.
   */
  readonly keptIdScrubber?: PictorCore['keptIdScrubber'];
  /** Text to the system clipboard (Electron's clipboard in the app). */
  readonly copyText: (text: string) => void;
  /** The address Settings gives `provider`'s service now (its own when none is typed). */
  readonly addressOf: (provider: ProviderId) => string;
  /**
   * The workflows imported as models (ComfyUI's): a draft's lines carry the graph imported
   * under its model's name, as its submit would (engine/request-workflow.ts); the page names a
   * model, never a graph (wire.ts pageRequestSchema).
   */
  readonly workflows?: EngineWorkflows;
  /** The shell the lines are for; default: this platform's (commandShellOf). */
  readonly shell?: CommandShell;
}

const withoutSlash = (address: string): string => address.trim().replace(/\/+$/, '');

/** The form's target: a demo, or the address Settings gives its service; else refused. */
function formTarget(deps: TaskCommandDeps, target: SubmitTarget): SubmitTarget {
  if (isDemoEndpoint(target.endpoint)) return target;
  const own = withoutSlash(deps.addressOf(target.provider));
  if (own !== '' && withoutSlash(target.endpoint) === own) return target;
  throw new UserFacingError(sentence('error.library.badRequest'), {
    code: 'bad_input',
    detail: 'the command names an address Settings does not give that service',
  });
}

/** The lines for `deps`' shell, or the sentence that says why none can be written. */
function linesFor(deps: TaskCommandDeps, target: SubmitTarget, request: GenerationRequest): string {
  try {
    return commandText(target, request, deps.shell ?? commandShellOf(process.platform));
  } catch (error) {
    if (!(error instanceof UnwritableCommand)) throw error;
    throw new UserFacingError(sentence('error.library.commandHasControls'), {
      code: 'bad_input',
      detail: 'the request holds a control character no Windows command line carries',
    });
  }
}

/** The core's parts the handlers read: its records, and its key-carrying ids' scrubber. */
export function commandCore(
  core: Pick<PictorCore, 'engine' | 'keptIdScrubber'>,
): Pick<TaskCommandDeps, 'engine' | 'keptIdScrubber'> {
  return { engine: core.engine, keptIdScrubber: core.keptIdScrubber };
}

export function taskCommandHandlers(deps: TaskCommandDeps): Pick<IpcHandlers, 'tasks:copyCommand'> {
  return {
    'tasks:copyCommand': async (input) => {
      if ('localId' in input) {
        const record = deps.engine.get(input.localId);
        if (!record) throw new EngineInputError(sentence('error.library.taskNotInHistory'));
        // Made from the record as the sweep will leave it, quoted after (a cut inside quotes
        // could break them).
        const scrub = await deps.keptIdScrubber?.(record.taskId);
        const ran = scrub ? withTextsScrubbed(record, scrub) : record;
        deps.copyText(linesFor(deps, recordTarget(ran), ranRequest(ran)));
      } else {
        const target = formTarget(deps, input.target);
        const request = await withWorkflow(input.request, target.provider, deps.workflows);
        deps.copyText(linesFor(deps, target, request));
      }
    },
  };
}
