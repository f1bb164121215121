/** `track <task-id>`: follow a task created elsewhere (its service's id) until it settles. */
import type { TaskRecord } from '../../shared/domain/task-record';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';
import type { PictorCore } from '../core/pictor-core';
import { redactRefusedTrack, refusedForKeyInId } from '../core/batch';
import { heldKeyScrubber } from '../core/secrets';
import { taskAddressProblem } from '../core/service';
import type { CredentialsProvider } from '../ports/credentials';
import type { CliIo } from './cli-io';
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

/**
 * A task the history kept under an id that carries a key the process holds (stored before typed
 * ids were checked: TaskEngine.track refuses such an id now, before touching its record) keeps
 * that key in plaintext wherever its id was written. Refusing to track it again is not enough:
 * its id is redacted as the log redacts a key, in the history, the cost ledger and every file
 * made from the record (its pictor.json and its images' metadata: core/batch/kept-key-id.ts), so
 * the library no longer holds the key and the task can never be polled with it; the history
 * zeroes the row's old bytes (sqlite-connection.ts, secure_delete). Said on stderr by the
 * record's local id (Pictor's own, no key in it), never its id. Found under the id as typed and
 * as the check trims it, at `endpoint` or any other.
 */
async function redactKeptRecord(
  run: { readonly core: PictorCore; readonly io: CliIo },
  typed: string,
  endpoint: string,
  credentials: Pick<CredentialsProvider, 'heldKeys'>,
): Promise<void> {
  const { core, io } = run;
  const scrub = await heldKeyScrubber(credentials.heldKeys?.bind(credentials));
  const deps = { records: core.engine, gallery: core.gallery, history: core.history };
  const kept = await redactRefusedTrack(deps, typed, endpoint, scrub);
  if (kept === null) return;
  io.stderr(
    `The library's task ${kept.localId} was kept under that id before ids were checked: its id held the key, ` +
      'and now holds "[redacted]" in its place (the task can no longer be followed; its prompt, images and costs stay).\n',
  );
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
      const endpoint = credentials.currentEndpoint();
      try {
        return await watch(run, [await trackTask(run.core, command, endpoint)]);
      } catch (error) {
        if (refusedForKeyInId(error))
          await redactKeptRecord({ core: run.core, io }, command.taskId, endpoint, credentials);
        throw error;
      }
    }),
});
