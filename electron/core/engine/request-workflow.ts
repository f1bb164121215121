/**
 * The workflow a request runs, for a provider whose models are workflows (ComfyUI): the one
 * imported under its model's name (core/workflows), found before anything is stored, so the
 * record keeps the graph it ran and a resend runs it again even if the import changes (one that
 * did not keep it is refused: {@link ranRequestOf}). The built-in model needs none; a request of
 * any other provider carries none.
 */
import { DEFAULT_WORKFLOW_MODEL } from '../../../shared/domain/comfy-prompt';
import { PROVIDERS, providerOf, type ProviderId } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import type { LiveState } from '../../../shared/domain/live-state';
import { isUnfinished, type TaskRecord } from '../../../shared/domain/task-record';
import type { GenerationRequest } from '../../../shared/service/wire';
import { EngineInputError, type EngineWorkflows } from './engine-types';

/**
 * `request` with the workflow its model names attached.
 * @throws EngineInputError when its model names no imported workflow (nothing is sent).
 */
export async function withWorkflow(
  request: GenerationRequest,
  provider: ProviderId,
  workflows: EngineWorkflows | undefined,
): Promise<GenerationRequest> {
  const facts = PROVIDERS[provider];
  if (facts.modelsAreWorkflows !== true) {
    if (request.workflow === undefined) return request;
    const { workflow: _dropped, ...rest } = request;
    return rest;
  }
  const model = request.model?.trim() || facts.defaultModel || '';
  if (request.workflow !== undefined || model === DEFAULT_WORKFLOW_MODEL) return request;
  const workflow = await workflows?.lookup(model);
  if (workflow === undefined) {
    const named = { model: model.slice(0, 80), service: facts.label };
    throw new EngineInputError(sentence('error.providerInputs.workflowMissing', named), {
      code: 'bad_input',
    });
  }
  return { ...request, workflow };
}

/**
 * `record`'s request to send again: with the graph it ran, which it keeps (a ComfyUI workflow is
 * attached before the task is stored). A record without one (a task tracked by id, rebuilt from a
 * gallery folder or kept by an older Pictor) is refused rather than sent with the workflow
 * imported under its model's name now, which may not be the one it ran.
 * @throws EngineInputError for such a record (nothing is sent).
 */
export function ranRequestOf(record: TaskRecord): GenerationRequest {
  const { request } = record;
  const facts = PROVIDERS[providerOf(record)];
  if (facts.modelsAreWorkflows !== true || request.workflow !== undefined) return request;
  const model = request.model?.trim() || facts.defaultModel || '';
  if (model === DEFAULT_WORKFLOW_MODEL) return request;
  throw new EngineInputError(
    sentence('error.providerInputs.workflowNotKept', { model: model.slice(0, 80) }),
    { code: 'bad_input' },
  );
}

/**
 * A task as the page gets it: its record without the ComfyUI graph its request ran (up to
 * 512 KiB, which a page of such tasks would carry across IPC for nothing: the page names models,
 * never graphs, wire.ts pageRequestSchema; main reads the graph from the history to send again),
 * and its live state while it is unfinished.
 */
export function pageItem(
  record: TaskRecord,
  live: (localId: string) => LiveState | null,
): { readonly record: TaskRecord; readonly live: LiveState | null } {
  const state = isUnfinished(record) ? live(record.localId) : null;
  if (record.request.workflow === undefined) return { record, live: state };
  const { workflow: _kept, ...request } = record.request;
  return { record: { ...record, request }, live: state };
}
