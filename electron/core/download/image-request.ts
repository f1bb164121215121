/**
 * Asks the image host for the image: every hop checked by the URL policy, its host name
 * resolved and every address checked, the connection pinned to a checked address (so a second
 * DNS answer cannot point it at this computer or the local network), redirects followed by
 * hand so each Location gets the same treatment, and no credentials of any kind sent.
 */
import { isIP } from 'node:net';
import {
  UrlPolicyError,
  checkImageUrl,
  checkResolvedAddresses,
  isUnderBase,
  parseRetryAfter,
  retryAfterNow,
  type AddressClassifier,
} from '../service';
import type { PinnedFetch, ResolvedAddress, Resolver } from '../../ports/http';
import type { AttemptAbort } from './attempt-abort';
import { sentence } from '../../../shared/i18n/sentence';
import { expired, invalid, retry, type FailedOutcome } from './download-outcome';

/** The only header Pictor sets on an image request. */
const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,*/*;q=0.5';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const EXPIRED = new Set([401, 403, 404, 410]);
/** Longest wait an image host's Retry-After may ask for; a day covers any sane server. */
export const IMAGE_MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The key a service asks for on its own image links (a proxied ComfyUI's `/view`): its headers go
 * only to a hop under `baseUrl` (the service's address, checkBaseUrl's spelling: an origin and a
 * path prefix), never to another host, another path of its origin or a redirect away.
 */
export interface KeyedImages {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface ImageRequest {
  readonly fetch: PinnedFetch;
  readonly resolve: Resolver;
  /** Tests only: stands in for the special-address table (e.g. to call one loopback address public). */
  readonly classify?: AddressClassifier;
  readonly baseUrl: string;
  readonly maxRedirects: number;
  readonly abort: AttemptAbort;
  /** The time (ms since the epoch) a Retry-After date is measured from: the gallery's clock. */
  readonly now: () => number;
  readonly keyed?: KeyedImages;
}

/** The headers of a hop to `url`: the key's only under its own base URL. */
function hopHeaders(request: ImageRequest, url: URL): Record<string, string> {
  const keyed = request.keyed;
  const own = keyed !== undefined && isUnderBase(url, keyed.baseUrl);
  return { Accept: IMAGE_ACCEPT, ...(own ? keyed.headers : {}) };
}

export type ImageResponse =
  { ok: true; response: Response } | { ok: false; outcome: FailedOutcome };

/** Lets go of a response we will not read, so its connection is freed. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function statusOutcome(response: Response, now: number): FailedOutcome {
  const status = response.status;
  if (EXPIRED.has(status)) return expired(status);
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
    const since = retryAfterNow(response.headers.get('date'), now);
    const wait = parseRetryAfter(
      response.headers.get('retry-after'),
      since,
      IMAGE_MAX_RETRY_AFTER_MS,
    );
    const why =
      status === 429
        ? sentence('error.gallery.downloadBusy')
        : sentence('error.gallery.downloadServerStatus', { status: String(status) });
    return retry(why, wait);
  }
  return invalid(sentence('error.gallery.imageStatus', { status: String(status) }));
}

function policyRefusal(error: unknown): FailedOutcome {
  // UrlPolicyError messages are fixed sentences; anything else (a bad base URL) gets one.
  if (error instanceof UrlPolicyError) {
    return error.sentence ? invalid(error.sentence) : { state: 'invalid', error: error.message };
  }
  return invalid(sentence('error.gallery.imageAddressUnchecked'));
}

function checkHop(raw: string, baseUrl: string): URL | FailedOutcome {
  try {
    return checkImageUrl(raw, baseUrl);
  } catch (error) {
    return policyRefusal(error);
  }
}

/** Settles with the resolver's answer, or rejects as soon as the attempt is aborted. */
function resolveUnlessAborted(request: ImageRequest, host: string) {
  const signal = request.abort.signal;
  return new Promise<readonly ResolvedAddress[]>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    request
      .resolve(host)
      .then(resolve, reject)
      .finally(() => {
        signal.removeEventListener('abort', onAbort);
      });
  });
}

/** The checked address to connect to for `url`, or why there is none. */
async function pinAddress(
  request: ImageRequest,
  url: URL,
): Promise<ResolvedAddress | FailedOutcome> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let answers: readonly ResolvedAddress[];
  try {
    // A literal is its own answer (checkImageUrl has judged it); a name asks the resolver.
    answers = isIP(host)
      ? [{ address: host, family: isIP(host) === 6 ? 6 : 4 }]
      : await resolveUnlessAborted(request, host);
  } catch (error) {
    return request.abort.failure(error, 'connecting');
  }
  try {
    const { address } = checkResolvedAddresses(answers, request.baseUrl, request.classify);
    return { address, family: isIP(address) === 6 ? 6 : 4 };
  } catch (error) {
    return policyRefusal(error);
  }
}

function nextHop(
  response: Response,
  current: URL,
  hop: number,
  max: number,
): string | FailedOutcome {
  const location = response.headers.get('location');
  if (!location) return invalid(sentence('error.gallery.redirectWithoutLocation'));
  if (hop >= max) return invalid(sentence('error.gallery.redirectTooMany', { max }));
  try {
    return new URL(location, current).href;
  } catch {
    return invalid(sentence('error.gallery.redirectInvalid'));
  }
}

/** Follows the image URL to a 200 response, or says why there is none. */
export async function requestImage(
  request: ImageRequest,
  startUrl: string,
): Promise<ImageResponse> {
  let current = startUrl;
  for (let hop = 0; ; hop += 1) {
    const url = checkHop(current, request.baseUrl);
    if (!(url instanceof URL)) return { ok: false, outcome: url };
    const address = await pinAddress(request, url);
    if ('state' in address) return { ok: false, outcome: address };
    let response: Response;
    try {
      response = await request.fetch(
        url.href,
        {
          method: 'GET',
          redirect: 'manual',
          credentials: 'omit',
          headers: hopHeaders(request, url),
          signal: request.abort.signal,
        },
        address,
      );
    } catch (error) {
      return { ok: false, outcome: request.abort.failure(error, 'connecting') };
    }
    if (response.status === 200) return { ok: true, response };
    await discardBody(response);
    if (!REDIRECTS.has(response.status))
      return { ok: false, outcome: statusOutcome(response, request.now()) };
    const next = nextHop(response, url, hop, request.maxRedirects);
    if (typeof next !== 'string') return { ok: false, outcome: next };
    current = next;
  }
}
