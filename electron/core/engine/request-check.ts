/**
 * A generation request as the engine takes it: parsed with the wire schema, a refusal said as a
 * catalogue sentence (the schema's own words are English, for the CLI and the detail); the
 * number of tasks one submit makes; the board a submit puts its images into; and the request of
 * a task tracked by its id.
 */
import { TASKS_PER_ENGINE_SUBMIT, isWholeNumberIn } from '../../../shared/domain/limits';
import type { ProviderId } from '../../../shared/domain/providers';
import { checkBoardPath } from '../../../shared/domain/triage';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { paramSchemaOf } from '../../../shared/domain/model-param-schemas';
import { checkParams } from '../../../shared/domain/model-params';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { shownIssue } from '../../../shared/text/shown-name';
import { generationRequestSchema, type GenerationRequest } from '../../../shared/service/wire';
import type { CredentialsProvider } from '../../ports/credentials';
import { ServiceError, checkTypedTaskId, keysToFind, taskAddressProblem } from '../service';
import { EngineInputError } from './engine-types';

/**
 * The task id the user typed to track (TaskEngine.track: the window's "Track a task", the CLI's
 * `track`), checked before anything is read or written: a task id, carrying no key the process
 * holds (`credentials`' heldKeys once known, in any encoding: checkTypedTaskId). No key is sent
 * by typing an id, so every key held is looked for alike. A refusal is an EngineInputError with its sentence
 * (the window shows it, the CLI exits 2), which names neither the id nor a key.
 * @throws EngineInputError
 */
export async function typedTaskId(raw: string, credentials: CredentialsProvider): Promise<string> {
  // The keys once known (core/secrets/held-key-scrub.ts' rule): an id typed while a keychain
  // prompt is open waits for it, rather than going out unchecked.
  const held = credentials.heldKeys?.bind(credentials);
  const keys = await keysToFind('', held && (() => held(true)));
  try {
    return checkTypedTaskId(raw, keys);
  } catch (error) {
    if (error instanceof ServiceError && error.sentence) throw new EngineInputError(error.sentence);
    throw error;
  }
}

/** For TaskEngine.track: where the task id created elsewhere lives, the prompt to show, its model. */
export interface TrackOptions {
  readonly endpoint?: string;
  readonly prompt?: string;
  /** The model it was made with: fal finds a request only under its model's address. */
  readonly model?: string;
}

/** The request schema's own sentences (shared/service/wire.ts), as catalogue sentences. */
const REQUEST_PROBLEMS: Readonly<Record<string, Sentence>> = {
  'The prompt is empty.': sentence('error.library.promptEmpty'),
  'The prompt is too long.': sentence('error.library.promptTooLong'),
  'The size must look like 1024x1024 (two whole numbers).': sentence('error.library.sizeFormat'),
};

export function parseRequest(input: GenerationRequest): GenerationRequest {
  const parsed = generationRequestSchema().safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const known =
      issue && Object.hasOwn(REQUEST_PROBLEMS, issue.message)
        ? REQUEST_PROBLEMS[issue.message]
        : undefined;
    // The path can hold the request's own keys (an option's name, from a template or a record
    // another hand wrote): cleaned and bounded as a file's refusal is, never megabytes or escapes.
    const shown = known || !issue ? undefined : shownIssue(issue);
    throw new EngineInputError(known ?? sentence('error.library.requestInvalid'), {
      ...(shown ? { detail: `${shown.where ?? 'request'}: ${shown.problem}` } : {}),
    });
  }
  return parsed.data;
}

/**
 * The request's own options (`params`) checked against its model's schema on `provider`, before
 * anything is stored or sent: an option the model does not have, or a value it refuses, is one
 * sentence naming the option.
 * @throws EngineInputError with that sentence.
 */
export function checkRequestParams(request: GenerationRequest, provider: ProviderId): void {
  if (request.params === undefined) return;
  const model = request.model?.trim() ?? '';
  const checked = checkParams(paramSchemaOf(provider, model), model, request.params);
  if (!checked.ok) throw new EngineInputError(checked.problem, { code: 'bad_input' });
}

/**
 * `count` when one submit may make that many tasks.
 * @throws EngineInputError saying the range, from limits.ts.
 */
export function checkTaskCount(count: number): number {
  if (isWholeNumberIn(TASKS_PER_ENGINE_SUBMIT, count)) return count;
  const { min, max } = TASKS_PER_ENGINE_SUBMIT;
  throw new EngineInputError(
    sentence('error.library.taskCountRange', { min: String(min), max: String(max) }),
  );
}

/**
 * "Generate into": the board a submit names (the compose form's Board, the CLI's --board), as a
 * path. Checked here, before anything is stored or sent; the engine then has the library find it
 * by its key or make it when it has none of that path (its `boards`: Boards.ensure), and each
 * task keeps the path as stored (`TaskRecord.board`), which every image the task gets joins as it
 * is first recorded (answer-images.ts). With the library's boards (`stored`), the path is read as
 * one the library may hold: a board stored before the rule of what draws nothing
 * (`Clients\u200b`, offered as stored by the form's picker) is that board, and a name new to the
 * library is checked as given where the library makes it (Boards.create), with the same sentence.
 * @throws EngineInputError with the rule's sentence (an empty name, a forbidden character…).
 */
export function checkInto(raw: string, stored = false): string {
  const checked = checkBoardPath(raw, !stored);
  if (!checked.ok) throw new EngineInputError(checked.problem, { code: 'bad_input' });
  return checked.path;
}

/**
 * The request a task tracked by `taskId` is recorded with: the prompt given (or one that says
 * where the task came from) and the model it was made with.
 * @throws EngineInputError when `provider`'s service cannot find the task from that (fal's
 *   requests live under their model's address: no model, or one fal cannot take).
 */
export function trackedRequest(
  taskId: string,
  options: TrackOptions,
  provider: ProviderId | undefined,
): GenerationRequest {
  const model = options.model?.trim();
  const request: GenerationRequest = {
    prompt: options.prompt?.trim() || `Task ${taskId} (created outside Pictor)`,
    ...(model ? { model } : {}),
  };
  const problem = taskAddressProblem(provider, request);
  if (problem !== null) throw new EngineInputError(problem);
  return request;
}

/**
 * A tracked task the history has already, to resume: when its record names no model and
 * `options` does, the record learns it first through `engine.edit` (fal finds a request under its
 * model only). TaskEngine.track calls it only once the id passed typedTaskId, so an id that is
 * refused changes nothing. Returns the record's local id.
 */
export function learnTrackedModel(
  existing: TaskRecord,
  options: TrackOptions,
  engine: { edit(localId: string, change: (record: TaskRecord) => TaskRecord): unknown },
): string {
  const model = options.model?.trim();
  if (model && !existing.request.model?.trim()) {
    engine.edit(existing.localId, (record) => ({
      ...record,
      request: { ...record.request, model },
    }));
  }
  return existing.localId;
}
