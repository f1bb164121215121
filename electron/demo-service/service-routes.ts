import type { BodyResult, Reply } from './http-reply';
import { errorReply, jsonReply, xmlErrorReply } from './http-reply';
import { parseGenerationBody } from './request-validation';
import type { StoredTask } from './task-store';
import type { ServiceContext } from './service-context';
import { inlineEntries, storedImageBytes } from './inline-images';
import { taskSeed } from './prng';
import { createEdit, namesEditModel } from './pictor-inputs';
import { busy, isReply, noCredits } from './http-reply';

/** Which part of the service interface a path belongs to. */
export type RouteMatch =
  | { route: 'submit' }
  | { route: 'poll'; taskId: string }
  | { route: 'image'; token: string; hop: 'file' | 'redirect' | 'media' }
  | { route: 'other' };

/** Classifies a request path (without its query). */
export function matchRoute(pathname: string): RouteMatch {
  if (pathname === '/v1/images/generations') return { route: 'submit' };
  const [, taskId] = /^\/v1\/tasks\/([^/]+)$/.exec(pathname) ?? [];
  if (taskId) return { route: 'poll', taskId };
  const [, file] = /^\/files\/([^/]+)\.png$/.exec(pathname) ?? [];
  if (file) return { route: 'image', token: file, hop: 'file' };
  const [, redirect] = /^\/r\/([^/]+)$/.exec(pathname) ?? [];
  if (redirect) return { route: 'image', token: redirect, hop: 'redirect' };
  const [, media] = /^\/media\/([0-9a-f]+)$/.exec(pathname) ?? [];
  if (media) return { route: 'image', token: media, hop: 'media' };
  return { route: 'other' };
}

/**
 * Draws a task's pictures when it completes, as a real service has its images ready when it says
 * so: the download that follows the poll finds them drawn instead of waiting for the drawing.
 * Only on the real clock (a test's clock moves on its own) and for a task that will complete.
 */
export async function drawAtCompletion(ctx: ServiceContext, task: StoredTask): Promise<void> {
  if (ctx.options.imageFiles.length > 0 || ctx.store.output(task.id)) return;
  if (ctx.options.now !== Date.now || task.failureDraw < ctx.options.failureRate) return;
  if (!(await ctx.wait(Math.max(0, task.completesAt - Date.now())))) return;
  const { prompt, width, height, variant } = task;
  for (let index = 0; index < task.imageCount; index += 1) {
    await ctx.images
      .get({ prompt, width, height, index, variant, seed: ctx.options.seed })
      .catch(() => undefined);
  }
}

/** A request as the routes see it. */
export interface ServiceCall {
  method: string;
  match: RouteMatch;
  authorization: string | undefined;
  body: BodyResult;
}

const BEARER = /^Bearer +(\S+) *$/i;

/** The key a request carries, if its Authorization header has the Bearer form. */
export function bearerKey(authorization: string | undefined): string | undefined {
  return authorization ? BEARER.exec(authorization)?.[1] : undefined;
}

/** The account of the request's key, or the 401 to answer. Never echoes the key. */
function authenticate(ctx: ServiceContext, authorization: string | undefined): string | Reply {
  const challenge = { headers: { 'WWW-Authenticate': 'Bearer realm="image-task-service"' } };
  if (!authorization) {
    return errorReply(
      401,
      'missing_api_key',
      'No API key was sent. Send it in an Authorization header of the form "Bearer <API key>".',
      challenge,
    );
  }
  const key = bearerKey(authorization);
  if (!key) {
    return errorReply(
      401,
      'invalid_authorization',
      'The Authorization header is malformed. It must have the form "Bearer <API key>".',
      challenge,
    );
  }
  const account = ctx.store.accountForKey(key);
  if (!account) {
    return errorReply(
      401,
      'invalid_api_key',
      'The API key is not valid. Check the key, or create a new one in the key console.',
      challenge,
    );
  }
  return account;
}

function methodNotAllowed(allowed: string): Reply {
  return errorReply(405, 'method_not_allowed', `This endpoint accepts ${allowed} requests only.`, {
    headers: { Allow: allowed },
  });
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** The task as the service sends it; extra fields on purpose, as real providers send them. */
function taskBody(ctx: ServiceContext, task: StoredTask): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: task.id,
    object: 'image.task',
    status: task.status,
    created_at: unixSeconds(task.createdAt),
    model: task.model,
    prompt: task.prompt,
    size: task.size,
    quality: task.quality,
  };
  if (task.status === 'processing') {
    const span = Math.max(1, task.completesAt - task.createdAt);
    body.progress = Math.min(99, Math.floor(((ctx.options.now() - task.createdAt) / span) * 100));
  } else body.completed_at = unixSeconds(task.completedAt ?? task.completesAt);
  if (task.status === 'completed') {
    const data = task.images.map((image) => ({
      url: ctx.store.imageUrl(ctx.baseUrl(), image),
      width: image.width,
      height: image.height,
    }));
    body.output = { data };
    // Not in the spec: the seed, as services that draw one report it (docs/SERVICE.md).
    body.seed = taskSeed(ctx.options.seed, task.id);
  }
  if (task.status === 'failed') body.error = task.error;
  const { cost } = ctx.options;
  const said = cost?.where === 'late' ? task.status !== 'processing' : cost?.where !== 'header';
  if (cost && said) body.usage = cost.usage;
  return body;
}

