/**
 * Alibaba Cloud Model Studio (DashScope) text-to-image, asynchronous calls
 * (help.aliyun.com / alibabacloud.com, "Text-to-image API reference" and "Asynchronous tasks").
 *
 * Documented, and followed here:
 * - `Authorization: Bearer <key>` and `X-DashScope-Async: enable` on the submit, which without it
 *   is 403 `AccessDenied` "current user api does not support synchronous calls".
 * - `POST /api/v1/services/aigc/text2image/image-synthesis` with `{ model, input: { prompt,
 *   negative_prompt? }, parameters: { size: '1024*1024', n } }` answers `{ request_id, output:
 *   { task_id, task_status: 'PENDING' } }`.
 * - `GET /api/v1/tasks/<task_id>`: `task_status` PENDING, RUNNING, SUSPENDED, SUCCEEDED, FAILED,
 *   CANCELED or UNKNOWN (an id the service does not know); times as `YYYY-MM-DD HH:mm:ss.SSS`;
 *   `results` of `{ url, orig_prompt, actual_prompt }` (a failed image `{ code, message }`);
 *   `task_metrics { TOTAL, SUCCEEDED, FAILED }`; `usage.image_count`; a failed task has
 *   `output.code` and `output.message` (moderation: `DataInspectionFailed`).
 * - `POST /api/v1/tasks/<task_id>/cancel` cancels a PENDING task; otherwise 400
 *   `UnsupportedOperation`.
 * - `GET /api/v1/tasks/` lists the account's tasks a page at a time (`page_no`, `page_size`):
 *   `{ request_id, data: [{ task_id, status, model_name, gmt_create }], total, total_page,
 *   page_no, page_size }` (fewer fields than the service's own).
 * - Errors `{ request_id, code, message }`: 401 `InvalidApiKey`, 400 `Arrearage` (no balance),
 *   429 `Throttling.RateQuota`, 400 `InvalidParameter`. Result URLs last 24 hours
 *   (`--image-ttl 86400000`).
 *
 * Chosen here: times are written in China Standard Time (UTC+8), where the service runs; a
 * successful cancel answers 200 `{ request_id }`; sizes from 512 to 1440 per side; the unknown
 * status word is `PREPARING`.
 */
import { randomUUID } from 'node:crypto';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { validateGenerationRequest } from '../request-validation';
import type { StoredTask } from '../task-store';
import type { Dialect, DialectCall, DialectKit, DialectMatch, DialectPhase } from './dialect';
import { dashscopePolicy } from './dashscope-uploads';
import { DASHSCOPE_EDIT, dashscopeEdit } from './dashscope-inputs';
import {
  acceptedRequest,
  AuthorizationDialect,
  failureMessage,
  headerValue,
  isReply,
  jsonBody,
  objectOf,
} from './dialect';

const SUBMIT = '/api/v1/services/aigc/text2image/image-synthesis';
const TASK = /^\/api\/v1\/tasks\/([^/]+)(\/cancel)?$/;
const SIZE = /^(\d{3,4})\*(\d{3,4})$/;
const MIN_SIDE = 512;
const MAX_SIDE = 1440;
const MAX_IMAGES = 4;
const CST_OFFSET_MS = 8 * 3600_000;

/** A task's status word for each phase. */
const TASK_STATUS: Readonly<Record<DialectPhase, string>> = {
  queued: 'PENDING',
  running: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  moderated: 'FAILED',
  canceled: 'CANCELED',
};

function refusal(status: number, code: string, message: string, headers = {}): Reply {
  return jsonReply(status, { request_id: randomUUID(), code, message }, headers);
}

/** `2025-01-08 16:03:59.840`, in China Standard Time. */
function dashTime(ms: number): string {
  return new Date(ms + CST_OFFSET_MS).toISOString().replace('T', ' ').replace('Z', '');
}

interface DashRequest {
  model: string;
  prompt: string;
  width: number;
  height: number;
  count: number;
}

function invalid(message: string): Reply {
  return refusal(400, 'InvalidParameter', message);
}

