/**
 * What one submit to the engine stores and sends, all or none: one or more requests (a template's
 * prompts), each `count` times, into one board, from one template, as one batch. The single
 * submit ("Generate 3") is the case of one request.
 */
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import type { NewTaskRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTemplate } from '../../../shared/domain/task-template';
import { sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { ServiceCredentials } from '../../ports/credentials';
import { EngineInputError, type TaskEngineDeps } from './engine-types';
import { checkTarget } from './target-check';
import type { HardCapConsent } from './hard-cap-consent';
import { checkInto, checkRequestParams, checkTaskCount, parseRequest } from './request-check';
import { withWorkflow } from './request-workflow';

export interface SubmitBatch {
  /** The requests, in order; each becomes `count` tasks (its copies side by side). */
  readonly requests: readonly GenerationRequest[];
  /** Tasks per request, 1 or more; with the requests, at most the engine's limit (100). */
  readonly count: number;
  /** "Generate into": a board's path (request-check.ts `checkInto`). */
  readonly board?: string | undefined;
  /** The template the requests were expanded from, kept on every task. */
  readonly template?: TaskTemplate | undefined;
  /**
   * The user's consent to pass hard spending caps, made only by `askToPassHardCaps` after main
   * asked (hard-cap-consent.ts); anything else passes no cap.
   */
  readonly overHardCaps?: HardCapConsent | null;
}

/**
 * The batch's requests, parsed, once its size is within the engine's limit.
 * @throws EngineInputError for no request, a count out of range, more tasks than one submit may
 *   make, or a request nothing can be sent for.
 */
function checkedRequests(batch: SubmitBatch): GenerationRequest[] {
  checkTaskCount(batch.count);
  const tasks = batch.requests.length * batch.count;
  if (batch.requests.length === 0 || tasks > TASKS_PER_ENGINE_SUBMIT.max) {
    const { min, max } = TASKS_PER_ENGINE_SUBMIT;
    throw new EngineInputError(
      sentence('error.library.taskCountRange', { min: String(min), max: String(max) }),
    );
  }
  return batch.requests.map(parseRequest);
}

/**
 * The records of one submit, each request's `count` copies side by side, every one stamped with
 * the batch's id (the first task's local id), so the history shows them as one group, and with its
 * place in the batch (the history's order does not keep the order they were made in). A submit of
 * one task is no batch and stays unstamped.
 */
export function batchRecords(
  requests: readonly GenerationRequest[],
  count: number,
  make: (request: GenerationRequest) => TaskRecord,
): TaskRecord[] {
  const records = requests.flatMap((request) => Array.from({ length: count }, () => make(request)));
  const batchId = records[0]?.localId;
  if (records.length < 2 || batchId === undefined) return records;
  return records.map((record, batchIndex) => ({ ...record, batchId, batchIndex }));
}

/** The fields every task of the batch shares besides its request. */
type BatchFields = Omit<NewTaskRecord, 'localId' | 'account' | 'provider' | 'request'>;

/**
 * Everything a batch's records are made of, checked before anything is stored: its requests, the
 * target's credentials (target-check.ts), the board (made now when the library has none) and the
 * template.
 * @throws EngineInputError (see {@link checkedRequests}, checkInto, checkTarget); the library's
 *   refusal of a new board.
 */
export async function batchFields(
  batch: SubmitBatch,
  target: SubmitTarget,
  deps: Pick<TaskEngineDeps, 'credentials' | 'boards' | 'workflows'>,
): Promise<{
  requests: GenerationRequest[];
  credentials: ServiceCredentials;
  fields: BatchFields;
}> {
  const checked = checkedRequests(batch);
  const path = batch.board === undefined ? undefined : checkInto(batch.board, !!deps.boards);
  const { endpoint, credentials } = await checkTarget(deps.credentials, target);
  const provider = credentials.provider ?? DEFAULT_PROVIDER;
  const requests: GenerationRequest[] = [];
  for (const request of checked) {
    requests.push(await withWorkflow(request, provider, deps.workflows));
    checkRequestParams(request, provider);
  }
  const into = path === undefined ? {} : { board: deps.boards?.ensure(path) ?? path };
  const from = batch.template === undefined ? {} : { template: batch.template };
  const fields = { endpoint, origin: 'submitted', taskId: null, ...into, ...from } as const;
  return { requests, credentials, fields };
}
