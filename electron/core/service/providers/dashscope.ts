/**
 * Alibaba Cloud DashScope (Model Studio) text-to-image: the submit needs
 * `X-DashScope-Async: enable` and answers `output.task_id` with `task_status` `PENDING`; the
 * task at `/api/v1/tasks/<id>` goes `PENDING | RUNNING | SUSPENDED → SUCCEEDED | FAILED |
 * CANCELED`, `UNKNOWN` for a task it does not know (kept polling: never called failed); results
 * are `output.results[].url`, an image that failed is `{code, message}` in its place. Result
 * addresses last 24 hours.
 */
import { sentParams } from './request-params';
import { PROVIDERS } from '../../../../shared/domain/providers';
import { dashscopeInputSubmit } from './dashscope-inputs';
import { inputTask, withInputs } from './input-request';
import { modelParts, segment } from './model-id';
import type { ProviderProfile } from './provider-profile';
import { modelOf, objectOf, readWord, sizeOf } from './provider-profile';
import { imageList } from './image-list';

const facts = PROVIDERS.dashscope;

/** The error codes DashScope gives a task its content checks stopped. */
const MODERATION = /^(DataInspectionFailed|IPInfringementSuspect|DataInspection)/;

export const dashscopeProfile: ProviderProfile = {
  id: 'dashscope',
  facts,
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  regionalHosts: [],
  mediaHosts: ['.aliyuncs.com'],
  statusWords: {
    PENDING: 'queued',
    SUSPENDED: 'queued',
    RUNNING: 'running',
    SUCCEEDED: 'succeeded',
    FAILED: 'failed',
    CANCELED: 'canceled',
  },
  answerStatuses: { submit: [200], poll: [200] },
  maxInFlight: null,
  // DashScope counts the images it made (`usage.image_count`), not money; a failed task is not
  // charged.
  cost: { reportedIn: [], failed: 'not_billed', moderated: 'not_billed', canceled: 'not_billed' },
  submit(request, sent) {
    const [model] = modelParts(modelOf(request, facts), facts.label, 1, 1);
    const withImages = withInputs(request);
    if (withImages) {
      return dashscopeInputSubmit(inputTask('dashscope', model ?? '', withImages, sent));
    }
    const size = sizeOf(request.size);
    // DashScope keeps the negative prompt with the prompt, every other option in `parameters`.
    const { negative_prompt: negative, ...options } = sentParams('dashscope', model, request);
    return {
      method: 'POST',
      target: '/api/v1/services/aigc/text2image/image-synthesis',
      headers: { 'X-DashScope-Async': 'enable' },
      body: {
        model,
        input: {
          prompt: request.prompt,
          ...(negative === undefined ? {} : { negative_prompt: negative }),
        },
        parameters: { n: 1, ...(size ? { size: `${size.width}*${size.height}` } : {}), ...options },
      },
    };
  },
  readSubmit(json) {
    const output = objectOf(objectOf(json)['output']);
    return { id: output['task_id'], handles: {} };
  },
  poll: (taskId) => ({ method: 'GET', target: `/api/v1/tasks/${segment(taskId)}` }),
  readPoll(json) {
    const output = objectOf(objectOf(json)['output']);
    const read = readWord(this.statusWords, output['task_status']);
    const code = output['code'];
    const error =
      code === undefined && output['message'] === undefined
        ? undefined
        : { code, message: output['message'] };
    const moderated = read.status === 'failed' && typeof code === 'string' && MODERATION.test(code);
    return {
      ...read,
      ...(moderated ? { status: 'moderated' as const } : {}),
      ...(error === undefined ? {} : { error }),
      ...(read.status === 'succeeded' ? { output: { data: imageList(output['results']) } } : {}),
    };
  },
  cancel: (taskId) => ({ method: 'POST', target: `/api/v1/tasks/${segment(taskId)}/cancel` }),
  // The account's task list (read only), one entry at most: 200 with `request_id` and `data`,
  // 401 `InvalidApiKey` for a key DashScope refuses.
  keyProbe: {
    request: { method: 'GET', target: '/api/v1/tasks/?page_no=1&page_size=1' },
    statuses: [200],
    read(json) {
      const answer = objectOf(json);
      const listed = Array.isArray(answer['data']) || typeof answer['request_id'] === 'string';
      return { accepted: listed };
    },
  },
  errorKind(status, json) {
    const code = objectOf(json)['code'];
    if (typeof code !== 'string') return undefined;
    if (code === 'Arrearage') return 'credits';
    if (code.startsWith('Throttling')) return 'rate_limited';
    if (code === 'InvalidApiKey') return 'auth';
    return status === 404 ? 'not_found' : undefined;
  },
};
