/**
 * ComfyUI (docs.comfy.org, "Server routes"): a local engine, no key (a Bearer key only behind a
 * proxy that asks for one). `POST /prompt` `{ prompt: <API-format graph>, client_id }` answers
 * `{ prompt_id, number, node_errors }`; `GET /history/<prompt_id>` is `{}` until the prompt ran,
 * then `{ <prompt_id>: { outputs: { <node>: { images: [{ filename, subfolder, type }] } },
 * status: { status_str, completed, messages } } }`; images are `GET /view?filename=&subfolder=&type=`
 * (root-relative here, resolved against the address by the client); a queued prompt is removed by
 * `POST /queue { delete: [id] }`, a running one stopped by `POST /interrupt`. The graph is the
 * model's workflow (comfy-workflow.ts) with the request's values in its mapped inputs.
 */
import {
  DEFAULT_WORKFLOW,
  DEFAULT_WORKFLOW_MODEL,
  promptGraph,
} from '../../../../shared/domain/comfy-prompt';
import type { ComfyWorkflow } from '../../../../shared/domain/comfy-workflow';
import { PROVIDERS } from '../../../../shared/domain/providers';
import { sentence } from '../../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { MAX_HISTORY_ENTRIES } from '../answer-limits';
import { ServiceError } from '../service-error';
import { COMFY_STATUS_WORDS, historyEntry, readHistory } from './comfyui-history';
import { segment } from './model-id';
import type { ProviderProfile, QueuePlace, SentInputs } from './provider-profile';
import { modelOf, objectOf, sizeOf } from './provider-profile';

const facts = PROVIDERS.comfyui;

/** ComfyUI draws no seed itself: a workflow keeps the one it was saved with. */
const MAX_SEED = 2 ** 32 - 1;

function refuse(
  key: 'error.providerInputs.workflowMissing' | 'error.providerInputs.noImages',
  model: string,
): never {
  throw new ServiceError({
    kind: 'config',
    message: sentence(key, { model: model.slice(0, 80), service: facts.label }),
    mayHaveReachedService: false,
  });
}

/** The workflow `request` runs: its own, or the built-in graph for the default model. */
function workflowOf(request: GenerationRequest): ComfyWorkflow {
  if (request.workflow) return request.workflow;
  const model = modelOf(request, facts) ?? '';
  if (model === DEFAULT_WORKFLOW_MODEL) return DEFAULT_WORKFLOW;
  return refuse('error.providerInputs.workflowMissing', model);
}

/** A seed given among the options, when it is one. */
function seedParam(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The graph of `request`, its values in the workflow's mapped inputs. */
function comfyGraph(request: GenerationRequest, sent?: SentInputs): unknown {
  const workflow = workflowOf(request);
  const size = sizeOf(request.size);
  const params = request.params ?? {};
  const negative = params['negative_prompt'];
  const steps = params['steps'];
  if (request.inputs && (workflow.map.image === undefined || sent === undefined))
    refuse('error.providerInputs.noImages', modelOf(request, facts) ?? '');
  return promptGraph(workflow, {
    prompt: request.prompt,
    seed: request.seed ?? seedParam(params['seed']) ?? Math.floor(Math.random() * MAX_SEED),
    ...(typeof negative === 'string' ? { negative } : {}),
    ...(typeof steps === 'number' ? { steps } : {}),
    ...(size ? { width: size.width, height: size.height } : {}),
    ...(request.inputs && sent ? { image: sent.source } : {}),
  });
}

/** The prompt ids of a queue list (`[number, prompt_id, …]` each), in the queue's order. */
function promptIds(list: unknown): { number: number; id: unknown }[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, 10_000)
    .flatMap((item: unknown) =>
      Array.isArray(item) && typeof item[0] === 'number' ? [{ number: item[0], id: item[1] }] : [],
    );
}

/** Where `GET /queue` puts `taskId`: running now, or how many wait before it. */
function queuePlace(json: unknown, taskId: string): QueuePlace | undefined {
  const queue = objectOf(json);
  if (promptIds(queue['queue_running']).some((item) => item.id === taskId))
    return { running: true };
  const pending = promptIds(queue['queue_pending']);
  const mine = pending.find((item) => item.id === taskId);
  if (mine === undefined) return undefined;
  return { ahead: pending.filter((item) => item.number < mine.number).length };
}

export const comfyuiProfile: ProviderProfile = {
  id: 'comfyui',
  facts,
  // No key at all for a local ComfyUI; a proxy in front of it may ask for a Bearer key.
  authHeaders: (key): Record<string, string> =>
    key === '' ? {} : { Authorization: `Bearer ${key}` },
  // `/view` is a route of the same server: a proxy that asks a key for one asks it for all.
  imagesTakeKey: true,
  regionalHosts: [],
  mediaHosts: [],
  statusWords: COMFY_STATUS_WORDS,
  answerStatuses: { submit: [200], poll: [200] },
  maxInFlight: null,
  // The user's own machine: nothing is billed.
  cost: { reportedIn: [], failed: 'not_billed', moderated: 'not_billed', canceled: 'not_billed' },
  submit: (request, sent) => ({
    method: 'POST',
    target: '/prompt',
    body: { prompt: comfyGraph(request, sent), client_id: globalThis.crypto.randomUUID() },
  }),
  readSubmit: (json) => ({ id: objectOf(json)['prompt_id'], handles: {} }),
  poll: (taskId) => ({ method: 'GET', target: `/history/${segment(taskId)}` }),
  readPoll: (json, taskId) => readHistory(json, taskId),
  ownAnswer: (json, taskId) => historyEntry(json, taskId),
  listEntries: MAX_HISTORY_ENTRIES,
  // Removed from the queue if it waits there (nothing happens otherwise), then interrupted if it
  // runs: `/interrupt` with a `prompt_id` stops only that prompt.
  cancel: (taskId) => [
    { method: 'POST', target: '/queue', body: { delete: [taskId] } },
    { method: 'POST', target: '/interrupt', body: { prompt_id: taskId } },
  ],
  queue: { request: { method: 'GET', target: '/queue' }, read: queuePlace },
  // The queue (read only): `{ queue_running, queue_pending }`.
  keyProbe: {
    request: { method: 'GET', target: '/queue' },
    statuses: [200],
    read(json) {
      const answer = objectOf(json);
      return {
        accepted: Array.isArray(answer['queue_running']) && Array.isArray(answer['queue_pending']),
      };
    },
  },
};
