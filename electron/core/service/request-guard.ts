/**
 * What is checked before the key leaves the process, and the last line of defence after:
 * the key's text is scrubbed from anything that becomes an error, whatever the server echoed.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import { scrubKey } from './key-echo';
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

function configError(message: string): ServiceError {
  return new ServiceError({ kind: 'config', message, mayHaveReachedService: false });
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
    if (error instanceof UrlPolicyError) throw configError(`${error.message} Fix it in Settings.`);
    throw configError('The service URL is not a valid URL. Fix it in Settings.');
  }
  const key = typeof credentials.key === 'string' ? credentials.key.trim() : '';
  if (key === '') throw configError('No API key is set. Add your key in Settings.');
  if (!SENDABLE_KEY.test(key)) {
    throw configError(
      'The API key contains characters that cannot be sent (spaces, line breaks or non-ASCII letters). Paste the key again in Settings.',
    );
  }
  return { baseUrl, key };
}

/**
 * `text` with every echo of the key scrubbed: as is, escaped, percent- or entity-encoded, as
 * UTF-16, base64, hex, with invisible characters between its letters, or a run of 12 of its
 * characters (see key-echo.ts). Short keys (under 4 characters) are left alone.
 */
export function redactText(text: string, key: string): string {
  return scrubKey(text, key);
}

/**
 * An error body with the key scrubbed. The text is searched as written and with its JSON
 * escapes undone, without parsing it: a body nested 10,000 levels deep is read like a flat one
 * (a depth limit that gave up used to report such a body as carrying the key). An echo inside a
 * JSON string is replaced inside that string, so the body still parses afterwards.
 */
export function redactBody(text: string, key: string): string {
  return scrubKey(text, key);
}

/** A copy of `error` whose message and detail cannot contain the key. */
export function redactError(error: ServiceError, key: string): ServiceError {
  return new ServiceError({
    kind: error.kind,
    message: redactText(error.message, key),
    ...(error.detail === undefined ? {} : { detail: redactText(error.detail, key) }),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    mayHaveReachedService: error.mayHaveReachedService,
    refusedAnswer: error.refusedAnswer,
  });
}
