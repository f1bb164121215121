/**
 * The service client's small parts (service-client.ts): what a call starts from (its checked
 * credentials, the keys its answers are searched for), option checks, the body limit of each
 * answer and how the answer worker reads it, the status a profile's own error kind stands for, a
 * request's body as `fetch` takes it (a submit's inline images streamed), the service's name.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import type { AnswerSpec } from './answer-protocol';
import type { Call, Outgoing } from './client-call';
import { regionalOriginsAt } from './providers/api-origins';
import { profileOf } from './providers/profiles';
import { checkCredentials } from './request-guard';
import { serviceNameAt } from './key-binding';
import { base64Length } from './inline-image';
import { MAX_STREAM_BYTES } from './held-reading';
import type { ProviderProfile, SentInputs } from './providers/provider-profile';
import type { ServiceErrorKind } from './service-error';

/**
 * What a call starts from, before anything is sent: its credentials checked (request-guard.ts),
 * its provider's profile, and the regional hosts where that profile's key may also go.
 * @throws ServiceError of kind `config`.
 */
export function callBasis(
  credentials: ServiceCredentials,
): Pick<Call, 'credentials' | 'profile' | 'regional'> {
  const checked = checkCredentials(credentials);
  const profile = profileOf(credentials.provider);
  return { credentials: checked, profile, regional: regionalOriginsAt(profile, checked.baseUrl) };
}

/**
 * What a call's answers and errors are searched for: the key it sends, then every other key the
 * process holds now (`held`, ServiceClientOptions.heldKeys). A key that cannot be read now is held
 * in no usable form, so a source that fails leaves the key sent alone. The list lives as long as
 * the call.
 */
export async function keysToFind(
  sent: string,
  held: (() => Promise<readonly string[]>) | undefined,
): Promise<readonly string[]> {
  if (!held) return [sent];
  const others = (await held().catch(() => [])).filter((key) => key !== '' && key !== sent);
  return [sent, ...new Set(others)];
}

/** The status a provider's own error kind stands for (see StatusAnswer.meaning). */
export const KIND_STATUS: Partial<Record<ServiceErrorKind, number>> = {
  auth: 401,
  credits: 402,
  not_found: 404,
  rate_limited: 429,
  bad_request: 400,
  server: 500,
};

/** `value`, or `fallback` when absent. @throws RangeError when it is negative or not finite. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative number.`);
  return value;
}

/**
 * The body limit of a profile's `answer`: `maxBytes`, larger by one inline image of `maxInline`
 * bytes in base64 where the profile says its images may come inline in that answer (a 1,024-pixel
 * PNG alone is over a megabyte), so no other answer can grow to tens of megabytes.
 */
function answerLimit(
  profile: ProviderProfile,
  answer: 'poll' | 'result',
  maxBytes: number,
  maxInline: number,
): number {
  return profile.inlineResults === answer ? maxBytes + base64Length(maxInline) : maxBytes;
}

/** The client's limits an answer is read within. */
export interface ReadingLimits {
  /** The usual answer limit (everything but inline payloads). */
  readonly maxBytes: number;
  /** The cap of one inline image, decoded. */
  readonly maxInlineBytes: number;
}

/**
 * How an accepted answer is read, once its status and headers are known: by the answer worker as
 * `spec` says, its body at most `maxBodyBytes`.
 */
export type AnswerReading = (response: Response) => {
  readonly spec: AnswerSpec;
  readonly maxBodyBytes: number;
};

/**
 * A task answer (a poll's or a result's) as the answer worker reads it: its inline payloads taken
 * out as they arrive where the profile says this answer may carry them; a poll whose profile
 * fetches results apart answers only whether to fetch them (`fetchesResult`).
 */
export function taskReading(
  profile: ProviderProfile,
  keys: readonly string[],
  limits: ReadingLimits,
  options: {
    readonly which: 'poll' | 'result';
    readonly fetchesResult: boolean;
    readonly taskId: string;
  },
): AnswerReading {
  const { which } = options;
  return (response) => ({
    spec: {
      kind: 'task',
      provider: profile.id,
      keys,
      maxBytes: limits.maxBytes,
      headers: [...response.headers],
      which,
      status: response.status,
      takeOut: profile.inlineResults === which,
      maxInlineBytes: limits.maxInlineBytes,
      mayFetchResult: options.fetchesResult,
      taskId: options.taskId,
    },
    maxBodyBytes: answerLimit(profile, which, limits.maxBytes, limits.maxInlineBytes),
  });
}

/**
 * A queue's answer (ComfyUI's `GET /queue`, asked on each poll of a waiting task) as the answer
 * worker reads it: a hostile queue of a megabyte is parsed there, never on main's thread.
 */
export function queueReading(
  call: Pick<Call, 'profile' | 'keys'>,
  limits: ReadingLimits,
  taskId: string,
): AnswerReading {
  return (response) => ({
    spec: {
      kind: 'queue',
      provider: call.profile.id,
      keys: call.keys,
      maxBytes: limits.maxBytes,
      headers: [...response.headers],
      taskId,
    },
    maxBodyBytes: limits.maxBytes,
  });
}

/**
 * A held wait's answer as the answer worker reads it (held-reading.ts): a held poll's within the
 * usual limit, `maxBytes` (no inline payload is taken out of it), a status stream's within its own
 * bound.
 */
export function heldReading(
  call: Pick<Call, 'profile' | 'keys'>,
  maxBytes: number,
  answer: 'answer' | 'events',
  taskId: string,
): AnswerReading {
  return (response) => ({
    spec: {
      kind: 'held',
      provider: call.profile.id,
      keys: call.keys,
      maxBytes,
      headers: [...response.headers],
      answer,
      taskId,
    },
    maxBodyBytes: answer === 'events' ? MAX_STREAM_BYTES : maxBytes,
  });
}

/** A submit's answer as the answer worker reads it (never an inline payload: the usual limit). */
export function submitReading(
  profile: ProviderProfile,
  keys: readonly string[],
  limits: ReadingLimits,
): AnswerReading {
  return (response) => ({
    spec: {
      kind: 'submit',
      provider: profile.id,
      keys,
      maxBytes: limits.maxBytes,
      headers: [...response.headers],
    },
    maxBodyBytes: limits.maxBytes,
  });
}

/**
 * A request's body as `fetch` takes it: its text, or a new stream of a streamed body's bytes (each
 * request sending it opens it again: a redirect followed), its length said up front.
 */
export function bodyInit(body: Outgoing['body'], headers: Record<string, string>) {
  if (typeof body !== 'object') return { body };
  headers['Content-Length'] = String(body.length);
  return { body: body.open(), duplex: 'half' } as const;
}

/** `outgoing` with its JSON text made into the body `sent` streams (a submit's inline images). */
export function streamedOf(outgoing: Outgoing, sent: SentInputs | undefined): Outgoing {
  const { body } = outgoing;
  return sent?.body && typeof body === 'string' ? { ...outgoing, body: sent.body(body) } : outgoing;
}

/** The service as a sentence names it: its provider's name, or (today's contract) its address. */
export function nameOf(call: Call): string {
  return serviceNameAt(call.profile.facts, call.credentials.baseUrl);
}
