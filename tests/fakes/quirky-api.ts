/**
 * The API origin of the quirky service: accounts, submit, poll, and the failure habits of
 * real gateways. Tasks complete by wall-clock time, computed when polled.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderPng, type QuirkyCdn } from './quirky-cdn';
import { answer, answerJson, logRequest, readBody, type LoggedRequest } from './quirky-log';

/** What a task ends as. `error` is sent verbatim: a string, an object, whatever the test wants. */
export type QuirkyOutcome =
  | { readonly kind: 'completed'; readonly images?: number }
  | { readonly kind: 'failed'; readonly error: unknown };

/** A 429 on submit, with `Retry-After: 1` or with no `Retry-After` at all. */
export type SubmitThrottle = 'retry-after' | 'bare';

/** A poll answered by the "gateway" instead of the service; `pass` lets one through. */
export type PollFault = 'html502' | 'date503' | 'throttle429' | 'pass';

/** What a test may read about a task the service holds. */
export interface QuirkyTaskInfo {
  readonly id: string;
  /** 1 for the first task the service created, 2 for the next… */
  readonly seq: number;
  readonly account: string;
  readonly prompt: string;
  readonly size: string | undefined;
  readonly createdAt: number;
}

interface TaskState extends QuirkyTaskInfo {
  readonly durationMs: number;
  readonly outcome: QuirkyOutcome;
  /** Minted the first time the task is seen completed (URLs are signed when handed out). */
  urls: Promise<string[]> | null;
}

/** The API's settings, defaults already applied. */
export interface QuirkyApiConfig {
  readonly accounts: Readonly<Record<string, string>>;
  readonly brokeAccounts: readonly string[];
  readonly durationMs: number | ((prompt: string) => number);
  readonly outcome: (task: QuirkyTaskInfo) => QuirkyOutcome;
  /** Consumed (shifted) as submits arrive. */
  readonly submitThrottle: SubmitThrottle[];
  /** Consumed (shifted) as polls arrive. */
  readonly pollFaults: PollFault[];
  readonly basePath: string;
  readonly taskId?: (seq: number) => string;
  /** The service's clock for how long a task has been processing. */
  readonly now: () => number;
}

const BAD_GATEWAY_HTML =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n' +
  '<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

const SIZE = /^(\d{1,4})x(\d{1,4})$/;

/** Submit and poll handlers of the quirky service. */
export class QuirkyApi {
  private readonly tasks = new Map<string, TaskState>();

  constructor(
    private readonly config: QuirkyApiConfig,
    private readonly cdn: QuirkyCdn,
    private readonly log: LoggedRequest[],
  ) {}

  taskInfos(): QuirkyTaskInfo[] {
    return [...this.tasks.values()].map(({ id, seq, account, prompt, size, createdAt }) => ({
      id,
      seq,
      account,
      prompt,
      size,
      createdAt,
    }));
  }

  /** Creates a task for `account` (used by submit and by "created outside the app"). */
  createTask(account: string, request: { prompt: string; size?: string | undefined }): string {
    const id = this.config.taskId?.(this.tasks.size + 1) ?? `gen-${randomBytes(8).toString('hex')}`;
    const info: QuirkyTaskInfo = {
      id,
      seq: this.tasks.size + 1,
      account,
      prompt: request.prompt,
      size: request.size,
      createdAt: this.config.now(),
    };
    const { durationMs } = this.config;
    this.tasks.set(id, {
      ...info,
      durationMs: typeof durationMs === 'number' ? durationMs : durationMs(request.prompt),
      outcome: this.config.outcome(info),
      urls: null,
    });
    return id;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const entry = logRequest(this.log, 'api', request, await readBody(request));
    const path = new URL(entry.path, 'http://api.invalid').pathname;
    const base = this.config.basePath;
    if (entry.method === 'POST' && path === `${base}/v1/images/generations`) {
      this.submit(response, entry);
      return;
    }
    const poll = path.startsWith(`${base}/v1/tasks/`)
      ? path.slice(`${base}/v1/tasks/`.length)
      : null;
    if (entry.method === 'GET' && poll && !poll.includes('/')) {
      entry.taskId = decodeURIComponent(poll);
      await this.poll(response, entry, entry.taskId);
      return;
    }
    answer(response, entry, 404, { 'Content-Type': 'text/plain' }, '404 page not found');
  }

  /** `null` after answering 401 with the error as a plain string. */
  private authenticate(response: ServerResponse, entry: LoggedRequest): string | null {
    const match = /^Bearer\s+(\S+)$/i.exec(entry.headers.authorization ?? '');
    const account = match?.[1] === undefined ? undefined : this.config.accounts[match[1]];
    if (account !== undefined) return account;
    answerJson(response, entry, 401, { error: 'invalid api key' });
    return null;
  }

