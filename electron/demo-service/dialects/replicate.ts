/**
 * Replicate's predictions API (replicate.com/docs/reference/http): a prediction is created for
 * an official model and read back until it has finished.
 *
 * Documented, and followed here:
 * - `Authorization: Bearer <key>`; `POST /v1/models/<owner>/<name>/predictions` with
 *   `{ input: { prompt, aspect_ratio?, num_outputs? } }` answers 201 with the prediction
 *   `{ id, model, version, input, logs, output, data_removed, error, status, created_at, urls }`.
 * - `GET urls.get` answers the same object; status `starting → processing → succeeded | failed |
 *   canceled`; `output` is an array of file URLs (a single URL string for some models: here the
 *   ones named `*-single`); `error` a string; `metrics.predict_time`, `started_at`, `completed_at`.
 * - `POST urls.cancel` answers 200 with the prediction.
 * - Errors are problem details `{ title?, detail, status }`: 401 Unauthenticated, 402
 *   Insufficient credit, 422 Input validation failed (with `invalid_fields`), 429 throttled with
 *   `Retry-After`. A flagged input or output fails with error code E005.
 * - Output files are deleted an hour after the prediction (use `--image-ttl 3600000`).
 * - `GET /v1/account` answers the key's account `{ type, username, name, github_url }`.
 *
 * Chosen here: a prediction is `starting` for the first third of its time; canceling a finished
 * prediction answers 200 with it unchanged; an unknown id is 404 `{ title: 'Not found', detail,
 * status }`; `version` is a hash of the model name (the upscaler's, the version it was run by); `urls.stream` is given but not served;
 * the unknown status word is `booting`.
 * - `Prefer: wait=<1..60>` (Replicate's sync mode, documented for the create) is honoured on a
 *   prediction's read: the answer is held until the prediction ends or that many seconds pass.
 *   The create is always asynchronous.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { holdWhileRunning, preferWait } from './held-wait';
import { validateGenerationRequest } from '../request-validation';
import type { StoredTask } from '../task-store';
import type { Dialect, DialectCall, DialectKit, DialectMatch } from './dialect';
import { replicateFile, replicateUpload } from './replicate-files';
import { replicatePublishedModel } from './published-schemas';
import { ESRGAN, ESRGAN_VERSION, isEsrganVersion, replicateInputCreate } from './replicate-inputs';
import type { ModelCapabilities } from '../../../shared/domain/model-capabilities';
import { capabilitiesOf } from '../../../shared/domain/model-capabilities';
import {
  acceptedRequest,
  AuthorizationDialect,
  failureMessage,
  isoTime,
  isReply,
  jsonBody,
  jsonObject,
  objectOf,
} from './dialect';

/** A model, with its latest version's input schema. */
const MODEL = /^\/v1\/models\/([^/]+)\/([^/]+)$/;
const CREATE = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/;
const FILE = /^\/v1\/files\/([0-9a-f]+)$/;
const PREDICTION = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/;
/** FLUX's sizes at one megapixel, per aspect ratio. */
const ASPECT_RATIOS: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1344, 768],
  '21:9': [1536, 640],
  '3:2': [1216, 832],
  '2:3': [832, 1216],
  '4:5': [896, 1088],
  '5:4': [1088, 896],
  '3:4': [896, 1152],
  '4:3': [1152, 896],
  '9:16': [768, 1344],
  '9:21': [640, 1536],
};
const MAX_OUTPUTS = 4;
const MODERATION_ERROR =
  'The input or output was flagged as sensitive. Please try again with different inputs. (E005)';

const INPUT_MODERATION_ERROR =
  'The input image was flagged as sensitive. Please try again with a different image. (E005)';

function problem(status: number, fields: Record<string, unknown>, headers = {}): Reply {
  return jsonReply(status, { ...fields, status }, headers);
}

function invalidInput(field: string, description: string): Reply {
  return problem(422, {
    title: 'Input validation failed',
    detail: `- ${field}: ${description}\n`,
    invalid_fields: [{ type: 'invalid', field, description }],
  });
}

/** Replicate's ids: 26 characters of lower-case base32. */
function predictionId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

interface ReplicateInput {
  prompt: string;
  width: number;
  height: number;
  count: number;
}