function parseRequest(body: unknown): DashRequest | Reply {
  const fields = objectOf(body);
  if (!fields) return invalid('The request body is not a valid JSON object.');
  const { model, input, parameters } = fields;
  if (typeof model !== 'string' || model === '') return invalid('Model not exist.');
  const prompt = objectOf(input)?.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return invalid('Field required: input.prompt');
  }
  const params = objectOf(parameters) ?? {};
  const size = params.size ?? '1024*1024';
  const match = typeof size === 'string' ? SIZE.exec(size) : null;
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  const inRange = (side: number): boolean => side >= MIN_SIDE && side <= MAX_SIDE;
  if (!match || !inRange(width) || !inRange(height)) {
    return invalid(
      `The size is not match the allowed size: width and height from ${MIN_SIDE} to ${MAX_SIDE}, written as 1024*1024.`,
    );
  }
  const count = params.n ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_IMAGES) {
    return invalid(`The n must be from 1 to ${MAX_IMAGES}.`);
  }
  return { model, prompt, width, height, count };
}

/** DashScope's asynchronous text-to-image; see the file comment. */
class DashscopeDialect extends AuthorizationDialect implements Dialect {
  private readonly account = (call: DialectCall): string | Reply =>
    this.kit.accountForKey(this.keyOf(call.headers)) ??
    refusal(401, 'InvalidApiKey', 'Invalid API-key provided.');

  /** The account of a submit, or its refusal: method, key, async header, rate limit. */
  private readonly gate = (call: DialectCall): string | Reply => {
    if (call.method !== 'POST') return refusal(405, 'MethodNotAllowed', 'Method not allowed.');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    if (headerValue(call.headers, 'x-dashscope-async') !== 'enable') {
      return refusal(403, 'AccessDenied', 'current user api does not support synchronous calls');
    }
    if (!this.kit.throttled()) return who;
    const message = 'Requests rate limit exceeded, please try again later.';
    return refusal(429, 'Throttling.RateQuota', message, { 'Retry-After': '1' });
  };

  private readonly submit = (call: DialectCall): Reply => {
    const who = this.gate(call);
    if (typeof who !== 'string') return who;
    const request = parseRequest(jsonBody(call.body));
    if (isReply(request)) return request;
    const size = `${request.width}x${request.height}`;
    const checked = validateGenerationRequest(
      { prompt: request.prompt, model: request.model, size },
      this.kit.ctx.options.maxImageSide,
    );
    if (!checked.ok) return invalid(checked.problem.message);
    if (!this.kit.charge(who)) {
      return refusal(
        400,
        'Arrearage',
        'Access denied, please make sure your account is in good standing.',
      );
    }
    const accepted = acceptedRequest(request.prompt, request.model, request.width, request.height);
    const task = this.kit.create(who, accepted, {
      imageCount: request.count,
      input: jsonBody(call.body),
    });
    return jsonReply(200, {
      request_id: randomUUID(),
      output: { task_id: task.id, task_status: 'PENDING' },
    });
  };

  private readonly taskOutput = (task: StoredTask): Record<string, unknown> => {
    const phase = this.kit.phase(task);
    const unknown = this.kit.statusReadIsUnknown(task);
    const status = unknown ? 'PREPARING' : TASK_STATUS[phase];
    const output: Record<string, unknown> = {
      task_id: task.id,
      task_status: status,
      submit_time: dashTime(task.createdAt),
    };
    if (phase !== 'queued') output.scheduled_time = dashTime(task.createdAt);
    if (unknown || task.status === 'processing') return output;
    output.end_time = dashTime(task.completedAt ?? task.completesAt);
    if (phase === 'succeeded') {
      output.results = this.kit.images(task).map((image) => ({
        orig_prompt: task.prompt,
        actual_prompt: task.prompt,
        url: image.url,
      }));
      output.task_metrics = { TOTAL: task.imageCount, SUCCEEDED: task.imageCount, FAILED: 0 };
    }
    if (phase === 'failed' || phase === 'moderated') {
      const [code, message] =
        phase === 'moderated'
          ? ['DataInspectionFailed', 'Output data may contain inappropriate content.']
          : ['InternalError', failureMessage(task)];
      output.code = code;
      output.message = message;
      output.task_metrics = { TOTAL: task.imageCount, SUCCEEDED: 0, FAILED: task.imageCount };
    }
    return output;
  };

