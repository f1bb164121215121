/**
 * Replicate's predictions: `POST /v1/models/<owner>/<name>/predictions` with `{input}` answers
 * 201 with the prediction, whose `urls.get` and `urls.cancel` are absolute; its status goes
 * `starting → processing → succeeded | failed | canceled` (and `aborted`); `output` is a list of
 * file URLs, or one URL for some models; `input` echoes the input (its `seed`, when one was
 * given). Outputs are deleted an hour after the prediction ends.
 */
import { sentParams } from './request-params';
import { PROVIDERS } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { inputTask, withInputs } from './input-request';
import { modelParts, segment } from './model-id';
import { replicateInputSubmit } from './replicate-inputs';
import type { ProviderProfile } from './provider-profile';
import { modelOf, objectOf, readWord, sizeOf } from './provider-profile';
import { imageList } from './image-list';

const facts = PROVIDERS.replicate;

/** The aspect ratios FLUX models on Replicate take, as `w:h`. */
const RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];

/** The aspect ratio `request`'s size is sent as; undefined when it is none Replicate takes. */
export function aspectRatio(request: GenerationRequest): string | undefined {
  const size = sizeOf(request.size);
  if (!size) return undefined;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(size.width, size.height);
  const ratio = `${size.width / d}:${size.height / d}`;
  return RATIOS.includes(ratio) ? ratio : undefined;
}

/**
 * Replicate's safety check fails a prediction with an error that says so: its code E005 ("flagged
 * as sensitive"), or a model's own words (NSFW, safety checker, content policy).
 */
const MODERATION =
  /\(E005\)|\bflagged as sensitive\b|\bNSFW\b|safety (checker|filter)|content (policy|moderation)/i;

export const replicateProfile: ProviderProfile = {
  id: 'replicate',
  facts,
  authHeaders: (key) => ({ Authorization: `Bearer ${key}` }),
  regionalHosts: [],
  mediaHosts: ['.replicate.delivery', '.replicate.com'],
  statusWords: {
    starting: 'queued',
    processing: 'running',
    succeeded: 'succeeded',
    failed: 'failed',
    canceled: 'canceled',
    aborted: 'canceled',
  },
  answerStatuses: { submit: [200, 201, 202], poll: [200] },
  // Files a prediction (or a Cog server) returns inline come as `data:` URIs in `output`.
  inlineResults: 'poll',
  maxInFlight: null,
  // Replicate reports run time (`metrics.predict_time`), not money; its official image models
  // bill per image made, so a prediction that made none costs nothing.
  cost: { reportedIn: [], failed: 'not_billed', moderated: 'not_billed', canceled: 'not_billed' },
  submit(request, sent) {
    const [owner, name] = modelParts(modelOf(request, facts), facts.label, 2, 2);
    const withImages = withInputs(request);
    if (withImages) {
      const model = `${owner ?? ''}/${name ?? ''}`;
      return replicateInputSubmit(inputTask('replicate', model, withImages, sent));
    }
    const ratio = aspectRatio(request);
    const options = sentParams('replicate', `${owner ?? ''}/${name ?? ''}`, request);
    return {
      method: 'POST',
      target: `/v1/models/${owner}/${name}/predictions`,
      body: {
        input: { prompt: request.prompt, ...(ratio ? { aspect_ratio: ratio } : {}), ...options },
      },
    };
  },
  readSubmit(json) {
    const answer = objectOf(json);
    const urls = objectOf(answer['urls']);
    return {
      id: answer['id'],
      handles: { poll: urls['get'], cancel: urls['cancel'] },
      model: answer['model'],
    };
  },
  poll: (taskId, handles) => ({
    method: 'GET',
    target: handles.poll ?? `/v1/predictions/${segment(taskId)}`,
  }),
  // `Prefer: wait=<1..60>` holds the answer until the prediction ends or that many seconds
  // pass (Replicate's sync mode); a server that ignores it answers at once, and the poll after
  // it keeps the usual cadence.
  held: {
    answer: 'answer',
    request: (taskId, handles, _request, seconds) => ({
      method: 'GET',
      target: handles.poll ?? `/v1/predictions/${segment(taskId)}`,
      headers: { Prefer: `wait=${Math.min(60, Math.max(1, Math.floor(seconds)))}` },
    }),
  },
  readPoll(json) {
    const answer = objectOf(json);
    const read = readWord(this.statusWords, answer['status']);
    const error = answer['error'];
    const moderated =
      read.status === 'failed' && typeof error === 'string' && MODERATION.test(error);
    return {
      ...read,
      ...(moderated ? { status: 'moderated' as const } : {}),
      model: answer['model'],
      ...(error === null || error === undefined ? {} : { error }),
      // The prediction echoes its input: a seed is there when the input gave one (Pictor's
      // submits do not; a prediction made elsewhere and tracked may).
      ...(read.status === 'succeeded'
        ? { output: { data: imageList(answer['output']) }, seed: objectOf(answer['input'])['seed'] }
        : {}),
    };
  },
  cancel: (taskId, handles) => ({
    method: 'POST',
    target: handles.cancel ?? `/v1/predictions/${segment(taskId)}/cancel`,
  }),
  // The account the key belongs to: 200 with its `username`, 401 for a key Replicate refuses.
  keyProbe: {
    request: { method: 'GET', target: '/v1/account' },
    statuses: [200],
    read(json) {
      const username = objectOf(json)['username'];
      return typeof username === 'string' && username !== ''
        ? { accepted: true, detail: `Account: ${username}` }
        : { accepted: false };
    },
  },
};
