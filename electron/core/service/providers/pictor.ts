/** Today's contract (docs/SERVICE.md): the default profile, and what every other one maps onto. */
import { sentParams } from './request-params';
import { PROVIDERS } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { taskPath } from '../task-id';
import type { RawCost } from '../../../../shared/domain/task-cost';
import { inputTask, withInputs } from './input-request';
import { pictorInputSubmit } from './pictor-inputs';
import type { ProviderProfile } from './provider-profile';
import { modelOf, objectOf, readWord } from './provider-profile';
import { imageList, type ImageEntry } from './image-list';

/** The header through which a service of today's contract may say a task's cost: `0.04 USD`. */
const COST_HEADER = 'x-usage-cost';

/**
 * The cost a contract answer states (docs/SERVICE.md, "Costs"): `usage.cost` (a number or a
 * decimal string, in `usage.currency`, USD when absent; or `{ amount, currency }`),
 * `usage.credits`, `usage.cost_usd_micros`, or the `X-Usage-Cost` header (`<amount> [<unit>]`).
 */
function contractCost(json: unknown, header: (name: string) => string | null): RawCost | undefined {
  const usage = objectOf(objectOf(json)['usage']);
  const cost = usage['cost'];
  if (typeof cost === 'object' && cost !== null) {
    const { amount, currency } = objectOf(cost);
    return { field: 'usage.cost.amount', amount, unit: currency ?? 'USD' };
  }
  if (cost !== undefined)
    return { field: 'usage.cost', amount: cost, unit: usage['currency'] ?? 'USD' };
  if (usage['credits'] !== undefined)
    return { field: 'usage.credits', amount: usage['credits'], unit: 'credits' };
  const micros = usage['cost_usd_micros'];
  if (micros !== undefined)
    return { field: 'usage.cost_usd_micros', amount: micros, unit: 'USD', inMicros: true };
  const said = header(COST_HEADER);
  if (said === null) return undefined;
  const [amount, unit] = said.trim().split(/\s+/, 3);
  return { field: `header ${COST_HEADER}`, amount, unit: unit ?? 'USD' };
}

/**
 * The contract's `output.data`: each entry as the service wrote it (its `url`, or an OpenAI-style
 * `b64_json` that core/service/inline-answer.ts reads), a lone entry or link as a list of one.
 */
function contractImages(data: unknown): ImageEntry[] {
  return imageList(data, (entry) => entry);
}

/** An id no service will have: asking for it tells whether the service is there and takes the key. */
export const PROBE_TASK_ID = 'pictor-connection-test';

/**
 * The contract's "no such task" (docs/SERVICE.md): a 404 whose JSON body has an `error`, a
 * sentence or an object (`{ code, message }`). A web page, an empty body or another API's
 * `{ "detail": … }` is not it.
 */
function noSuchTask(json: unknown): boolean {
  const error = objectOf(json)['error'];
  if (typeof error === 'string') return error.trim() !== '';
  return typeof error === 'object' && error !== null && !Array.isArray(error);
}

/** The submit body: only the spec's fields, absent or empty optional ones left out. */
function contractBody(request: GenerationRequest): Record<string, unknown> {
  // Only what the model page's schema lists, if Pictor has one for it (none shipped).
  const body: Record<string, unknown> = sentParams('pictor', request.model?.trim(), request);
  for (const field of ['model', 'prompt', 'size', 'quality'] as const) {
    const value = request[field];
    if (typeof value === 'string' && value.trim() !== '') body[field] = value;
  }
  return body;
}

export const pictorProfile: ProviderProfile = {
  id: 'pictor',
  facts: PROVIDERS.pictor,
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  regionalHosts: [],
  mediaHosts: [],
  statusWords: { processing: 'running', completed: 'succeeded', failed: 'failed' },
  answerStatuses: { submit: [200], poll: [200] },
  // The spec leaves the task's other fields open: an OpenAI-style `b64_json` or a `data:` URL
  // in `output.data[]` is read as the image itself (core/service/inline-answer.ts).
  inlineResults: 'poll',
  maxInFlight: null,
  // The contract does not say which failures are billed: a task is when the service said it cost.
  cost: {
    reportedIn: ['submit answer', 'task answer', 'header'],
    read: contractCost,
    failed: 'as_reported',
    moderated: 'as_reported',
    canceled: 'as_reported',
  },
  submit(request, sent) {
    const withImages = withInputs(request);
    if (withImages) {
      const model = modelOf(request, PROVIDERS.pictor) ?? '';
      return pictorInputSubmit(inputTask('pictor', model, withImages, sent));
    }
    return { method: 'POST', target: '/v1/images/generations', body: contractBody(request) };
  },
  readSubmit: (json) => {
    const answer = objectOf(json);
    return { id: answer['id'], handles: {}, model: answer['model'] };
  },
  // A task id no one has: its "no such task" says the service is there, and the same question
  // refused without a key says it looked at the key.
  keyProbe: {
    request: { method: 'GET', target: taskPath(PROBE_TASK_ID) },
    statuses: [404],
    read: (json) => ({ accepted: noSuchTask(json) }),
    refusedWithoutKey: true,
  },
  poll: (taskId) => ({ method: 'GET', target: taskPath(taskId) }),
  // The answer as it is: its `seed` (not in the spec, docs/SERVICE.md) is the task's own field;
  // `output.data` read as every profile's images are (one entry, or one link, is a list of one).
  readPoll(json) {
    const answer = objectOf(json);
    const output = answer['output'];
    const data = objectOf(output)['data'];
    return {
      ...answer,
      ...readWord(this.statusWords, answer['status']),
      ...(data === undefined
        ? {}
        : { output: { ...objectOf(output), data: contractImages(data) } }),
    };
  },
};
