/**
 * ComfyUI's server routes (docs.comfy.org, "Server routes"; comfyanonymous/ComfyUI server.py),
 * as a local engine answers them. No key: a request with a Bearer key stands for a proxy in front
 * of it, which refuses a key it does not know (401).
 * - `POST /prompt` `{ prompt: <graph>, client_id }` → `{ prompt_id, number, node_errors: {} }`,
 *   or 400 `{ error: { type, message, details, extra_info }, node_errors }` (comfyui-graph.ts).
 * - `GET /history/<prompt_id>`: `{}` until the prompt ran; then its entry: `outputs` (the save
 *   node's `images: [{ filename, subfolder, type: 'output' }]`), `status { status_str, completed,
 *   messages }`; a failed node is an `execution_error` message (`node_id`, `node_type`,
 *   `exception_message`, `exception_type`), a stopped prompt `execution_interrupted`.
 * - `GET /queue` → `{ queue_running, queue_pending }`, each `[number, prompt_id, prompt, extra,
 *   outputs]`; `POST /queue { delete: [ids] }` removes waiting prompts (200, no body);
 *   `POST /interrupt` stops the running prompt (with `prompt_id`, only that one).
 * - `POST /upload/image` (multipart `image`, optional `subfolder`) → `{ name, subfolder, type }`;
 *   `GET /view?filename=&subfolder=&type=` serves an output (the demo's real PNG) or an input.
 * Chosen here: the prompt word "fail" makes the KSampler fail; a task is queued its first third.
 */
import { SNIFF_BYTES, sniffImage } from '../../core/images';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { readForm } from '../multipart';
import { validateGenerationRequest } from '../request-validation';
import { handleServiceCall } from '../service-routes';
import type { StoredTask } from '../task-store';
import { planOf, type ComfyPlan } from './comfyui-graph';
import type { Dialect, DialectCall, DialectKit, DialectMatch } from './dialect';
import {
  acceptedRequest,
  AuthorizationDialect,
  failureMessage,
  headerValue,
  isReply,
  jsonObject,
} from './dialect';

/** Whose tasks a request without a key makes: the machine's own user. */
const LOCAL_ACCOUNT = 'comfyui-local';
const HISTORY = /^\/history\/([^/]+)$/;
const UPLOAD_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const empty = (): Reply => ({ status: 200, headers: {}, body: Buffer.alloc(0) });
const notFound = (): Reply => ({
  status: 404,
  headers: { 'Content-Type': 'text/plain' },
  body: Buffer.from('404: Not Found'),
});

class ComfyuiDialect extends AuthorizationDialect implements Dialect {
  private next = 1;
  /** By task: they go with a task the store forgets. */
  private readonly numbers = new WeakMap<StoredTask, number>();

  private readonly account = (call: DialectCall): string | Reply => {
    const key = this.keyOf(call.headers);
    if (key === undefined) return LOCAL_ACCOUNT;
    return this.kit.accountForKey(key) ?? jsonReply(401, { error: 'Unauthorized' });
  };

  private numberOf(task: StoredTask): number {
    let number = this.numbers.get(task);
    if (number === undefined) {
      number = this.next++;
      this.numbers.set(task, number);
    }
    return number;
  }

  private readonly submit = (call: DialectCall, who: string): Reply => {
    // A proxy in front of ComfyUI may throttle (ComfyUI itself never does).
    if (this.kit.throttled())
      return jsonReply(429, { error: 'Too many requests' }, { 'Retry-After': '1' });
    const body = jsonObject(call.body);
    if (!body)
      return jsonReply(400, { error: { type: 'invalid_prompt', message: 'Invalid JSON.' } });
    const plan = planOf(body['prompt'], (name) => this.kit.ctx.uploads.input(name) !== undefined);
    if (isReply(plan)) return plan;
    const size = `${plan.width}x${plan.height}`;
    const checked = validateGenerationRequest(
      { prompt: plan.prompt || 'an empty prompt', model: 'comfyui', size },
      this.kit.ctx.options.maxImageSide,
    );
    if (!checked.ok)
      return jsonReply(400, {
        error: { type: 'invalid_prompt', message: checked.problem.message },
      });
    const accepted = acceptedRequest(checked.request.prompt, 'comfyui', plan.width, plan.height);
    const task = this.kit.create(who, accepted, { imageCount: plan.batch, input: plan });
    return jsonReply(200, { prompt_id: task.id, number: this.numberOf(task), node_errors: {} });
  };

  private planOf(task: StoredTask): Pick<ComfyPlan, 'graph' | 'outputNode' | 'workNode'> {
    const plan = this.kit.input(task) as Partial<ComfyPlan>;
    return {
      graph: plan.graph ?? {},
      outputNode: plan.outputNode ?? '9',
      workNode: plan.workNode ?? { id: '3', type: 'KSampler' },
    };
  }

