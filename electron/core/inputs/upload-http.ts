/**
 * The two kinds of request an upload makes, kept apart so the key cannot cross from one to the
 * other:
 * - a keyed request to the service's upload endpoint (fal's initiate, Replicate's files,
 *   DashScope's policy), only where the key may go: under the base URL, or at the profile's own
 *   address the endpoint's listed origins; never redirected;
 * - a signed request to the target the service answered with (fal's `upload_url`, DashScope's
 *   `upload_host`): no key, no Authorization header, and the address must pass the policy image
 *   links pass (url-policy.ts: no private or special address, loopback only beside a loopback
 *   service). Its name is resolved once, every address checked, and the connection pinned to a
 *   checked one (download/pinned-fetch.ts, direct, never through a proxy), as image downloads
 *   are: a second DNS answer cannot send the user's image to this computer or their network.
 * Both read their answers with a size limit, follow no redirect, and fail with sentences that
 * never hold the key. An image goes as a body streamed from the input store's file (upload-body.ts),
 * its length said up front; a file changed on disk stops it before its end, and the upload fails
 * with the store's refusal, not as a network fault.
 */
import { isIP } from 'node:net';
import type { FetchLike, PinnedFetch, ResolvedAddress, Resolver } from '../../ports/http';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import {
  checkImageUrl,
  checkResolvedAddresses,
  discardBody,
  hasHiddenDotSegment,
  hostOf,
  isUnderBase,
  normalisePercentEncoding,
  parseJson,
  raceAbort,
  readBodyText,
  ServiceError,
  type ServiceErrorKind,
  UrlPolicyError,
} from '../service';
import { carriesKey, scrubKey } from '../secrets';
import type { UploadBody } from './upload-body';

/** The most an upload endpoint's or a signed target's answer may weigh. */
export const MAX_UPLOAD_ANSWER_BYTES = 64 * 1024;

/** One upload's network: whose key, where it may go, and how the service is named. */
export interface UploadCall {
  /** The service's own transport (proxies honoured): keyed requests only. */
  readonly fetch: FetchLike;
  /** The signed targets' transport: to the address checked, never resolving the name again. */
  readonly signedFetch: PinnedFetch;
  /** How a signed target's name resolves, asked once per request. */
  readonly resolve: Resolver;
  /** The checked base URL (checkBaseUrl's spelling). */
  readonly baseUrl: string;
  readonly key: string;
  /**
   * What answers are searched for: the key sent, then every other key the process holds
   * (keysToFind); the key sent alone when absent. A service may echo any key it learnt.
   */
  readonly secrets?: readonly string[];
  /** The key's header(s) as the profile sends them. */
  readonly authHeaders: Readonly<Record<string, string>>;
  /** Origins besides the base URL the key may reach (the profile's own address only). */
  readonly keyOrigins: readonly string[];
  /** The service as sentences name it. */
  readonly service: string;
  readonly signal: AbortSignal;
}

/**
 * A request of an upload: its method, address, headers (never the key's) and body: text, or an
 * image streamed from its file (its Content-Type and Content-Length go with it).
 */
export interface UploadRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | UploadBody;
}

/** The body as `fetch` takes it: text, or a new stream of the file's bytes with its length. */
function bodyInit(body: UploadRequest['body'], headers: Record<string, string>) {
  if (body === undefined) return {};
  if (typeof body === 'string') return { body };
  headers['Content-Type'] = body.contentType;
  headers['Content-Length'] = String(body.length);
  return { body: body.open(), duplex: 'half' } as const;
}

function failure(kind: ServiceErrorKind, said: Sentence, detail?: string, status?: number) {
  return new ServiceError({
    kind,
    message: said,
    mayHaveReachedService: false,
    ...(detail === undefined ? {} : { detail }),
    ...(status === undefined ? {} : { httpStatus: status }),
  });
}

/** The error of an upload answer that is not a usable one. */
export function badAnswer(call: UploadCall, detail: string): ServiceError {
  return failure(
    'protocol',
    sentence('error.inputs.uploadAnswer', { service: call.service }),
    detail,
  );
}

/** Whether the key may go to `url`: under the base URL, or https at one of `keyOrigins`. */
export function keyMayReach(url: string, baseUrl: string, keyOrigins: readonly string[]): boolean {
  if (isUnderBase(url, baseUrl)) return true;
  const parsed = URL.parse(url);
  if (parsed === null) return false;
  return (
    parsed.protocol === 'https:' &&
    keyOrigins.includes(parsed.origin) &&
    !parsed.username &&
    !parsed.password &&
    !hasHiddenDotSegment(normalisePercentEncoding(parsed.pathname))
  );
}

function statusKind(status: number): ServiceErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** One of the two transports, the request's address already bound. */
type Send = (init: RequestInit) => Promise<Response>;

