/** `track <task-id>`: follow a task created elsewhere (its service's id) until it settles. */
import type { TaskRecord } from '../../shared/domain/task-record';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';
import type { PictorCore } from '../core/pictor-core';
import { taskAddressProblem } from '../core/service';
import { argumentsOf, required, type Values } from './cli-args';
import type { Command } from './cli-command';
import { declareLibraryCommand, type ReadLine } from './library-command';
import { RUN_OPTIONS, commandHelp } from './command-help';
import { common } from './common-args';
import { runOnService, watch } from './commands';
import { reachableService } from './service-args';

type Track = Command & { name: 'track' };

/**
 * --model of track: never the provider's default (a guess at where a task lives is no address),
 * checked as the address of the task is built from it.
 */
function trackModel(values: Values, provider: ProviderId): string | undefined {
  const model = values.model?.trim() || undefined;
  const problem = taskAddressProblem(provider, { prompt: 'track', ...(model ? { model } : {}) });
  if (problem === null) return model;
  const { label, defaultModel } = PROVIDERS[provider];
  // Not repeated: a stray value may be the key pasted in the wrong place.
  if (problem.key === 'error.service.taskNeedsModel') {
    throw new UsageError(
      `track --provider ${provider} needs --model M, the model the task was made with: ${englishText(problem)} (A model looks like ${defaultModel ?? 'owner/name'}.)`,
    );
  }
  throw new UsageError(
    `--model is not a model id ${label} takes: parts of letters, digits, ".", "_" and "-", separated by "/" (such as ${defaultModel ?? 'owner/name'}).`,
  );
}

function parseTrack({ values, positionals }: ReadLine, env: NodeJS.ProcessEnv): Track {
  const [taskId] = argumentsOf('track', positionals, 1);
  const id = required(taskId, 'track needs the task id to follow.');
  const service = reachableService(
    values,
    'track',
    'track needs --base-url URL (the service the task lives on), or --provider ID of a service with its own address.',
  );
  const model = trackModel(values, service.provider);
  return {
    name: 'track',
    taskId: id,
    service,
    ...(values.prompt ? { prompt: values.prompt } : {}),
    ...(model ? { model } : {}),
    common: common(values, env),
  };
}

/**
 * Follows a task by its id (TaskEngine.track: a task the history has already is resumed, its
 * record learning --model when it names none, once the id is checked).
 */
function trackTask(core: PictorCore, command: Track, endpoint: string): Promise<TaskRecord> {
  const { model, prompt } = command;
  return core.engine.track(command.taskId, {
    endpoint,
    ...(prompt ? { prompt } : {}),
    ...(model ? { model } : {}),
  });
}

const TRACK_HELP = commandHelp(
  `track <task-id> [--provider ID] [--base-url URL] [--model M] [--prompt TEXT]
                                  follow a task created elsewhere; --model is the model it was
                                  made with (fal needs it: its requests live under their model)`,
  RUN_OPTIONS,
);

export const track = declareLibraryCommand({
  name: 'track',
  help: TRACK_HELP,
  own: ['model', 'prompt'],
  parse: parseTrack,
  run: (command: Track, io) =>
    runOnService(command, io, async (run, credentials) => {
      run.core.engine.start({ resume: false });
      return await watch(run, [await trackTask(run.core, command, credentials.currentEndpoint())]);
    }),
});