  private readonly read = (call: DialectCall, id: string): Reply => {
    if (call.method !== 'GET') return refusal(405, 'MethodNotAllowed', 'Method not allowed.');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const task = this.kit.task(id, who);
    if (!task || task.account !== who) {
      return jsonReply(200, {
        request_id: randomUUID(),
        output: { task_id: id, task_status: 'UNKNOWN' },
      });
    }
    const body: Record<string, unknown> = {
      request_id: randomUUID(),
      output: this.taskOutput(task),
    };
    if (this.kit.phase(task) === 'succeeded') body.usage = { image_count: task.imageCount };
    return jsonReply(200, body);
  };

  private readonly cancel = (call: DialectCall, id: string): Reply => {
    if (call.method !== 'POST') return refusal(405, 'MethodNotAllowed', 'Method not allowed.');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const task = this.kit.task(id, who);
    if (
      task &&
      task.account === who &&
      this.kit.phase(task) === 'queued' &&
      this.kit.cancel(task)
    ) {
      return jsonReply(200, { request_id: randomUUID() });
    }
    return refusal(
      400,
      'UnsupportedOperation',
      'Failed to cancel the task, please confirm if the task is in PENDING status.',
    );
  };

  /**
   * `GET /api/v1/tasks/`: the account's tasks, newest first, a page of them (`page_no`,
   * `page_size`, 10 by default, at most 100).
   */
  private readonly list = (call: DialectCall): Reply => {
    if (call.method !== 'GET') return refusal(405, 'MethodNotAllowed', 'Method not allowed.');
    const who = this.account(call);
    if (typeof who !== 'string') return who;
    const pageNo = Number(call.query.get('page_no') ?? 1);
    const pageSize = Number(call.query.get('page_size') ?? 10);
    const whole = (value: number, max: number) =>
      Number.isInteger(value) && value >= 1 && value <= max;
    if (!whole(pageNo, 10_000) || !whole(pageSize, 100)) {
      return refusal(400, 'InvalidParameter', 'page_no and page_size must be whole numbers.');
    }
    const tasks = this.kit.tasksOf(who).reverse();
    const page = tasks.slice((pageNo - 1) * pageSize, pageNo * pageSize);
    return jsonReply(200, {
      request_id: randomUUID(),
      data: page.map((task) => ({
        task_id: task.id,
        status: TASK_STATUS[this.kit.phase(task)],
        model_name: task.model,
        gmt_create: dashTime(task.createdAt),
      })),
      total: tasks.length,
      total_page: Math.ceil(tasks.length / pageSize),
      page_no: pageNo,
      page_size: pageSize,
    });
  };

  readonly match = (_method: string, pathname: string): DialectMatch => {
    if (pathname === SUBMIT) return { route: 'submit', answer: this.submit };
    if (pathname === DASHSCOPE_EDIT) {
      const answer = (call: DialectCall) => {
        const who = this.gate(call);
        return typeof who === 'string' ? dashscopeEdit(this.kit, call, who) : who;
      };
      return { route: 'submit', carriesImages: true, answer };
    }
    if (pathname === '/api/v1/uploads') {
      return {
        route: 'other',
        answer: (call) => {
          const who = this.account(call);
          return typeof who === 'string' ? dashscopePolicy(this.kit, call, who) : who;
        },
      };
    }
    if (pathname === '/api/v1/tasks' || pathname === '/api/v1/tasks/') {
      return { route: 'other', answer: this.list };
    }
    const [, id, canceling] = TASK.exec(pathname) ?? [];
    if (id && canceling)
      return { route: 'cancel', taskId: id, answer: (call) => this.cancel(call, id) };
    if (id) return { route: 'poll', taskId: id, answer: (call) => this.read(call, id) };
    return { route: 'other', answer: () => refusal(404, 'NotFound', 'Not Found.') };
  };
}

/** Dashscope's interface (a class so each answer is a small method). */
export function dashscopeDialect(kit: DialectKit): Dialect {
  return new DashscopeDialect(kit);
}
