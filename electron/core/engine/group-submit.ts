/**
 * The tasks of a compare (electron/core/compare/): several requests, each to its own target,
 * checked and made into records together, so the engine stores them all or none (priced, under
 * the spending caps) before anything is sent. Each is then sent on its own: one refused leaves
 * the others going (Submitter.runEach).
 */
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import type { CompareField } from '../../../shared/domain/compare';
import type { NewTaskRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { ServiceCredentials } from '../../ports/credentials';
import { sentence } from '../../../shared/i18n/sentence';
import { EngineInputError } from './engine-types';
import { withWorkflow } from './request-workflow';
import type { TaskEngineDeps } from './engine-types';
import { checkRequestParams, checkTaskCount, parseRequest } from './request-check';
import { checkTarget } from './target-check';

/** One request of a group: where it goes, how many tasks, and the compare they belong to. */
export interface GroupItem {
  readonly request: GenerationRequest;
  readonly target: SubmitTarget;
  readonly count: number;
  readonly compare: CompareField;
}

type MakeRecord = (
  credentials: Pick<ServiceCredentials, 'keyFingerprint' | 'provider'>,
  fields: Omit<NewTaskRecord, 'localId' | 'account' | 'provider'>,
) => TaskRecord;

/**
 * The records of `items`, every request and target checked first (a target without a key there
 * refuses the whole group: nothing is stored).
 * @throws EngineInputError for a request, count or target nothing can be sent for, or more tasks
 *   than one submit takes.
 */
export async function groupRecords(
  items: readonly GroupItem[],
  deps: Pick<TaskEngineDeps, 'credentials' | 'workflows'>,
  make: MakeRecord,
): Promise<TaskRecord[]> {
  const { credentials, workflows } = deps;
  const total = items.reduce((sum, item) => sum + checkTaskCount(item.count), 0);
  if (total < 1 || total > TASKS_PER_ENGINE_SUBMIT.max) {
    const { min, max } = TASKS_PER_ENGINE_SUBMIT;
    throw new EngineInputError(
      sentence('error.library.taskCountRange', { min: String(min), max: String(max) }),
    );
  }
  const records: TaskRecord[] = [];
  for (const item of items) {
    const { endpoint, credentials: found } = await checkTarget(credentials, item.target);
    const provider = found.provider ?? DEFAULT_PROVIDER;
    const request = await withWorkflow(parseRequest(item.request), provider, workflows);
    checkRequestParams(request, provider);
    const fields = { request, endpoint, origin: 'submitted', taskId: null } as const;
    for (let n = 0; n < item.count; n += 1) {
      records.push(make(found, { ...fields, compare: item.compare }));
    }
  }
  return records;
}