  private entryOf(task: StoredTask): Record<string, unknown> {
    const phase = this.kit.phase(task);
    const { graph, outputNode, workNode } = this.planOf(task);
    const started = ['execution_start', { prompt_id: task.id, timestamp: task.createdAt }];
    const base = {
      // The graph that ran, as ComfyUI keeps it: its seeds are read back from here.
      prompt: [this.numberOf(task), task.id, graph, {}, [outputNode]],
      meta: {},
    };
    if (phase === 'succeeded') {
      const images = this.kit.images(task).map((image) => ({
        filename: `${
          image.url
            .split('/')
            .pop()
            ?.replace(/\.png$/, '') ?? ''
        }.png`,
        subfolder: '',
        type: 'output',
      }));
      const done = ['execution_success', { prompt_id: task.id, timestamp: task.completesAt }];
      return {
        ...base,
        outputs: { [outputNode]: { images } },
        status: { status_str: 'success', completed: true, messages: [started, done] },
      };
    }
    const about = {
      prompt_id: task.id,
      node_id: workNode.id,
      node_type: workNode.type,
      executed: [],
    };
    const said =
      phase === 'canceled'
        ? ['execution_interrupted', about]
        : [
            'execution_error',
            {
              ...about,
              exception_message: failureMessage(task),
              exception_type: 'RuntimeError',
              traceback: [],
              current_inputs: {},
              current_outputs: {},
            },
          ];
    return {
      ...base,
      outputs: {},
      status: { status_str: 'error', completed: false, messages: [started, said] },
    };
  }

  private readonly history = (call: DialectCall, who: string, id: string): Reply => {
    const task = this.kit.task(id, who);
    if (!task || task.account !== who || task.status === 'processing') return jsonReply(200, {});
    return jsonReply(200, { [id]: this.entryOf(task) });
  };

  private queued(who: string): { running: StoredTask[]; pending: StoredTask[] } {
    const waiting = this.kit.tasksOf(who).filter((task) => task.status === 'processing');
    return {
      running: waiting.filter((task) => this.kit.phase(task) === 'running'),
      pending: waiting.filter((task) => this.kit.phase(task) === 'queued'),
    };
  }

  private readonly queue = (call: DialectCall, who: string): Reply => {
    const { running, pending } = this.queued(who);
    if (call.method === 'GET') {
      const row = (task: StoredTask) => [
        this.numberOf(task),
        task.id,
        {},
        {},
        [this.planOf(task).outputNode],
      ];
      return jsonReply(200, { queue_running: running.map(row), queue_pending: pending.map(row) });
    }
    const body = jsonObject(call.body) ?? {};
    const asked = Array.isArray(body['delete']) ? body['delete'] : [];
    for (const task of pending)
      if (body['clear'] === true || asked.includes(task.id)) this.kit.cancel(task);
    return empty();
  };

  private readonly interrupt = (call: DialectCall, who: string): Reply => {
    const only = jsonObject(call.body)?.['prompt_id'];
    for (const task of this.queued(who).running)
      if (only === undefined || only === task.id) this.kit.cancel(task);
    return empty();
  };

  private readonly upload = (call: DialectCall): Reply => {
    if (!call.body.ok) return { status: 413, headers: {}, body: Buffer.from('Too large') };
    const parts = readForm(headerValue(call.headers, 'content-type'), call.body.bytes);
    const image = parts?.find((part) => part.name === 'image');
    if (!image || sniffImage(image.value.subarray(0, SNIFF_BYTES)) === null)
      return { status: 400, headers: {}, body: Buffer.alloc(0) };
    const given = image.fileName ?? '';
    const name = this.kit.ctx.uploads.putInput(
      image.value,
      UPLOAD_NAME.test(given) ? given : undefined,
    );
    return jsonReply(200, { name, subfolder: '', type: 'input' });
  };

  private readonly view = (call: DialectCall): Reply | Promise<Reply> => {
    const filename = call.query.get('filename') ?? '';
    if (call.query.get('type') === 'input') {
      const bytes = this.kit.ctx.uploads.input(filename);
      return bytes
        ? { status: 200, headers: { 'Content-Type': 'image/png' }, body: bytes }
        : notFound();
    }
    const token = /^([A-Za-z0-9_-]+)\.png$/.exec(filename)?.[1];
    if (token === undefined) return notFound();
    return handleServiceCall(this.kit.ctx, {
      method: call.method,
      match: { route: 'image', token, hop: 'file' },
      authorization: undefined,
      body: call.body,
    });
  };

  /** `answer` for the request's account (a refused key answers 401 instead). */
  private readonly as =
    (answer: (call: DialectCall, who: string) => Reply | Promise<Reply>) => (call: DialectCall) => {
      const who = this.account(call);
      return typeof who === 'string' ? answer(call, who) : who;
    };

  readonly match = (method: string, pathname: string, query: URLSearchParams): DialectMatch => {
    if (pathname === '/prompt' && method === 'POST')
      return { route: 'submit', answer: this.as(this.submit) };
    const [, id] = HISTORY.exec(pathname) ?? [];
    if (id)
      return {
        route: 'poll',
        taskId: id,
        answer: this.as((call, who) => this.history(call, who, id)),
      };
    if (pathname === '/queue') {
      const route = method === 'POST' ? 'cancel' : 'other';
      return { route, answer: this.as(this.queue) };
    }
    if (pathname === '/interrupt' && method === 'POST')
      return { route: 'cancel', answer: this.as(this.interrupt) };
    if (pathname === '/upload/image' && method === 'POST')
      return { route: 'other', carriesImages: true, answer: this.as(this.upload) };
    if (pathname === '/view') {
      const token = /^([A-Za-z0-9_-]+)\.png$/.exec(query.get('filename') ?? '')?.[1];
      const taskId = token === undefined ? undefined : this.kit.ctx.store.image(token)?.taskId;
      return { route: 'image', ...(taskId === undefined ? {} : { taskId }), answer: this.view };
    }
    return { route: 'other', answer: notFound };
  };
}

/** ComfyUI's routes (a class so each answer is a small method). */
export function comfyuiDialect(kit: DialectKit): Dialect {
  return new ComfyuiDialect(kit);
}
