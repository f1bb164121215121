/**
 * What is checked before the key leaves the process, and the last line of defence after:
 * the key's text is scrubbed from anything that becomes an error, whatever the server echoed.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import { worksWithoutKey } from '../../../shared/domain/providers';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { scrubKey, type SecretKeys } from '../secrets';
import { ServiceError } from './service-error';
import { UrlPolicyError, checkBaseUrl } from './url-policy';

/** Credentials that passed the checks: a normalised base URL and a sendable key. */
export interface CheckedCredentials {
  readonly baseUrl: string;
  readonly key: string;
}

/**
 * Bearer tokens are visible ASCII without spaces (RFC 6750 b64token is narrower still); a
 * space, line break or non-ASCII letter is a paste accident and would break or split the header.
 */
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

function configError(message: Sentence): ServiceError {
  return new ServiceError({ kind: 'config', message, mayHaveReachedService: false });
}

/** Each fault of the service URL (url-policy.ts's sentences), told to fix it in Settings. */
const FIX_IN_SETTINGS: Partial<Record<MainMessageKey, MainMessageKey>> = {
  'error.service.serviceUrlInvalid': 'error.service.serviceUrlInvalidFix',
  'error.service.serviceUrlCredentials': 'error.service.serviceUrlCredentialsFix',
  'error.service.serviceUrlPlainHttp': 'error.service.serviceUrlPlainHttpFix',
  'error.service.serviceUrlScheme': 'error.service.serviceUrlSchemeFix',
  'error.service.serviceUrlQuery': 'error.service.serviceUrlQueryFix',
  'error.service.serviceUrlDotSegment': 'error.service.serviceUrlDotSegmentFix',
};

function urlFault(error: unknown): Sentence {
  const said = error instanceof UrlPolicyError ? error.sentence : undefined;
  const fix = said ? FIX_IN_SETTINGS[said.key] : undefined;
  return fix ? sentence(fix, said?.params) : sentence('error.service.serviceUrlInvalidFix');
}

/**
 * Checks the base URL (url-policy) and the key before any request.
 * @throws ServiceError of kind `config`; nothing has been sent.
 */
export function checkCredentials(credentials: ServiceCredentials): CheckedCredentials {
  let baseUrl: string;
  try {
    baseUrl = checkBaseUrl(credentials.baseUrl);
  } catch (error) {
    throw configError(urlFault(error));
  }
  const key = typeof credentials.key === 'string' ? credentials.key.trim() : '';
  if (key === '') {
    // A local engine takes no key: its requests go without one (its profile sends no header).
    if (worksWithoutKey(credentials.provider)) return { baseUrl, key };
    throw configError(sentence('error.service.noKey'));
  }
  if (!SENDABLE_KEY.test(key)) throw configError(sentence('error.service.keyUnsendable'));
  return { baseUrl, key };
}

/**
 * `text` with every echo of each of `keys` scrubbed (the key sent, and every other the process
 * holds: see ServiceClientOptions.heldKeys): as is, escaped, percent- or entity-encoded, as
 * UTF-16, base64, hex, with invisible characters between its letters, or a run of 12 of its
 * characters (see key-echo.ts). Short keys (under 4 characters) are left alone.
 */
export function redactText(text: string, keys: SecretKeys): string {
  return scrubKey(text, keys);
}

/**
 * An error body with the key scrubbed. The text is searched as written and with its JSON
 * escapes undone, without parsing it: a body nested 10,000 levels deep is read like a flat one
 * (a depth limit that gave up used to report such a body as carrying the key). An echo inside a
 * JSON string is replaced inside that string, so the body still parses afterwards.
 */
export function redactBody(text: string, keys: SecretKeys): string {
  return scrubKey(text, keys);
}

/** `said` with the key scrubbed from each of its text values (server words, addresses). */
function redactSentence(said: Sentence, keys: SecretKeys): Sentence {
  if (said.params === undefined) return said;
  const params = Object.fromEntries(
    Object.entries(said.params).map(([name, value]) => [
      name,
      typeof value === 'string' ? redactText(value, keys) : value,
    ]),
  );
  return sentence(said.key, params);
}

/**
 * What a redacted error says: its sentence with the values scrubbed (the English text, the
 * message, follows from them), or the scrubbed text when there is no sentence, or when the
 * key would still show across a value and the words around it.
 */
function redactedMessage(error: ServiceError, keys: SecretKeys): string | Sentence {
  const said = error.sentence ? redactSentence(error.sentence, keys) : undefined;
  if (said) {
    const text = englishText(said);
    if (redactText(text, keys) === text) return said;
  }
  return redactText(error.message, keys);
}

/** A copy of `error` whose message and detail cannot contain any of `keys`. */
export function redactError(error: ServiceError, keys: SecretKeys): ServiceError {
  return new ServiceError({
    kind: error.kind,
    message: redactedMessage(error, keys),
    ...(error.detail === undefined ? {} : { detail: redactText(error.detail, keys) }),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    mayHaveReachedService: error.mayHaveReachedService,
    refusedAnswer: error.refusedAnswer,
    ...(error.transport === undefined ? {} : { transport: error.transport }),
    ...(error.offline ? { offline: true } : {}),
  });
}
