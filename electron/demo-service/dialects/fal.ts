/**
 * fal's queue API (docs.fal.ai, "Queue"): `POST /<model-id>` answers a request id and the URLs
 * of its status, response and cancel; the client polls the status URL, then reads the response.
 *
 * Documented, and followed here:
 * - `Authorization: Key <key>`; submit answers `{ request_id, response_url, status_url,
 *   cancel_url, queue_position }`, whose URLs name only the model id's first two segments
 *   (`fal-ai/flux/schnell` polls under `fal-ai/flux/requests/<id>`).
 * - Status `IN_QUEUE` (with `queue_position`), `IN_PROGRESS` (with `logs`), `COMPLETED`; a failed
 *   request also reads `COMPLETED` and its response URL carries the error.
 * - `GET <status_url>/stream`: the status as server-sent events (`data:` the status object), the
 *   stream closed after COMPLETED. Here the answer is held until the request ends (or a minute)
 *   and then carries the status when it was opened and the last one.
 * - `PUT cancel_url` answers 202 `{ status: 'CANCELLATION_REQUESTED' }`, or 400
 *   `{ status: 'ALREADY_COMPLETED' }` once done.
 * - Validation errors are FastAPI's 422 `{ detail: [{ loc, msg, type }] }`, the content policy
 *   one with `type: 'content_policy_violation'`.
 * - The response: `{ images: [{ url, width, height, content_type }], seed, has_nsfw_concepts,
 *   prompt, timings }`; an upscaler's is one image, `{ image: { url, width, height,
 *   content_type }, seed, timings }` (fal's client types, ClarityUpscalerOutput).
 *
 * Chosen here (not spelled out by the docs): status 202 while queued or in progress and 200
 * when completed; the response URL before completion is 400 `{ detail: 'Request is still in
 * progress' }`; a canceled request reads `COMPLETED` and its response is 400 `{ detail:
 * 'Request was cancelled' }`; a failed one 500 `{ detail }`; an unknown request id 404
 * `{ detail: 'Request not found' }`; a wrong key 401 `{ detail }`; no credits 402 `{ detail }`
 * (the public service locks the user with a 403 instead); a rate limit 429 `{ detail }` with
 * `Retry-After`; the unknown status word is `IN_PROGRESS_V2`. With the `inlineResults` option the
 * response carries each image as a `data:` URL in `images[].url`, as fal answers a request made
 * in sync mode.
 */
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { holdWhileRunning } from './held-wait';
import { validateGenerationRequest } from '../request-validation';
import type { StoredTask } from '../task-store';
import type { Dialect, DialectCall, DialectImage, DialectKit, DialectMatch } from './dialect';
import {
  acceptedRequest,
  AuthorizationDialect,
  failureMessage,
  isReply,
  jsonObject,
  objectOf,
} from './dialect';
import { askedSeed } from './asked-seed';
import { inlineEntries } from '../inline-images';
import { FAL_INITIATE, falInitiate } from './fal-storage';
import { falInputModerated, falInputSubmit } from './fal-inputs';
import { capabilitiesOf } from '../../../shared/domain/model-capabilities';
import { falPublishedSchema } from './published-schemas';

/** fal's per-model OpenAPI (public: fal.ai serves it without a key). */
const FAL_OPENAPI = '/api/openapi/queue/openapi.json';
const IMAGE_SIZES: Record<string, [number, number]> = {
  square_hd: [1024, 1024],
  square: [512, 512],
  portrait_4_3: [768, 1024],
  portrait_16_9: [576, 1024],
  landscape_4_3: [1024, 768],
  landscape_16_9: [1024, 576],
};
const MAX_IMAGES = 4;
/** The models whose response is one `image`, not `images[]` (their output schemas). */
const SINGLE_IMAGE_MODELS: ReadonlySet<string> = new Set(['fal-ai/clarity-upscaler']);
const REQUESTS = /^\/([^/]+)\/([^/]+)\/requests\/([^/]+)(\/status\/stream|\/status|\/cancel)?$/;
/** The longest the status stream stays open before it closes with the status as it is. */
const STREAM_HOLD_MS = 60_000;
const MODEL_PATH = /^\/[^/]+\/[^/]+(\/[^/]+)?$/;

function detail(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return jsonReply(status, { detail: message }, headers);
}

function invalid(field: string, msg: string, type: string, status = 422): Reply {
  return jsonReply(status, { detail: [{ loc: ['body', field], msg, type }] });
}

type Size = { width: number; height: number } | Reply;