  private submit(response: ServerResponse, entry: LoggedRequest): void {
    const account = this.authenticate(response, entry);
    if (account === null) return;
    const throttle = this.config.submitThrottle.shift();
    if (throttle) {
      const headers: Record<string, string> =
        throttle === 'retry-after' ? { 'Retry-After': '1' } : {};
      const body = { error: { type: 'rate_limit', message: 'Too many requests, slow down' } };
      answerJson(response, entry, 429, body, headers);
      return;
    }
    if (this.config.brokeAccounts.includes(account)) {
      answerJson(response, entry, 402, {
        error: { type: 'billing', message: 'Insufficient credits' },
      });
      return;
    }
    if (!(entry.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
      answerJson(response, entry, 415, { error: 'Content-Type must be application/json' });
      return;
    }
    const request = parseRequest(entry.body);
    if (typeof request === 'string') {
      answerJson(response, entry, 400, { error: { type: 'invalid_request', message: request } });
      return;
    }
    const id = this.createTask(account, request);
    answerJson(response, entry, 200, {
      id,
      created: Math.floor(Date.now() / 1000),
      object: 'generation.task',
      usage: { credits_used: 1, credits_remaining: 41 },
    });
  }

  private async poll(response: ServerResponse, entry: LoggedRequest, id: string): Promise<void> {
    const fault = this.config.pollFaults.shift();
    if (fault && fault !== 'pass') {
      answerFault(response, entry, fault);
      return;
    }
    const account = this.authenticate(response, entry);
    if (account === null) return;
    const task = this.tasks.get(id);
    if (!task || task.account !== account) {
      answerJson(response, entry, 404, {
        error: { code: 'task_not_found', message: 'No such task' },
      });
      return;
    }
    answerJson(response, entry, 200, await this.taskBody(task));
  }

  private async taskBody(task: TaskState): Promise<Record<string, unknown>> {
    const elapsed = this.config.now() - task.createdAt;
    const common = {
      id: task.id,
      object: 'generation.task',
      created: Math.floor(task.createdAt / 1000),
    };
    if (elapsed < task.durationMs) {
      const progress = Math.floor((elapsed / task.durationMs) * 100);
      return { ...common, status: 'processing', progress, output: null, error: null };
    }
    if (task.outcome.kind === 'failed') {
      return { ...common, status: 'failed', output: null, error: task.outcome.error };
    }
    task.urls ??= this.mintUrls(task, task.outcome.images ?? 1);
    const urls = await task.urls;
    return {
      ...common,
      status: 'completed',
      progress: 100,
      error: null,
      output: {
        data: urls.map((url) => ({
          url,
          revised_prompt: `${task.prompt}, detailed`,
          b64_json: null,
        })),
        meta: { seed: 1234, elapsed_ms: task.durationMs, safety: { flagged: false } },
      },
      usage: { credits_used: 1 },
    };
  }

  private async mintUrls(task: TaskState, count: number): Promise<string[]> {
    const match = SIZE.exec(task.size ?? '');
    const width = match ? Number(match[1]) : 64;
    const height = match ? Number(match[2]) : 64;
    const urls: string[] = [];
    for (let index = 0; index < count; index += 1) {
      urls.push(this.cdn.publish(task.id, await renderPng(width, height, index)));
    }
    return urls;
  }
}

function answerFault(response: ServerResponse, entry: LoggedRequest, fault: PollFault): void {
  if (fault === 'html502') {
    answer(response, entry, 502, { 'Content-Type': 'text/html' }, BAD_GATEWAY_HTML);
  } else if (fault === 'date503') {
    // An HTTP-date has whole seconds: 2 s ahead is between 1 and 2 s away.
    const retryAt = new Date(Date.now() + 2_000).toUTCString();
    answerJson(response, entry, 503, { error: 'service unavailable' }, { 'Retry-After': retryAt });
  } else {
    answerJson(
      response,
      entry,
      429,
      { error: { code: 'rate_limited', message: 'Slow down' } },
      {
        'Retry-After': '1',
      },
    );
  }
}

/** The submit body, or a sentence saying why it was refused. */
function parseRequest(body: string): { prompt: string; size?: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'Body is not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'Body must be an object';
  const { prompt, size } = value as Record<string, unknown>;
  if (typeof prompt !== 'string' || !prompt.trim()) return 'prompt is required';
  if (size !== undefined && (typeof size !== 'string' || !SIZE.test(size))) {
    return 'size must look like 1024x1024';
  }
  return size === undefined ? { prompt } : { prompt, size };
}
