/**
 * What an answered request that is not a usable 200 means for the user. The spec shows no
 * error statuses or bodies, so common HTTP meanings are used and the server's own words are
 * kept (cleaned) for the message and the detail.
 */
import type { MainParams } from '../../../shared/i18n/main-catalogue';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { cleanText, describeServiceError } from '../../../shared/service/wire';
import { bodyExcerpt, parseJson } from './http-response';
import { parseRetryAfter, waitAmount } from './retry-after';
import { ServiceError } from './service-error';

/** Which call failed: the submit (outcome matters, never resent) or a task query (repeatable). */
export type ServiceOperation = 'submit' | 'query';

/** The sentence for `op`: each failure has one for a submit and one for a query. */
export function sentenceFor(
  op: ServiceOperation,
  submit: MainMessageKey,
  query: MainMessageKey,
  params?: MainParams,
): Sentence {
  return sentence(op === 'submit' ? submit : query, params);
}

/** A non-200 answer, its body already read (possibly partial) and scrubbed of the key. */
export interface StatusAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly body: string;
  readonly retryAfter: string | null;
  /**
   * The status a provider's own answer stands for (DashScope's 400 `Arrearage` is a 402): the
   * kind and the sentence follow it, `httpStatus` stays the one sent.
   */
  readonly meaning?: number;
}

const SERVER_MESSAGE_IN_SENTENCE = 200;

/** The server's own explanation: the `error` of a JSON body in any shape, else the body's text. */
function serverMessage(body: string): string {
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

function rejected(op: ServiceOperation, status: string, said: string): Sentence {
  const query = op === 'query';
  if (!said)
    return sentence(query ? 'error.service.rejectedQuery' : 'error.service.rejectedSubmit', {
      status,
    });
  const reason = withoutFinalStop(cleanText(said, SERVER_MESSAGE_IN_SENTENCE));
  return sentence(
    query ? 'error.service.rejectedQueryReason' : 'error.service.rejectedSubmitReason',
    {
      status,
      reason,
    },
  );
}

/** A busy (429) or troubled (5xx) service, with the wait it asked for when it gave one. */
function overloaded(
  op: ServiceOperation,
  status: number,
  retryAfterMs: number | undefined,
): Sentence {
  const query = op === 'query';
  if (status === 429) {
    if (retryAfterMs === undefined)
      return sentence(query ? 'error.service.busyQuery' : 'error.service.busySubmit');
    return sentence(
      query ? 'error.service.busyWaitQuery' : 'error.service.busyWaitSubmit',
      waitAmount(retryAfterMs),
    );
  }
  const code = String(status);
  if (retryAfterMs === undefined) {
    return sentence(
      query ? 'error.service.serverTroubleQuery' : 'error.service.serverTroubleSubmit',
      { status: code },
    );
  }
  return sentence(
    query ? 'error.service.serverTroubleWaitQuery' : 'error.service.serverTroubleWaitSubmit',
    { status: code, ...waitAmount(retryAfterMs) },
  );
}

function messageFor(
  op: ServiceOperation,
  status: number,
  said: string,
  retryAfterMs: number | undefined,
): Sentence {
  const query = op === 'query';
  const code = String(status);
  if (status === 401 || status === 403) {
    return sentence(query ? 'error.service.authRefusedQuery' : 'error.service.authRefusedSubmit', {
      status: code,
    });
  }
  if (status === 402) return sentence('error.service.noCredits');
  if (status === 404) {
    return sentence(query ? 'error.service.taskUnknown' : 'error.service.noGenerationHere');
  }
  if (status === 408) {
    return sentence(
      query ? 'error.service.gaveUpWaitingQuery' : 'error.service.gaveUpWaitingSubmit',
    );
  }
  if (status === 429 || status >= 500) return overloaded(op, status, retryAfterMs);
  return rejected(op, code, said);
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
  const status = answer.meaning ?? answer.status;
  if (status >= 200 && status <= 299) return unexpectedSuccess(op, answer);
  const kind = kindFor(status);
  const said = serverMessage(answer.body);
  const retryAfterMs =
    kind === 'rate_limited' || kind === 'server'
      ? parseRetryAfter(answer.retryAfter, now)
      : undefined;
  const message =
    kind === 'protocol'
      ? sentenceFor(
          op,
          'error.service.unexpectedStatusSubmit',
          'error.service.unexpectedStatusQuery',
          { status: String(status) },
        )
      : messageFor(op, status, said, retryAfterMs);
  return new ServiceError({
    kind,
    message,
    detail: statusDetail(answer, said),
    httpStatus: answer.status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    mayHaveReachedService: false,
  });
}

function unexpectedSuccess(op: ServiceOperation, answer: StatusAnswer): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentenceFor(op, 'error.service.not200Submit', 'error.service.not200Query', {
      status: String(answer.status),
    }),
    detail: statusDetail(answer, ''),
    httpStatus: answer.status,
    mayHaveReachedService: true,
  });
}

/** A 200 whose body Pictor cannot use: the service acted, but the answer is lost. */
export function errorForBadBody(op: ServiceOperation, detail: string): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentenceFor(op, 'error.service.unreadableSubmit', 'error.service.unreadableQuery'),
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
  const messages: Record<RedirectRefusal, Sentence> = {
    elsewhere: sentence('error.service.redirectElsewhere'),
    too_many: sentence('error.service.redirectTooMany'),
    changes_method: sentence('error.service.redirectDropsSubmit', { status: String(status) }),
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
