/**
 * fal.ai's queue API: `POST /<model id>` answers with a `request_id` and absolute `status_url`,
 * `response_url` and `cancel_url`; the status says `IN_QUEUE` (with `queue_position`),
 * `IN_PROGRESS` or `COMPLETED`, with 202 until it is done; the result, or how the task failed, is
 * behind `response_url` (its `images[].url`, or one `image.url` for an upscaler, and the `seed`
 * used). The key goes as `Authorization: Key <key>`. A request's own addresses use the model
 * id's first two parts (`fal-ai/flux`, not `fal-ai/flux/schnell`): a task known by its id alone
 * (tracked, imported) is found only with the model it was made with.
 */
import { PROVIDERS } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { describeServiceError } from '../../../../shared/service/wire';
import { sentence } from '../../../../shared/i18n/sentence';
import { ServiceError } from '../service-error';
import { falInputSubmit } from './fal-inputs';
import { inputTask, withInputs } from './input-request';
import { modelParts, segment } from './model-id';
import type { ProviderProfile, TaskReading } from './provider-profile';
import { modelOf, objectOf, readWord, sizeOf } from './provider-profile';
import { imagesIn } from './image-list';
import { sentParams } from './request-params';

const facts = PROVIDERS.fal;

/** A request id of fal's shape (a UUID) that no request has: for the key check. */
const PROBE_REQUEST_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The app part of the model a request was made with: where its addresses live. Never the
 * default model: a guess that is wrong asks about another app, whose "no such request" would end
 * a task that is still running.
 * @throws ServiceError of kind `config` when the request names no model, or an unusable one.
 */
function appPath(request: GenerationRequest): string {
  const model = request.model?.trim() ?? '';
  if (model === '') {
    throw new ServiceError({
      kind: 'config',
      message: sentence('error.service.taskNeedsModel', { service: facts.label }),
      mayHaveReachedService: false,
    });
  }
  return modelParts(model, facts.label, 2, 4).slice(0, 2).join('/');
}

function requestPath(taskId: string, request: GenerationRequest): string {
  return `/${appPath(request)}/requests/${segment(taskId)}`;
}

/** The status stream of a status address: `<status address>/stream`, its query kept. */
function streamOf(status: string): string {
  const query = status.indexOf('?');
  return query === -1
    ? `${status}/stream`
    : `${status.slice(0, query)}/stream${status.slice(query)}`;
}

/** How a task ended, from the error fal returns for it (the result's body, or the status's). */
function endedWith(error: unknown, type: unknown): TaskReading {
  const said = describeServiceError(error);
  const types = Array.isArray(error)
    ? error.map((entry) => objectOf(entry)['type'])
    : [type, objectOf(error)['type']];
  if (types.some((entry) => entry === 'content_policy_violation')) {
    return { status: 'moderated', error };
  }
  if (/\bcancel+ed\b/i.test(said)) return { status: 'canceled', error };
  return { status: 'failed', error };
}

export const falProfile: ProviderProfile = {
  id: 'fal',
  facts,
  authHeaders: (key) => ({ Authorization: `Key ${key}` }),
  regionalHosts: [],
  mediaHosts: ['.fal.media', '.fal.ai', '.fal.run'],
  statusWords: { IN_QUEUE: 'queued', IN_PROGRESS: 'running', COMPLETED: 'succeeded' },
  answerStatuses: { submit: [200, 201, 202], poll: [200, 202], resultEnded: [400, 422, 500] },
  // A request made in sync mode answers its images as `data:` URLs in `images[].url`.
  inlineResults: 'result',
  maxInFlight: null,
  // fal bills successful requests; its `x-fal-billable-units` header counts units of a price
  // list Pictor does not read, so a task's cost is the user's estimate.
  cost: { reportedIn: [], failed: 'not_billed', moderated: 'not_billed', canceled: 'not_billed' },
  submit(request, sent) {
    const parts = modelParts(modelOf(request, facts), facts.label, 2, 4);
    const withImages = withInputs(request);
    if (withImages) {
      const path = parts.join('/');
      return falInputSubmit(inputTask('fal', path, withImages, sent), path);
    }
    const size = sizeOf(request.size);
    const options = sentParams('fal', parts.join('/'), request);
    return {
      method: 'POST',
      target: `/${parts.join('/')}`,
      body: {
        prompt: request.prompt,
        num_images: 1,
        ...(size ? { image_size: size } : {}),
        ...options,
      },
    };
  },
  readSubmit(json) {
    const answer = objectOf(json);
    return {
      id: answer['request_id'],
      handles: {
        poll: answer['status_url'],
        result: answer['response_url'],
        cancel: answer['cancel_url'],
      },
    };
  },
  poll: (taskId, handles, request) => ({
    method: 'GET',
    target: handles.poll ?? `${requestPath(taskId, request)}/status`,
  }),
  // Status events (`data:` a status answer) until COMPLETED, after which fal closes the stream;
  // a comment line every 15 s keeps it open. Its address is the status address's `/stream`.
  held: {
    answer: 'events',
    request: (taskId, handles, request) => ({
      method: 'GET',
      target: streamOf(handles.poll ?? `${requestPath(taskId, request)}/status`),
      headers: { Accept: 'text/event-stream' },
    }),
  },
  readPoll(json) {
    const answer = objectOf(json);
    const read = readWord(this.statusWords, answer['status']);
    const error = answer['error'];
    if (read.status === 'succeeded' && error !== undefined && error !== null) {
      return { ...endedWith(error, answer['error_type']), word: read.word ?? '' };
    }
    return {
      ...read,
      queuePosition: answer['queue_position'],
      ...(read.status === 'succeeded' ? { fetchResult: true } : {}),
    };
  },
  result: (taskId, handles, request) => ({
    method: 'GET',
    target: handles.result ?? requestPath(taskId, request),
  }),
  readResult(json, status) {
    const answer = objectOf(json);
    if (status !== 200) {
      const detail = answer['detail'];
      // A result asked for too early: the task is still running.
      if (status === 400 && /in progress/i.test(describeServiceError(detail))) {
        return { status: 'running' };
      }
      // fal's own words (`detail`, or `error` as its status answer has it); a reason anywhere
      // else is the common fallback's (failure-reason.ts).
      return endedWith(detail ?? answer['error'], answer['error_type']);
    }
    return {
      status: 'succeeded',
      // `images[]` for most models, one `image` for the upscalers (ClarityUpscalerOutput).
      output: imagesIn(answer, ['images', 'image']),
      // The seed it used: the one asked for, or the one it drew (its models' output schemas).
      seed: answer['seed'],
    };
  },
  cancel: (taskId, handles, request) => ({
    method: 'PUT',
    target: handles.cancel ?? `${requestPath(taskId, request)}/cancel`,
  }),
  // fal has no account endpoint on its queue host, so the key is checked as today's contract's
  // is: the status of a request no one has (the default model's app, an id of fal's shape). The
  // queue scopes a request to the key that made it, so it must know whose key it is before it
  // can say "no such request": its 404 (FastAPI's `{ detail }`) means the key was taken, 401/403
  // that it was not. Reasoned, not documented: another FastAPI service's 404 reads the same, so
  // the key counts as taken only when the same request without it is refused.
  keyProbe: {
    request: { method: 'GET', target: `/fal-ai/flux/requests/${PROBE_REQUEST_ID}/status` },
    statuses: [404],
    read: (json) => ({ accepted: objectOf(json)['detail'] !== undefined }),
    refusedWithoutKey: true,
  },
};