function parseInput(body: unknown): ReplicateInput | Reply {
  const input = objectOf(objectOf(body)?.input);
  if (!input) return invalidInput('input', 'input is required');
  const { prompt, aspect_ratio: ratio = '1:1', num_outputs: count = 1 } = input;
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return invalidInput('input.prompt', 'prompt is required');
  }
  const size = typeof ratio === 'string' ? ASPECT_RATIOS[ratio] : undefined;
  if (!size) {
    const allowed = Object.keys(ASPECT_RATIOS).join(', ');
    return invalidInput('input.aspect_ratio', `aspect_ratio must be one of: ${allowed}`);
  }
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_OUTPUTS) {
    return invalidInput('input.num_outputs', `num_outputs must be from 1 to ${MAX_OUTPUTS}`);
  }
  return { prompt, width: size[0], height: size[1], count };
}

/** Replicate's predictions; see the file comment for what is documented and what was chosen. */
class ReplicateDialect extends AuthorizationDialect implements Dialect {
  private readonly account = (call: DialectCall): string | Reply =>
    this.kit.accountForKey(this.keyOf(call.headers)) ??
    problem(401, {
      title: 'Unauthenticated',
      detail: 'You did not pass a valid authentication token',
    });

  private readonly statusWord = (task: StoredTask, unknown: boolean): string => {
    if (unknown) return 'booting';
    const phase = this.kit.phase(task);
    if (phase === 'queued') return 'starting';
    if (phase === 'running') return 'processing';
    if (phase === 'moderated') return 'failed';
    return phase;
  };

  private readonly prediction = (task: StoredTask, unknown = false): Record<string, unknown> => {
    const get = `${this.kit.linkBase()}/v1/predictions/${task.id}`;
    const status = this.statusWord(task, unknown);
    const phase = this.kit.phase(task);
    const body: Record<string, unknown> = {
      id: task.id,
      model: task.model,
      version:
        task.model === ESRGAN
          ? ESRGAN_VERSION
          : createHash('sha256').update(task.model).digest('hex'),
      input: this.kit.input(task),
      logs: phase === 'queued' ? '' : 'Generating image\n',
      output: null,
      data_removed: false,
      error: null,
      status,
      created_at: isoTime(task.createdAt),
      urls: { get, cancel: `${get}/cancel`, stream: `${this.kit.linkBase()}/v1/files/${task.id}` },
    };
    if (phase !== 'queued') body.started_at = isoTime(task.createdAt);
    const finished = task.status !== 'processing' && !unknown;
    if (!finished) return body;
    const end = task.completedAt ?? task.completesAt;
    body.completed_at = isoTime(end);
    body.metrics = {
      predict_time: (end - task.createdAt) / 1000,
      total_time: (end - task.createdAt) / 1000,
    };
    if (phase === 'succeeded') {
      const urls = this.kit.images(task).map((image) => image.url);
      const single = task.model.endsWith('-single') || capabilitiesOf('replicate', task.model);
      body.output = single ? (urls[0] ?? null) : urls;
    }
    if (phase === 'failed') body.error = failureMessage(task);
    if (phase === 'moderated') {
      body.error =
        this.kit.moderationOf(task) === 'input' ? INPUT_MODERATION_ERROR : MODERATION_ERROR;
    }
    return body;
  };

  private readonly create = (call: DialectCall, model: string): Reply | Promise<Reply> => {
    if (call.method !== 'POST') return problem(405, { detail: 'Method not allowed.' });
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    if (this.kit.throttled()) {
      return problem(
        429,
        { detail: 'Request was throttled. Expected available in 1 second.' },
        { 'Retry-After': '1' },
      );
    }
    const caps = capabilitiesOf('replicate', model);
    if (caps) return this.inputs(call, who, model, caps);
    const input = parseInput(jsonBody(call.body));
    if (isReply(input)) return input;
    const size = `${input.width}x${input.height}`;
    const checked = validateGenerationRequest(
      { prompt: input.prompt, model, size },
      this.kit.ctx.options.maxImageSide,
    );
    if (!checked.ok) return invalidInput('input.prompt', checked.problem.message);
    if (!this.kit.charge(who)) {
      return problem(402, {
        title: 'Insufficient credit',
        detail:
          'You have insufficient credit to run this model. Go to the billing page to buy more.',
      });
    }
    const request = acceptedRequest(input.prompt, model, input.width, input.height);
    const task = this.kit.create(who, request, {
      id: predictionId(),
      imageCount: input.count,
      input: jsonObject(call.body)?.input,
    });
    return jsonReply(201, this.prediction(task));
  };

