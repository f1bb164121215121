/**
 * What an answered request that is not a usable 200 means for the user. The spec shows no
 * error statuses or bodies, so common HTTP meanings are used and the server's own words are
 * kept (cleaned) for the message and the detail.
 */
import { cleanText, describeServiceError } from '../../../shared/service/wire';
import { bodyExcerpt, parseJson } from './http-response';
import { describeWait, parseRetryAfter } from './retry-after';
import { ServiceError } from './service-error';

/** Which call failed: the submit (outcome matters, never resent) or a task query (repeatable). */
export type ServiceOperation = 'submit' | 'query';

/** A non-200 answer, its body already read (possibly partial) and scrubbed of the key. */
export interface StatusAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly body: string;
  readonly retryAfter: string | null;
}

const SERVER_MESSAGE_IN_SENTENCE = 200;

/** The server's own explanation: the `error` of a JSON body in any shape, else the body's text. */
export function serverMessage(body: string): string {
  const parsed = parseJson(body);
  if (parsed.ok && parsed.value !== null && typeof parsed.value === 'object') {
    const described = describeServiceError(parsed.value);
    if (described) return described;
  } else if (parsed.ok && (typeof parsed.value === 'string' || typeof parsed.value === 'number')) {
    return describeServiceError(parsed.value);
  }
  return body.trim() === '' ? '' : bodyExcerpt(body);
}

function withoutFinalStop(text: string): string {
  return text.replace(/[.!\s]+$/, '');
}

function statusDetail(answer: StatusAnswer, message: string): string {
  const line = cleanText(`HTTP ${answer.status} ${answer.statusText}`);
  return message
    ? `${line}; server said: ${message}`
    : `${line}; body: ${bodyExcerpt(answer.body)}`;
}

function waitClause(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined
    ? ''
    : ` and asked Pictor to wait ${describeWait(retryAfterMs)}`;
}

function messageFor(
  op: ServiceOperation,
  status: number,
  said: string,
  retryAfterMs: number | undefined,
): string {
  const query = op === 'query';
  if (status === 401 || status === 403) {
    return `The service refused the API key (${status}). Check the key in Settings${
      query ? '; a task can only be read with a key of the account that created it' : ''
    }.`;
  }
  if (status === 402) {
    return "The account has run out of credits (402). Add credits in the service's billing console, then try again.";
  }
  if (status === 404) {
    return query
      ? 'The service does not know this task (404). It may have expired, or it was created with another account.'
      : 'The service has no image generation at this address (404). Check the service URL in Settings.';
  }
  if (status === 408) {
    return `The service gave up waiting for the request (408). ${query ? 'Pictor asks again later.' : 'Try again in a moment.'}`;
  }
  if (status === 429) {
    return `The service is busy (429)${waitClause(retryAfterMs)}. ${query ? 'Pictor keeps the task and asks again then.' : 'Try again then.'}`;
  }
  if (status >= 500) {
    return `The service had a problem on its side (${status})${waitClause(retryAfterMs)}. This is usually temporary; ${
      query ? 'Pictor keeps the task and asks again later.' : 'try again in a few minutes.'
    }`;
  }
  const reason = said ? `: ${withoutFinalStop(cleanText(said, SERVER_MESSAGE_IN_SENTENCE))}` : '';
  return query
    ? `The service rejected the task query (${status})${reason}.`
    : `The service rejected the request (${status})${reason}. Check the prompt and its options, then try again.`;
}

function kindFor(status: number): ServiceError['kind'] {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'credits';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500 && status <= 599) return 'server';
  if (status >= 400 && status <= 499) return 'bad_request';
  return 'protocol';
}

/**
 * The error for an answered request whose status is not 200. The spec counts every non-200
 * as a failed request, so nothing was acted on (`mayHaveReachedService: false`), except a
 * 2xx other than 200, which may well have created something.
 */
export function errorForStatus(
  op: ServiceOperation,
  answer: StatusAnswer,
  now: number,
): ServiceError {
  const { status } = answer;
  if (status >= 200 && status <= 299) return unexpectedSuccess(op, answer);
  const kind = kindFor(status);
  const said = serverMessage(answer.body);
  const retryAfterMs =
    kind === 'rate_limited' || kind === 'server'
      ? parseRetryAfter(answer.retryAfter, now)
      : undefined;
  const message =
    kind === 'protocol'
      ? `The service answered with an unexpected status (${status}). ${retryLater(op)}`
      : messageFor(op, status, said, retryAfterMs);
  return new ServiceError({
    kind,
    message,
    detail: statusDetail(answer, said),
    httpStatus: status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    mayHaveReachedService: false,
  });
}

function retryLater(op: ServiceOperation): string {
  return op === 'query' ? 'Pictor keeps the task and asks again later.' : 'Try again later.';
}

/** What a submit whose outcome is unknown tells the user. */
const SUBMIT_UNKNOWN = 'The task may have been created; Pictor does not send it again on its own.';

function unexpectedSuccess(op: ServiceOperation, answer: StatusAnswer): ServiceError {
  const message =
    op === 'submit'
      ? `The service answered ${answer.status} instead of 200, which counts as a failed request. ${SUBMIT_UNKNOWN}`
      : `The service answered ${answer.status} instead of 200 with the task. ${retryLater(op)}`;
  return new ServiceError({
    kind: 'protocol',
    message,
    detail: statusDetail(answer, ''),
    httpStatus: answer.status,
    mayHaveReachedService: true,
  });
}

/** A 200 whose body Pictor cannot use: the service acted, but the answer is lost. */
export function errorForBadBody(op: ServiceOperation, detail: string): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: `The service answered with something Pictor could not read. ${op === 'submit' ? SUBMIT_UNKNOWN : retryLater(op)}`,
    detail,
    httpStatus: 200,
    mayHaveReachedService: true,
  });
}

/** A 200 larger than the cap: refused unread. */
export function errorForTooLarge(op: ServiceOperation, maxBytes: number): ServiceError {
  return errorForBadBody(
    op,
    `HTTP 200 body larger than ${maxBytes} bytes; Pictor stopped reading it.`,
  );
}

/** Why a redirect was not followed. */
export type RedirectRefusal = 'elsewhere' | 'too_many' | 'changes_method';

/**
 * A redirect Pictor will not follow. The other address got no request: the key only ever
 * goes to the origin of the configured service URL.
 */
export function errorForRedirect(
  op: ServiceOperation,
  refusal: RedirectRefusal,
  status: number,
  detail: string,
): ServiceError {
  const messages: Record<RedirectRefusal, string> = {
    elsewhere:
      'The service redirected the request to another address, and Pictor did not send the key there. Check the service URL in Settings.',
    too_many:
      'The service kept redirecting the request, so Pictor stopped and did not send the key any further. Check the service URL in Settings.',
    changes_method: `The service answered the submit with a redirect (${status}) that would drop the request, so Pictor did not follow it. Check the service URL in Settings.`,
  };
  return new ServiceError({
    kind: 'protocol',
    message: messages[refusal],
    detail: cleanText(`HTTP ${status}; ${detail}`),
    ...(status > 0 ? { httpStatus: status } : {}),
    // 303 answers a POST that was handled ("see the result elsewhere"): the task may exist.
    mayHaveReachedService: op === 'submit' && status === 303,
  });
}