function sizeOf(value: unknown, maxSide: number): Size {
  if (value === undefined) return { width: 1024, height: 768 };
  if (typeof value === 'string') {
    const size = IMAGE_SIZES[value];
    if (size) return { width: size[0], height: size[1] };
    const names = Object.keys(IMAGE_SIZES).join("', '");
    return invalid('image_size', `Input should be '${names}'`, 'enum');
  }
  const custom = objectOf(value);
  const { width, height } = custom ?? {};
  const fits = (side: unknown): side is number =>
    typeof side === 'number' && Number.isInteger(side) && side >= 1 && side <= maxSide;
  if (fits(width) && fits(height)) return { width, height };
  return invalid(
    'image_size',
    `Input should be a valid ImageSize with whole width and height from 1 to ${maxSide}`,
    'model_type',
  );
}

/** fal's queue API; see the file comment for what is documented and what was chosen. */
class FalDialect extends AuthorizationDialect implements Dialect {
  protected override readonly scheme = /^Key +(\S+) *$/;

  private readonly account = (call: DialectCall): string | Reply => {
    const found = this.kit.accountForKey(this.keyOf(call.headers));
    if (found) return found;
    return detail(401, 'Authentication is required. Send "Authorization: Key <your key>".');
  };
  private readonly requestUrls = (task: StoredTask): Record<string, string> => {
    const [owner, app] = task.model.split('/');
    const base = `${this.kit.linkBase()}/${owner}/${app}/requests/${task.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  };

  private readonly submit = (call: DialectCall): Reply | Promise<Reply> => {
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    if (this.kit.throttled()) {
      return detail(429, 'Rate limit exceeded. Try again later.', { 'Retry-After': '1' });
    }
    const body = jsonObject(call.body);
    if (!body) return invalid('body', 'Input should be a valid dictionary', 'dict_type');
    const caps = capabilitiesOf('fal', call.pathname.slice(1));
    if (caps) return this.inputs(who, { model: call.pathname.slice(1), caps, body });
    const prompt = body.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return invalid('prompt', 'Field required', 'missing');
    }
    const size = sizeOf(body.image_size, this.kit.ctx.options.maxImageSide);
    if (isReply(size)) return size;
    const count = body.num_images ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_IMAGES) {
      return invalid('num_images', `Input should be a whole number from 1 to ${MAX_IMAGES}`, 'int');
    }
    const model = call.pathname.slice(1);
    const checked = validateGenerationRequest(
      { prompt, model, size: `${size.width}x${size.height}` },
      this.kit.ctx.options.maxImageSide,
    );
    if (!checked.ok) return invalid('prompt', checked.problem.message, 'value_error');
    if (!this.kit.charge(who)) {
      return detail(402, 'Exhausted balance. Top up your balance at the billing page.');
    }
    const request = acceptedRequest(prompt, model, size.width, size.height);
    return this.submitted(this.kit.create(who, request, { imageCount: count, input: body }));
  };

  /** An image model's submit (fal-inputs.ts). */
  private readonly inputs = async (
    who: string,
    request: Parameters<typeof falInputSubmit>[2],
  ): Promise<Reply> => {
    const made = await falInputSubmit(this.kit, who, request);
    return isReply(made) ? made : this.submitted(made);
  };

  private readonly submitted = (task: StoredTask): Reply =>
    jsonReply(200, {
      request_id: task.id,
      ...this.requestUrls(task),
      queue_position: this.kit.queuePosition(task),
    });

  private readonly ownTask = (call: DialectCall, owner: string, app: string, id: string) => {
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const task = this.kit.task(id, who);
    const prefix = task?.model.split('/').slice(0, 2).join('/');
    if (!task || task.account !== who || prefix !== `${owner}/${app}`) {
      return detail(404, 'Request not found');
    }
    return task;
  };

  private readonly status = (task: StoredTask): Reply => {
    const { response_url } = this.requestUrls(task);
    if (this.kit.statusReadIsUnknown(task)) {
      return jsonReply(202, { status: 'IN_PROGRESS_V2', response_url, logs: [] });
    }
    const phase = this.kit.phase(task);
    if (phase === 'queued') {
      return jsonReply(202, {
        status: 'IN_QUEUE',
        queue_position: this.kit.queuePosition(task),
        response_url,
      });
    }
    if (phase === 'running') {
      const logs = [
        {
          message: 'Generating image',
          timestamp: new Date(this.kit.ctx.options.now()).toISOString(),
        },
      ];
      return jsonReply(202, { status: 'IN_PROGRESS', logs, response_url });
    }
    const seconds = ((task.completedAt ?? task.completesAt) - task.createdAt) / 1000;
    return jsonReply(200, {
      status: 'COMPLETED',
      response_url,
      logs: null,
      metrics: { inference_time: seconds },
    });
  };

  /**
   * The status stream: held until the request ends (or {@link STREAM_HOLD_MS}), then the status
   * when it was opened and the last one as events; the stream closes after them.
   */
  private readonly stream = async (
    first: StoredTask,
    call: DialectCall,
    owner: string,
    app: string,
  ): Promise<Reply> => {
    const { id } = first;
    const opened = this.status(first);
    const find = () => {
      const task = this.ownTask(call, owner, app, id);
      return isReply(task) ? undefined : task;
    };
    const task = await holdWhileRunning(this.kit, find, STREAM_HOLD_MS);
    if (!task) return detail(404, 'Request not found');
    const events = [opened, this.status(task)].map((reply) => `data: ${reply.body.toString()}\n\n`);
    return {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' },
      body: Buffer.from(events.join('')),
    };
  };

  private readonly response = (task: StoredTask): Reply | Promise<Reply> => {
    switch (this.kit.phase(task)) {
      case 'queued':
      case 'running':
        return detail(400, 'Request is still in progress');
      case 'canceled':
        return detail(400, 'Request was cancelled');
      case 'moderated':
        if (this.kit.moderationOf(task) === 'input') return falInputModerated(failureMessage(task));
        return jsonReply(422, {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The content could not be processed because it violates the content policy.',
              type: 'content_policy_violation',
            },
          ],
        });
      case 'failed':
        return detail(500, failureMessage(task));
      case 'succeeded':
        return this.kit.ctx.options.inlineResults === null
          ? this.result(task, this.kit.images(task))
          : this.inlineResult(task);
    }
  };

  /** The images in the answer itself, as a request made in sync mode gets them. */
  private readonly inlineResult = async (task: StoredTask): Promise<Reply> => {
    const inline = await inlineEntries(this.kit.ctx, task);
    const images = this.kit.images(task).map((image, index) => {
      const entry = inline[index];
      return { ...image, url: entry && 'url' in entry ? entry.url : image.url };
    });
    return this.result(task, images);
  };

  private readonly result = (task: StoredTask, images: readonly DialectImage[]): Reply => {
    const described = images.map(({ url, width, height, contentType }) => ({
      url,
      width,
      height,
      content_type: contentType,
    }));
    const timings = {
      inference: ((task.completedAt ?? task.completesAt) - task.createdAt) / 1000,
    };
    const seed = askedSeed(this.kit, task);
    if (SINGLE_IMAGE_MODELS.has(task.model)) {
      return jsonReply(200, { image: described[0] ?? null, seed, timings });
    }
    return jsonReply(200, {
      images: described,
      timings,
      seed,
      has_nsfw_concepts: task.images.map(() => false),
      prompt: task.prompt,
    });
  };

  private readonly cancel = (task: StoredTask): Reply =>
    this.kit.cancel(task)
      ? jsonReply(202, { status: 'CANCELLATION_REQUESTED' })
      : jsonReply(400, { status: 'ALREADY_COMPLETED' });

  /** A request of the key's account only. */
  private readonly signedIn =
    (then: (call: DialectCall, account: string) => Reply) =>
    (call: DialectCall): Reply => {
      const who = this.account(call);
      return typeof who === 'string' ? then(call, who) : who;
    };

  readonly match = (method: string, pathname: string, query: URLSearchParams): DialectMatch => {
    if (method === 'GET' && pathname === FAL_OPENAPI) {
      return { route: 'schema', answer: () => falPublishedSchema(query.get('endpoint_id')) };
    }
    if (pathname === FAL_INITIATE) {
      return {
        route: 'other',
        answer: this.signedIn((call, who) => falInitiate(this.kit, call, who)),
      };
    }
    const [, owner, app, id, tail] = REQUESTS.exec(pathname) ?? [];
    if (owner && app && id) {
      const verb = tail === '/cancel' ? 'PUT' : 'GET';
      const route = tail === '/cancel' ? 'cancel' : 'poll';
      return {
        route,
        taskId: id,
        answer: (call) => {
          if (call.method !== verb) return detail(405, 'Method Not Allowed');
          const task = this.ownTask(call, owner, app, id);
          if (isReply(task)) return task;
          if (tail === '/status/stream') return this.stream(task, call, owner, app);
          return tail === '/status'
            ? this.status(task)
            : tail === '/cancel'
              ? this.cancel(task)
              : this.response(task);
        },
      };
    }
    if (method === 'POST' && capabilitiesOf('fal', pathname.slice(1))) {
      return { route: 'submit', carriesImages: true, answer: this.submit };
    }
    if (method === 'POST' && MODEL_PATH.test(pathname))
      return { route: 'submit', answer: this.submit };
    return { route: 'other', answer: () => detail(404, 'Not Found') };
  };
}

/** Fal's interface (a class so each answer is a small method). */
export function falDialect(kit: DialectKit): Dialect {
  return new FalDialect(kit);
}