async function exchange(
  call: UploadCall,
  request: UploadRequest,
  headers: Record<string, string>,
  send: Send,
) {
  const sent = { ...headers };
  const pending = Promise.resolve().then(() =>
    send({
      method: request.method,
      ...bodyInit(request.body, sent),
      headers: sent,
      redirect: 'manual',
      signal: call.signal,
    }),
  );
  // The store's refusal (a file changed on disk while it was sent) says why the request failed.
  const stopped = () => (typeof request.body === 'object' ? request.body.failure : undefined);
  let response: Response;
  try {
    response = await raceAbort(pending, call.signal);
  } catch (error) {
    if (call.signal.aborted) throw error;
    if (stopped() !== undefined) throw stopped();
    // A refusal before sending (core/service/local-server-gate.ts) keeps its own words.
    if (error instanceof ServiceError) throw error;
    throw failure(
      'network',
      sentence('error.inputs.uploadNetwork', { service: call.service }),
      error instanceof Error ? error.message : undefined,
    );
  }
  const read = await readBodyText(response, MAX_UPLOAD_ANSWER_BYTES, call.signal);
  // An answer to a body that never reached its end is no upload, whatever it says.
  if (stopped() !== undefined) throw stopped();
  if (response.status < 200 || response.status > 299) {
    if (response.status >= 300 && response.status < 400) discardBody(response);
    throw failure(
      statusKind(response.status),
      sentence('error.inputs.uploadRejected', { service: call.service, status: response.status }),
      // Scrubbed before it is cut: a key cut in two at the edge would no longer be found.
      scrubKey(read.text, call.secrets ?? call.key).slice(0, 500),
      response.status,
    );
  }
  if (read.outcome !== 'complete') throw badAnswer(call, `The answer was ${read.outcome}.`);
  // What an upload answers becomes the link sent with the task (and, for a while, a line of the
  // upload memory's file): one that carries the key, in any encoding, is refused whole.
  if (carriesKey(read.text, call.secrets ?? call.key))
    throw badAnswer(call, 'The answer carries the API key.');
  return read.text;
}

/**
 * A keyed request to the service's upload endpoint; its JSON answer (none for an empty body).
 * @throws ServiceError (nothing submitted): refused before sending when the key may not go there.
 */
export async function keyedRequest(call: UploadCall, request: UploadRequest): Promise<unknown> {
  if (!keyMayReach(request.url, call.baseUrl, call.keyOrigins)) {
    throw failure(
      'config',
      sentence('error.inputs.uploadTarget', { service: call.service, host: hostOf(request.url) }),
    );
  }
  const headers = { ...request.headers, ...call.authHeaders, Accept: 'application/json' };
  const text = await exchange(call, request, headers, (init) => call.fetch(request.url, init));
  if (text.trim() === '') return null;
  const parsed = parseJson(text);
  if (!parsed.ok) throw badAnswer(call, 'The answer is not JSON.');
  return parsed.value;
}

/**
 * The address to connect to for a signed target: its name resolved once and every answer checked
 * (a literal is its own answer, checkImageUrl has judged it), the first one pinned.
 * @throws UrlPolicyError; what the resolver throws.
 */
async function pinAddress(call: UploadCall, url: URL): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const answers = isIP(host)
    ? [{ address: host, family: isIP(host) === 6 ? (6 as const) : (4 as const) }]
    : await raceAbort(call.resolve(host), call.signal);
  const { address } = checkResolvedAddresses(answers, call.baseUrl);
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * A request to a signed target the service answered with: never the key, and only to an
 * address image links may have, over a connection pinned to the address checked.
 * @throws ServiceError (nothing submitted).
 */
export async function signedRequest(call: UploadCall, request: UploadRequest): Promise<void> {
  const refused = () =>
    failure(
      'protocol',
      sentence('error.inputs.uploadTarget', { service: call.service, host: hostOf(request.url) }),
    );
  let url: URL;
  let address: ResolvedAddress;
  try {
    url = checkImageUrl(request.url, call.baseUrl);
    if (url.username || url.password) throw refused();
    address = await pinAddress(call, url);
  } catch (error) {
    if (error instanceof UrlPolicyError || error instanceof ServiceError) throw refused();
    throw failure(
      'network',
      sentence('error.inputs.uploadNetwork', { service: call.service }),
      error instanceof Error ? error.message : undefined,
    );
  }
  // The target is the service's to choose: one that names the key (in its address or a header it
  // asked for) is refused rather than sent the key it was never meant to have.
  const headers = { ...request.headers };
  const named = [url.href, ...Object.keys(headers), ...Object.values(headers)];
  if (named.some((text) => carriesKey(text, call.secrets ?? call.key))) throw refused();
  for (const name of Object.keys(headers)) {
    if (/^(authorization|x-key|cookie)$/i.test(name)) throw refused();
  }
  const href = url.href;
  await exchange(call, request, headers, (init) => call.signedFetch(href, init, address));
}
