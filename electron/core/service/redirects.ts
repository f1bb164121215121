/**
 * Which redirects the service client follows: only to where the key may go (under the base URL,
 * or a regional host of the profile at its own address), never one that would turn a submit into
 * another request, and a few at most. A refused redirect's target gets no request.
 */
import { discardBody } from './http-response';
import { keyMayGoTo } from './providers/api-origins';
import { redactText, type CheckedCredentials } from './request-guard';
import { errorForRedirect, type RedirectRefusal, type ServiceOperation } from './status-errors';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What the decision needs of the call the redirect answered. */
export interface RedirectingCall {
  readonly op: ServiceOperation;
  readonly credentials: CheckedCredentials;
  /** The key sent, then every other the process holds: scrubbed from a refusal's detail. */
  readonly keys: readonly string[];
  /** Regional host patterns where the key may go besides the base URL. */
  readonly regional: readonly string[];
  /** Redirects followed per request at most. */
  readonly maxRedirects: number;
}

/**
 * The next URL when `response` is a redirect Pictor follows, `null` when it is not a redirect.
 * @throws ServiceError when it is a redirect Pictor refuses (the target gets no request).
 */
export function redirectTarget(
  call: RedirectingCall,
  outgoing: { readonly method: string; readonly url: string },
  response: Response,
  hop: number,
): string | null {
  const location = response.headers.get('location');
  const opaque = response.type === 'opaqueredirect';
  if (!opaque && (!REDIRECT_STATUSES.has(response.status) || location === null)) return null;
  const refuse = (refusal: RedirectRefusal, detail: string): never => {
    discardBody(response);
    throw errorForRedirect(call.op, refusal, response.status, redactText(detail, call.keys));
  };
  if (opaque || location === null)
    return refuse('elsewhere', 'redirect to an address the transport did not show');
  let target: URL;
  try {
    target = new URL(location, outgoing.url);
  } catch {
    return refuse('elsewhere', `Location is not a valid URL: ${location}`);
  }
  const web = target.protocol === 'http:' || target.protocol === 'https:';
  const shown = `Location: ${web ? target.origin : target.protocol}`;
  if (!web || !keyMayGoTo(target, call.credentials.baseUrl, call.regional)) {
    return refuse('elsewhere', shown);
  }
  if (outgoing.method === 'POST' && response.status !== 307 && response.status !== 308) {
    return refuse('changes_method', shown);
  }
  if (hop >= call.maxRedirects)
    return refuse('too_many', `more than ${call.maxRedirects} redirects`);
  return target.href;
}

/**
 * Where a redirect points when the key may not go there (another origin, another scheme): its
 * origin or scheme, never its path or query; `null` when the transport hid the target or it is no
 * URL; `undefined` when `response` is no such redirect. "Test connection" names it instead of
 * failing on it.
 */
export function redirectedAway(
  call: Pick<RedirectingCall, 'credentials' | 'regional'>,
  fromUrl: string,
  response: Response,
): string | null | undefined {
  if (response.type === 'opaqueredirect') return null;
  const location = response.headers.get('location');
  if (!REDIRECT_STATUSES.has(response.status) || location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, fromUrl);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return target.protocol;
  return keyMayGoTo(target, call.credentials.baseUrl, call.regional) ? undefined : target.origin;
}
