/**
 * The `/_demo/*` control API: lets a test that runs the service as a separate process script it.
 * Not authenticated by the Bearer key; the server allows loopback clients only.
 */
import { z } from 'zod';
import type { BodyResult, Reply } from './http-reply';
import { errorReply, jsonReply } from './http-reply';
import { parseFaultRule } from './faults';
import type { DemoService } from './types';
import { messageOf } from '../core/errors';

const createTaskSchema = z.object({
  account: z.string().min(1),
  prompt: z.string(),
  model: z.string().optional(),
  size: z.string().optional(),
  quality: z.string().optional(),
});
const creditsSchema = z.object({
  account: z.string().min(1),
  credits: z.number().int().min(0).nullable().optional(),
});
const revokeKeySchema = z.object({ key: z.string().min(1) });
const durationSchema = z.union([z.number(), z.object({ min: z.number(), max: z.number() })]);
const settingsSchema = z.object({
  failureRate: z.number().optional(),
  durationMs: durationSchema.optional(),
  rateLimit: z.number().optional(),
  unknownStatusPolls: z.number().optional(),
});
const failSchema = z.object({ error: z.unknown().optional() });

/** A control request that cannot be carried out; answered as a 400 with its message. */
class ControlError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function parseJson(body: BodyResult, required: boolean): unknown {
  if (!body.ok) throw new ControlError('The request body is too large.');
  const text = body.bytes.toString('utf8').trim();
  if (text === '') {
    if (required) throw new ControlError('This control request needs a JSON body.');
    return {};
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ControlError('The request body is not valid JSON.');
  }
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new ControlError(
    `The request body is not valid${where}: ${issue?.message ?? 'unknown problem'}.`,
  );
}

/** Runs a service method, turning its thrown message into a 400 (404 for an unknown task). */
function attempt<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    const message = messageOf(error);
    throw new ControlError(message, message.startsWith('There is no task') ? 404 : 400);
  }
}

function taskAction(service: DemoService, id: string, action: string, body: BodyResult): Reply {
  if (action === 'complete') attempt(() => service.completeTask(id));
  else if (action === 'fail') {
    const { error } = parseWith(failSchema, parseJson(body, false));
    attempt(() => service.failTask(id, error));
  } else throw new ControlError('Unknown task action: use complete or fail.', 404);
  return jsonReply(
    200,
    service.tasks().find((task) => task.id === id),
  );
}

function post(service: DemoService, path: string, body: BodyResult): Reply {
  const [, id, action] = /^\/_demo\/tasks\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
  if (id && action) return taskAction(service, id, action, body);
  switch (path) {
    case '/_demo/tasks': {
      const { account, ...request } = parseWith(createTaskSchema, parseJson(body, true));
      return jsonReply(
        200,
        attempt(() => service.createTask(account, request)),
      );
    }
    case '/_demo/faults': {
      const value = parseJson(body, true);
      const rules = (Array.isArray(value) ? value : [value]).map((rule) =>
        attempt(() => parseFaultRule(rule)),
      );
      for (const rule of rules) service.addFault(rule);
      return jsonReply(200, { added: rules.length });
    }
    case '/_demo/expire-images':
      service.expireImages();
      return jsonReply(200, { ok: true });
    case '/_demo/credits': {
      const { account, credits } = parseWith(creditsSchema, parseJson(body, true));
      attempt(() => service.setCredits(account, credits ?? undefined));
      return jsonReply(200, { ok: true });
    }
    case '/_demo/revoke-key': {
      const { key } = parseWith(revokeKeySchema, parseJson(body, true));
      attempt(() => service.revokeKey(key));
      return jsonReply(200, { ok: true });
    }
    case '/_demo/settings': {
      const settings = parseWith(settingsSchema, parseJson(body, true));
      const { failureRate, durationMs, rateLimit, unknownStatusPolls } = settings;
      if (failureRate !== undefined) attempt(() => service.setFailureRate(failureRate));
      if (durationMs !== undefined) attempt(() => service.setDuration(durationMs));
      if (rateLimit !== undefined) attempt(() => service.setRateLimit(rateLimit));
      if (unknownStatusPolls !== undefined)
        attempt(() => service.setUnknownStatusPolls(unknownStatusPolls));
      return jsonReply(200, { ok: true });
    }
  }
  throw new ControlError('There is no control endpoint at this path.', 404);
}

const KNOWN_PATHS = [
  '/_demo/log',
  '/_demo/tasks',
  '/_demo/faults',
  '/_demo/expire-images',
  '/_demo/credits',
  '/_demo/revoke-key',
  '/_demo/settings',
  '/_demo/storage',
];

function route(service: DemoService, method: string, path: string, body: BodyResult): Reply {
  if (method === 'GET' && path === '/_demo/log') return jsonReply(200, service.log);
  if (method === 'GET' && path === '/_demo/tasks') return jsonReply(200, service.tasks());
  if (method === 'GET' && path === '/_demo/storage') return jsonReply(200, service.storage);
  if (method === 'DELETE' && path === '/_demo/faults') {
    service.clearFaults();
    return jsonReply(200, { ok: true });
  }
  if (method === 'POST') return post(service, path, body);
  if (KNOWN_PATHS.includes(path))
    throw new ControlError('This control endpoint does not accept this method.', 405);
  throw new ControlError('There is no control endpoint at this path.', 404);
}

/** Answers a `/_demo/*` request. */
export function handleControlCall(
  service: DemoService,
  method: string,
  path: string,
  body: BodyResult,
): Reply {
  try {
    return route(service, method, path, body);
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    const code =
      error.status === 404
        ? 'not_found'
        : error.status === 405
          ? 'method_not_allowed'
          : 'invalid_control_request';
    return errorReply(error.status, code, error.message);
  }
}
