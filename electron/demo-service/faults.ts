import { z } from 'zod';
import type { Reply } from './http-reply';
import { errorReply } from './http-reply';
import type { FaultEffect, FaultRoute, FaultRule } from './types';
import { seededRandom } from './prng';

// Not an ES import: that would load Node's bundled undici (see core/download/pinned-fetch.ts).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

const effectSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('status'),
    status: z.number().int().min(200).max(599),
    retryAfter: z.union([z.number().int().min(0), z.literal('http-date')]).optional(),
    body: z.enum(['json', 'html', 'empty', 'text']).optional(),
  }),
  z.object({ type: z.literal('reset') }),
  z.object({ type: z.literal('reset-after-accepting') }),
  z.object({ type: z.literal('truncate') }),
  z.object({ type: z.literal('delay'), ms: z.number().int().min(0).max(600_000) }),
  z.object({ type: z.literal('hang') }),
  z.object({
    type: z.literal('body'),
    status: z.number().int().min(200).max(599).optional(),
    contentType: z.string().min(1).optional(),
    body: z.string(),
    /** A redirect's target (a 3xx status). */
    location: z.string().url().optional(),
  }),
]);

/** A {@link FaultRule} as it may arrive from a test or over the control API. */
const faultRuleSchema = z.object({
  route: z.enum(['submit', 'poll', 'image', 'cancel', 'schema']),
  effect: effectSchema,
  times: z.number().int().min(1).optional(),
  probability: z.number().min(0).max(1).optional(),
  taskId: z.string().min(1).optional(),
});

/** Checks a fault rule; throws an Error naming what is wrong. */
export function parseFaultRule(rule: unknown): FaultRule {
  const result = faultRuleSchema.safeParse(rule);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new Error(`The fault rule is not valid${where}: ${issue?.message ?? 'unknown problem'}.`);
  }
  return result.data as FaultRule;
}

/** The scripted faults, matched in the order they were added. */
export class FaultBook {
  private rules: { rule: FaultRule; left: number }[] = [];
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed ^ 0x5eed);
  }

  add(rule: FaultRule): void {
    const checked = parseFaultRule(rule);
    this.rules.push({ rule: checked, left: checked.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.rules = [];
  }

  /**
   * The effect for this request, or undefined. A rule whose probability draw fails lets the
   * next rules try; a rule is used up when its `times` reach 0.
   */
  take(route: FaultRoute, taskId: string | undefined): FaultEffect | undefined {
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.route !== route || (rule.taskId !== undefined && rule.taskId !== taskId)) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      entry.left -= 1;
      if (entry.left <= 0) this.rules = this.rules.filter((other) => other !== entry);
      return rule.effect;
    }
    return undefined;
  }
}

const STATUS_ERRORS: Record<number, { code: string; message: string }> = {
  400: { code: 'bad_request', message: 'The request could not be understood by the server.' },
  401: {
    code: 'invalid_api_key',
    message: 'The API key is not valid. Check the key, or create a new one in the key console.',
  },
  402: {
    code: 'insufficient_credits',
    message:
      'Your account has no credits left. Add credits in the billing console, then try again.',
  },
  403: { code: 'forbidden', message: 'This key is not allowed to perform this request.' },
  404: { code: 'not_found', message: 'The requested resource was not found.' },
  408: {
    code: 'request_timeout',
    message: 'The server timed out waiting for the request. Try again.',
  },
  409: {
    code: 'conflict',
    message: 'The request conflicts with the current state of the resource.',
  },
  429: {
    code: 'rate_limit_exceeded',
    message: 'You are sending requests too quickly. Wait a moment, then try again.',
  },
  500: {
    code: 'internal_error',
    message: 'The server had an error while processing your request. Try again later.',
  },
  502: {
    code: 'bad_gateway',
    message: 'The upstream server returned an invalid response. Try again in a few seconds.',
  },
  503: {
    code: 'service_unavailable',
    message: 'The service is temporarily overloaded. Try again in a few seconds.',
  },
  504: {
    code: 'gateway_timeout',
    message: 'The upstream server did not answer in time. Try again in a few seconds.',
  },
};

function statusError(status: number): { code: string; message: string } {
  return (
    STATUS_ERRORS[status] ?? {
      code: `http_${status}`,
      message: `The server answered with status ${status}.`,
    }
  );
}

/** An error page as an nginx proxy in front of the service sends it. */
function proxyErrorPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return (
    '<!DOCTYPE html>\r\n<html>\r\n' +
    `<head><title>${title}</title></head>\r\n` +
    `<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n`
  );
}

/** Retry-After in whole seconds, or as an HTTP-date at least 2 s ahead of the service's clock. */
function retryAfterHeader(retryAfter: number | 'http-date', now: () => number): string {
  if (retryAfter !== 'http-date') return String(retryAfter);
  return new Date(Math.ceil((now() + 2000) / 1000) * 1000).toUTCString();
}

/** The answer of a `status` fault. */
export function statusFaultReply(
  effect: Extract<FaultEffect, { type: 'status' }>,
  now: () => number = Date.now,
): Reply {
  const headers: Record<string, string> = {};
  if (effect.retryAfter !== undefined)
    headers['Retry-After'] = retryAfterHeader(effect.retryAfter, now);
  const { code, message } = statusError(effect.status);
  switch (effect.body ?? 'json') {
    case 'json':
      return errorReply(effect.status, code, message, { headers });
    case 'html':
      return {
        status: effect.status,
        headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8', Server: 'nginx/1.24.0' },
        body: Buffer.from(proxyErrorPage(effect.status)),
      };
    case 'text':
      return {
        status: effect.status,
        headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
        body: Buffer.from(`${STATUS_CODES[effect.status] ?? 'Error'}\n`),
      };
    case 'empty':
      return { status: effect.status, headers, body: Buffer.alloc(0) };
  }
}

/** The answer of a `body` fault: exactly what the rule says. */
export function bodyFaultReply(effect: Extract<FaultEffect, { type: 'body' }>): Reply {
  return {
    status: effect.status ?? 200,
    headers: {
      'Content-Type': effect.contentType ?? 'application/json',
      ...(effect.location === undefined ? {} : { Location: effect.location }),
    },
    body: Buffer.from(effect.body),
  };
}