/** The task answer, with its cost header when the service says costs that way. */
function taskReply(
  ctx: ServiceContext,
  task: StoredTask,
  body: Record<string, unknown> = taskBody(ctx, task),
): Reply {
  const { cost } = ctx.options;
  const headers = cost?.where === 'header' ? { 'X-Usage-Cost': cost.header ?? '' } : undefined;
  return jsonReply(200, body, headers);
}

/** A task of a text request, or the refusal. */
function createTask(ctx: ServiceContext, account: string, bytes: Buffer): StoredTask | Reply {
  const parsed = parseGenerationBody(bytes, ctx.options.maxImageSide);
  if (!parsed.ok) return jsonReply(400, { error: parsed.problem });
  if (ctx.store.full()) return busy();
  if (!ctx.store.charge(account)) return noCredits();
  return ctx.store.create(account, parsed.request);
}

/** The fields of a request for the edit model, or undefined for any other request. */
function editFields(bytes: Buffer): Record<string, unknown> | undefined {
  if (!namesEditModel(bytes)) return undefined;
  return JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
}

async function submit(ctx: ServiceContext, call: ServiceCall): Promise<Reply> {
  if (call.method !== 'POST') return methodNotAllowed('POST');
  const account = authenticate(ctx, call.authorization);
  if (typeof account !== 'string') return account;
  // A body over the usual limit is read only for the edit model, which carries images.
  const { body } = call;
  if (!body.ok || (body.bytes.length > ctx.options.maxBodyBytes && !namesEditModel(body.bytes))) {
    const kib = Math.floor(ctx.options.maxBodyBytes / 1024);
    const limit = kib > 0 ? `${kib} KiB` : `${ctx.options.maxBodyBytes} bytes`;
    return errorReply(
      400,
      'request_too_large',
      `The request body is too large: this service accepts at most ${limit}.`,
    );
  }
  const fields = editFields(body.bytes);
  const task = fields
    ? await createEdit(ctx, account, fields)
    : createTask(ctx, account, body.bytes);
  if (isReply(task)) return task;
  void drawAtCompletion(ctx, task);
  const { cost } = ctx.options;
  return jsonReply(200, {
    id: task.id,
    object: 'image.task',
    status: 'processing',
    created_at: unixSeconds(task.createdAt),
    model: task.model,
    ...(cost?.where === 'submit' ? { usage: cost.usage } : {}),
  });
}

async function poll(ctx: ServiceContext, call: ServiceCall, taskId: string): Promise<Reply> {
  if (call.method !== 'GET') return methodNotAllowed('GET');
  const account = authenticate(ctx, call.authorization);
  if (typeof account !== 'string') return account;
  // A task an earlier run made (the app restarted, a CLI command ended) is made again, if the
  // host remembers it: the client polls the same id and gets its answer.
  const task = ctx.store.get(taskId) ?? ctx.store.recall(taskId, account);
  // Another account's task looks exactly like a missing one: ids are not confirmed to strangers.
  if (!task || task.account !== account) {
    return errorReply(
      404,
      'task_not_found',
      'No task with this id exists for this account. Query a task with a key of the account that created it.',
    );
  }
  const body = taskBody(ctx, task);
  if (task.status === 'completed' && ctx.options.inlineResults !== null) {
    body.output = { data: await inlineEntries(ctx, task) };
  }
  return taskReply(ctx, task, body);
}

/** A public upload link (fal's `file_url`): the bytes as uploaded, to anyone with the link. */
function mediaReply(ctx: ServiceContext, id: string): Reply {
  const file = ctx.uploads.file(id);
  if (!file || !ctx.uploads.isPublic(id)) {
    return xmlErrorReply(404, 'NoSuchKey', 'The specified key does not exist.');
  }
  return { status: 200, headers: { 'Content-Type': file.contentType }, body: file.bytes };
}

async function image(
  ctx: ServiceContext,
  call: ServiceCall,
  token: string,
  hop: 'file' | 'redirect' | 'media',
): Promise<Reply> {
  if (call.method !== 'GET' && call.method !== 'HEAD') return methodNotAllowed('GET, HEAD');
  if (hop === 'media') return mediaReply(ctx, token);
  const stored = ctx.store.image(token);
  if (!stored) return xmlErrorReply(404, 'NoSuchKey', 'The specified key does not exist.');
  if (ctx.store.isExpired(stored)) return xmlErrorReply(403, 'AccessDenied', 'Request has expired');
  if (hop === 'redirect') {
    const location = `${ctx.baseUrl()}/files/${token}.png`;
    return {
      status: 302,
      headers: { Location: location, 'Content-Type': 'text/plain' },
      body: Buffer.from(`Found. Redirecting to ${location}\n`),
    };
  }
  // A given file as it is (the type its bytes say), or the drawn picture.
  const { bytes, type } = await storedImageBytes(ctx, stored);
  return {
    status: 200,
    headers: { 'Content-Type': type, 'Cache-Control': 'private, max-age=3600' },
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}

/** Answers a request to the service interface (faults are applied around this by the server). */
export async function handleServiceCall(ctx: ServiceContext, call: ServiceCall): Promise<Reply> {
  const { match } = call;
  switch (match.route) {
    case 'submit':
      return submit(ctx, call);
    case 'poll':
      return poll(ctx, call, match.taskId);
    case 'image':
      return image(ctx, call, match.token, match.hop);
    case 'other':
      return errorReply(
        404,
        'not_found',
        'There is no endpoint at this path. Check the service URL and the /v1 prefix.',
      );
  }
}
