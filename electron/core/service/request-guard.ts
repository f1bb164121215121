/**
 * What is checked before the key leaves the process, and the last line of defence after:
 * the key's text is scrubbed from anything that becomes an error, whatever the server echoed.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import { parseJson } from './http-response';
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

/** Keys shorter than this would redact ordinary words; such a key is refused by the service anyway. */
const MIN_REDACTED_LENGTH = 4;
export const REDACTED = '[redacted]';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** The key as an HTML error page shows it (both common spellings of the apostrophe). */
function htmlForms(key: string): string[] {
  const escaped = key.replace(/[&<>"]/g, (char) => HTML_ESCAPES[char] ?? char);
  return [escaped.replace(/'/g, '&#39;'), escaped.replace(/'/g, '&#x27;')];
}

/** The forms in which a server may echo the key: as is, JSON-, HTML- or percent-escaped. */
function keyForms(key: string): string[] {
  if (key.length < MIN_REDACTED_LENGTH) return [];
  const forms = new Set([
    key,
    JSON.stringify(key).slice(1, -1),
    // PHP's json_encode writes `/` as `\/` (base64 keys have slashes).
    JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
    encodeURIComponent(key),
    ...htmlForms(key),
  ]);
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of the key in `text` with `[redacted]`. */
export function redactText(text: string, key: string): string {
  let result = text;
  for (const form of keyForms(key)) result = result.split(form).join(REDACTED);
  return result;
}

const NESTED_TOO_DEEP = '(nested too deeply to show)';

/** Redacts every string inside a parsed JSON value (before it is shortened, so no partial key survives). */
export function redactValue(value: unknown, key: string, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, key);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any error shape: dropped, not passed on unchecked (a key may be a name there).
  if (depth > 8) return NESTED_TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, key, depth + 1));
  // fromEntries defines own properties, so a "__proto__" key from the network stays plain data.
  // Names too: an error object that fits no known shape is shown as JSON, names and all.
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      redactText(name, key),
      redactValue(item, key, depth + 1),
    ]),
  );
}

/**
 * An error body with the key scrubbed, also from inside a JSON body's strings: a server may
 * escape the key (`\u0073k-…`, `\/`), and the parsed message would carry it again, perhaps
 * cut short by the message's length limit where no later redaction can find it.
 */
export function redactBody(text: string, key: string): string {
  const scrubbed = redactText(text, key);
  const parsed = parseJson(scrubbed);
  if (!parsed.ok) return scrubbed;
  try {
    const redacted = JSON.stringify(redactValue(parsed.value, key));
    return redacted === JSON.stringify(parsed.value) ? scrubbed : redacted;
  } catch {
    // Too deep to write back: not shown at all rather than shown unchecked.
    return '(an error body nested too deeply to show)';
  }
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
  });
}
