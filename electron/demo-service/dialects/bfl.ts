/**
 * Black Forest Labs' FLUX API (docs.bfl.ai, "Integration guidelines" and the API reference):
 * a submit answers an id and a polling URL; the client polls until the status is final.
 *
 * Documented, and followed here:
 * - The key in `x-key`; a missing or wrong one is 403 `{ detail: 'Not authenticated - Invalid
 *   Authentication' }`.
 * - `POST /v1/<model>` (`flux-pro-1.1`, `flux-dev`, …) with `{ prompt, width?, height?, … }`
 *   answers `{ id, polling_url }`; width and height are multiples of 32 from 256 to 1440
 *   (default 1024 × 768).
 * - `GET /v1/get_result?id=<id>` answers `{ id, status, result, progress, details }`, status one
 *   of `Pending`, `Ready`, `Error`, `Request Moderated`, `Content Moderated`, `Task not found`;
 *   `result.sample` is a signed URL valid for 10 minutes (`--image-ttl 600000`).
 * - `GET /v1/credits` answers `{ credits }`, the account's balance.
 * - 402 when out of credits, 429 when the key has too many active tasks (24 by default), 422
 *   FastAPI validation `{ detail: [{ loc, msg, type }] }`. There is no cancel endpoint.
 *
 * Chosen here: `Task not found` is answered with status 200; `details` of a moderated task is
 * `{ moderation_reasons: [...] }`, of a failed one `{ error }`; `result` carries `prompt`,
 * `seed`, `start_time`, `end_time` (Unix seconds) and `duration` (seconds); the 402 and 429
 * messages; the unknown status word is `Queued`; an account without a credit limit has 1000.
 */
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { askedSeed } from './asked-seed';
import { capabilitiesOf } from '../../../shared/domain/model-capabilities';
import { bflInputSubmit } from './bfl-inputs';
import { validateGenerationRequest } from '../request-validation';
import type { StoredTask } from '../task-store';
import type { Dialect, DialectCall, DialectKit, DialectMatch } from './dialect';
import { acceptedRequest, failureMessage, headerValue, isReply, jsonObject } from './dialect';

const SUBMIT = /^\/v1\/(flux[a-z0-9.-]*)$/;
/** The balance an account without a credit limit reports. */
const UNLIMITED_CREDITS = 1000;
const MIN_SIDE = 256;
const MAX_SIDE = 1440;
const STEP = 32;

function detail(status: number, message: string, headers = {}): Reply {
  return jsonReply(status, { detail: message }, headers);
}

function invalid(field: string, msg: string, type: string, input?: unknown): Reply {
  const entry: Record<string, unknown> = { type, loc: ['body', field], msg };
  if (input !== undefined) entry.input = input;
  return jsonReply(422, { detail: [entry] });
}

function side(
  fields: Record<string, unknown>,
  name: 'width' | 'height',
  fallback: number,
): number | Reply {
  const value = fields[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return invalid(name, 'Input should be a valid integer', 'int_type', value);
  }
  if (value < MIN_SIDE || value > MAX_SIDE) {
    return invalid(name, `Input should be from ${MIN_SIDE} to ${MAX_SIDE}`, 'range', value);
  }
  if (value % STEP !== 0) {
    return invalid(name, `Input should be a multiple of ${STEP}`, 'multiple_of', value);
  }
  return value;
}

function seconds(ms: number): number {
  return ms / 1000;
}

/** Black Forest Labs' API; see the file comment. */
class BflDialect implements Dialect {
  readonly keyHeader = 'x-key';

  constructor(private readonly kit: DialectKit) {}

  readonly keyOf: Dialect['keyOf'] = (headers) => {
    const value = headerValue(headers, 'x-key');
    return value && value.trim() !== '' ? value.trim() : undefined;
  };
  private readonly account = (call: DialectCall): string | Reply =>
    this.kit.accountForKey(this.keyOf(call.headers)) ??
    detail(403, 'Not authenticated - Invalid Authentication');