  /** An image model's prediction (replicate-inputs.ts). */
  private readonly inputs = async (
    call: DialectCall,
    who: string,
    model: string,
    caps: ModelCapabilities,
  ): Promise<Reply> => {
    const input = objectOf(jsonObject(call.body)?.input);
    if (!input) return invalidInput('input', 'input is required');
    const made = await replicateInputCreate(this.kit, who, {
      model,
      caps,
      input,
      id: predictionId(),
    });
    return isReply(made) ? made : jsonReply(201, this.prediction(made));
  };

  /** `POST /v1/predictions`: a community model by version (here the upscaler only). */
  private readonly byVersion = (call: DialectCall): Reply | Promise<Reply> => {
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    if (isEsrganVersion(jsonObject(call.body)?.version)) return this.create(call, ESRGAN);
    return invalidInput('version', 'Invalid version or not permitted.');
  };

  private readonly read = (
    call: DialectCall,
    id: string,
    cancel: boolean,
  ): Reply | Promise<Reply> => {
    const expected = cancel ? 'POST' : 'GET';
    if (call.method !== expected) return problem(405, { detail: 'Method not allowed.' });
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const task = this.kit.task(id, who);
    if (!task || task.account !== who) {
      return problem(404, {
        title: 'Not found',
        detail: 'The requested resource could not be found.',
      });
    }
    if (cancel) {
      this.kit.cancel(task);
      return jsonReply(200, this.prediction(task));
    }
    const wait = preferWait(call.headers);
    if (wait !== undefined) return this.held(task.id, who, wait);
    return jsonReply(200, this.prediction(task, this.kit.statusReadIsUnknown(task)));
  };

  /** A read held until the prediction ends or `seconds` pass (`Prefer: wait`), then answered. */
  private readonly held = async (id: string, who: string, seconds: number): Promise<Reply> => {
    const task = await holdWhileRunning(this.kit, () => this.kit.task(id, who), seconds * 1000);
    if (!task)
      return problem(404, {
        title: 'Not found',
        detail: 'The requested resource could not be found.',
      });
    return jsonReply(200, this.prediction(task, this.kit.statusReadIsUnknown(task)));
  };

  /** `GET /v1/account`: the account the key belongs to (Pictor's key check). */
  private readonly accountOf = (call: DialectCall): Reply => {
    if (call.method !== 'GET') return problem(405, { detail: 'Method not allowed.' });
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    return jsonReply(200, { type: 'user', username: who, name: who, github_url: null });
  };

  /** A request of the key's account only. */
  private readonly signedIn =
    (then: (call: DialectCall, account: string) => Reply) =>
    (call: DialectCall): Reply => {
      const who = this.account(call);
      return typeof who === 'string' ? then(call, who) : who;
    };

  readonly match = (_method: string, pathname: string): DialectMatch => {
    if (pathname === '/v1/account') return { route: 'other', answer: this.accountOf };
    const [, modelOwner, modelName] = MODEL.exec(pathname) ?? [];
    if (modelOwner && modelName) {
      return {
        route: 'schema',
        answer: this.signedIn(() => replicatePublishedModel(modelOwner, modelName)),
      };
    }
    if (pathname === '/v1/files') {
      return {
        route: 'other',
        carriesImages: true,
        answer: this.signedIn((call, who) =>
          call.method === 'POST'
            ? replicateUpload(this.kit, call, who)
            : problem(405, { detail: 'Method not allowed.' }),
        ),
      };
    }
    const [, file] = FILE.exec(pathname) ?? [];
    if (file) {
      return {
        route: 'other',
        answer: this.signedIn((call, who) => replicateFile(this.kit, call, who, file)),
      };
    }
    const [, owner, name] = CREATE.exec(pathname) ?? [];
    if (owner && name) {
      const carriesImages = capabilitiesOf('replicate', `${owner}/${name}`) !== null;
      return {
        route: 'submit',
        carriesImages,
        answer: (call) => this.create(call, `${owner}/${name}`),
      };
    }
    if (pathname === '/v1/predictions') {
      return { route: 'submit', carriesImages: true, answer: this.byVersion };
    }
    const [, id, cancel] = PREDICTION.exec(pathname) ?? [];
    if (id) {
      return {
        route: cancel ? 'cancel' : 'poll',
        taskId: id,
        answer: (call) => this.read(call, id, cancel !== undefined),
      };
    }
    return {
      route: 'other',
      answer: () =>
        problem(404, { title: 'Not found', detail: 'The requested resource could not be found.' }),
    };
  };
}

/** Replicate's interface (a class so each answer is a small method). */
export function replicateDialect(kit: DialectKit): Dialect {
  return new ReplicateDialect(kit);
}
