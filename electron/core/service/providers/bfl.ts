/**
 * Black Forest Labs: `POST /v1/<model>` with the key in `x-key` (at the global `api.bfl.ai` or a
 * regional `api.eu.bfl.ai`, `api.us.bfl.ai`, …) answers `id` and a `polling_url` on the region
 * that took the task, used as given; the result says `Pending`, `Ready` (with `result.sample`, a
 * signed link that lasts about 10 minutes, and `result.seed`), `Error`, `Request Moderated` or
 * `Content Moderated`; `Task not found` is kept polling (never called failed). At most 24
 * tasks run at once per key; no cancel.
 */
import { sentParams } from './request-params';
import { PROVIDERS } from '../../../../shared/domain/providers';
import { bflInputSubmit } from './bfl-inputs';
import { inputTask, withInputs } from './input-request';
import { modelParts, segment } from './model-id';
import type { ProviderProfile } from './provider-profile';
import { modelOf, objectOf, readWord, sizeOf } from './provider-profile';
import { imageList } from './image-list';

const facts = PROVIDERS.bfl;

/** BFL's progress is a fraction 0–1; Pictor's a percent. */
function percent(value: unknown): unknown {
  return typeof value === 'number' && value >= 0 && value <= 1 ? value * 100 : value;
}

export const bflProfile: ProviderProfile = {
  id: 'bfl',
  facts,
  authHeaders: (key) => ({ 'x-key': key }),
  // `polling_url` points at the region that took the task (api.eu.bfl.ai, api.us1.bfl.ai, …);
  // BFL adds regions as it adds clusters, so the host is a pattern, not a list.
  regionalHosts: ['https://api.*.bfl.ai'],
  mediaHosts: ['.bfl.ai', '.blob.core.windows.net'],
  statusWords: {
    Pending: 'running',
    Ready: 'succeeded',
    Error: 'failed',
    Failed: 'failed',
    'Request Moderated': 'moderated',
    'Content Moderated': 'moderated',
  },
  answerStatuses: { submit: [200], poll: [200] },
  maxInFlight: 24,
  // The submit answer says what the task costs in credits; a task that ends without an image
  // is not charged.
  cost: {
    reportedIn: ['submit answer'],
    read: (json) => {
      const cost = objectOf(json)['cost'];
      return cost === undefined ? undefined : { field: 'cost', amount: cost, unit: 'credits' };
    },
    failed: 'not_billed',
    moderated: 'not_billed',
    canceled: 'not_billed',
  },
  submit(request, sent) {
    const [model] = modelParts(modelOf(request, facts), facts.label, 1, 1);
    const withImages = withInputs(request);
    if (withImages) return bflInputSubmit(inputTask('bfl', model ?? '', withImages, sent));
    const size = sizeOf(request.size);
    const options = sentParams('bfl', model, request);
    return {
      method: 'POST',
      target: `/v1/${model}`,
      body: { prompt: request.prompt, ...size, ...options },
    };
  },
  readSubmit(json) {
    const answer = objectOf(json);
    return { id: answer['id'], handles: { poll: answer['polling_url'] } };
  },
  // The account's balance: 200 `{ credits }`, 403 for a key BFL refuses.
  keyProbe: {
    request: { method: 'GET', target: '/v1/credits' },
    statuses: [200],
    read(json) {
      const credits = objectOf(json)['credits'];
      return typeof credits === 'number' && Number.isFinite(credits)
        ? {
            accepted: true,
            detail: `Credits: ${credits}`,
            balance: { field: 'credits', amount: credits, unit: 'credits' },
          }
        : { accepted: false };
    },
  },
  poll: (taskId, handles) => ({
    method: 'GET',
    target: handles.poll ?? `/v1/get_result?id=${segment(taskId)}`,
  }),
  readPoll(json) {
    const answer = objectOf(json);
    const read = readWord(this.statusWords, answer['status']);
    const result = objectOf(answer['result']);
    const details = answer['details'];
    const ended = read.status === 'failed' || read.status === 'moderated';
    return {
      ...read,
      progress: percent(answer['progress']),
      ...(ended && details !== null && details !== undefined ? { error: details } : {}),
      ...(read.status === 'succeeded'
        ? { output: { data: imageList(result['sample']) }, seed: result['seed'] }
        : {}),
    };
  },
};