  private readonly submit = (call: DialectCall, model: string): Reply | Promise<Reply> => {
    if (call.method !== 'POST') return detail(405, 'Method Not Allowed');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const throttled =
      this.kit.throttled() || this.kit.activeTasks(who) >= this.kit.ctx.options.maxActiveTasks;
    if (throttled) {
      return detail(
        429,
        'You have exceeded the number of active tasks. Please wait for some of your tasks to finish.',
        { 'Retry-After': '1' },
      );
    }
    const fields = jsonObject(call.body);
    if (!fields) return invalid('body', 'Input should be a valid dictionary', 'dict_type');
    const prompt = fields.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return invalid('prompt', 'Field required', 'missing');
    }
    const caps = capabilitiesOf('bfl', model);
    if (caps) return this.inputs(who, { model, caps, fields, prompt });
    const width = side(fields, 'width', 1024);
    if (isReply(width)) return width;
    const height = side(fields, 'height', 768);
    if (isReply(height)) return height;
    const checked = validateGenerationRequest(
      { prompt, model, size: `${width}x${height}` },
      this.kit.ctx.options.maxImageSide,
    );
    if (!checked.ok) return invalid('prompt', checked.problem.message, 'value_error');
    if (!this.kit.charge(who))
      return detail(402, 'Insufficient credits. Add credits to your account to continue.');
    const task = this.kit.create(who, acceptedRequest(prompt, model, width, height), {
      imageCount: 1,
      input: fields,
    });
    return this.submitted(task.id);
  };

  /** An image model's submit (bfl-inputs.ts). */
  private readonly inputs = async (
    who: string,
    request: Parameters<typeof bflInputSubmit>[2],
  ): Promise<Reply> => {
    const made = await bflInputSubmit(this.kit, who, request);
    return isReply(made) ? made : this.submitted(made.id);
  };

  private readonly submitted = (id: string): Reply => {
    // BFL says what a task costs in credits in its submit answer: the `cost` option's `usage`.
    const { cost } = this.kit.ctx.options;
    return jsonReply(200, {
      id,
      polling_url: `${this.kit.linkBase()}/v1/get_result?id=${id}`,
      ...(cost?.where === 'submit' ? { cost: cost.usage } : {}),
    });
  };

  private readonly resultOf = (task: StoredTask): Record<string, unknown> => {
    const end = task.completedAt ?? task.completesAt;
    return {
      sample: this.kit.images(task)[0]?.url ?? null,
      prompt: task.prompt,
      seed: askedSeed(this.kit, task),
      start_time: seconds(task.createdAt),
      end_time: seconds(end),
      duration: seconds(end - task.createdAt),
    };
  };

  private readonly answer = (task: StoredTask): Record<string, unknown> => {
    const base = { id: task.id, result: null, progress: null, details: null, preview: null };
    if (this.kit.statusReadIsUnknown(task)) return { ...base, status: 'Queued' };
    switch (this.kit.phase(task)) {
      case 'queued':
      case 'running':
        return { ...base, status: 'Pending', progress: this.kit.progress(task) };
      case 'succeeded':
        return { ...base, status: 'Ready', result: this.resultOf(task) };
      case 'moderated':
        return this.kit.moderationOf(task) === 'input'
          ? {
              ...base,
              status: 'Request Moderated',
              details: { moderation_reasons: [failureMessage(task)] },
            }
          : {
              ...base,
              status: 'Content Moderated',
              details: {
                moderation_reasons: ['The generated image was flagged by the content moderation.'],
              },
            };
      case 'failed':
      case 'canceled':
        return { ...base, status: 'Error', details: { error: failureMessage(task) } };
    }
  };

  private readonly result = (call: DialectCall): Reply => {
    if (call.method !== 'GET') return detail(405, 'Method Not Allowed');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const id = call.query.get('id');
    if (id === null) return invalid('id', 'Field required', 'missing');
    const task = this.kit.task(id, who);
    if (!task || task.account !== who) {
      return jsonReply(200, {
        id,
        status: 'Task not found',
        result: null,
        progress: null,
        details: null,
      });
    }
    return jsonReply(200, this.answer(task));
  };

  /** `GET /v1/credits`: the account's balance (Pictor's key check); unlimited reads as 1000. */
  private readonly credits = (call: DialectCall): Reply => {
    if (call.method !== 'GET') return detail(405, 'Method Not Allowed');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    return jsonReply(200, { credits: this.kit.creditsLeft(who) ?? UNLIMITED_CREDITS });
  };

  readonly match = (_method: string, pathname: string, query: URLSearchParams): DialectMatch => {
    if (pathname === '/v1/credits') return { route: 'other', answer: this.credits };
    if (pathname === '/v1/get_result') {
      return { route: 'poll', taskId: query.get('id') ?? undefined, answer: this.result };
    }
    const [, model] = SUBMIT.exec(pathname) ?? [];
    if (model) {
      const carriesImages = capabilitiesOf('bfl', model) !== null;
      return { route: 'submit', carriesImages, answer: (call) => this.submit(call, model) };
    }
    return { route: 'other', answer: () => detail(404, 'Not Found') };
  };
}

/** Bfl's interface (a class so each answer is a small method). */
export function bflDialect(kit: DialectKit): Dialect {
  return new BflDialect(kit);
}
