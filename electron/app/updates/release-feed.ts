/**
 * Pictor's own reading of the update feed: the channel file is fetched here, at most
 * {@link MAX_CHANNEL_FILE_BYTES} of it (the request is cancelled as soon as more arrives), within
 * a deadline on the Clock port, and checked field by field (release-info.ts) before electron-
 * updater sees anything. electron-updater then only compares versions, downloads the named file
 * and verifies its sha512.
 *
 * A redirect is followed only inside the feed's origin, a few at most: one elsewhere (another
 * host, plain http from https, an address on the user's network) would let another server name
 * the installer and its sha512, and gets no request.
 */
import { z } from 'zod';
import type { Clock } from '../../ports/clock';
import type { FetchLike } from '../../ports/http';
import { discardBody, readBodyText } from '../../core/service';
import { FeedRefusedError, readFeedYaml } from './feed-yaml';
import { checkChannelFile, type CheckedRelease, type ReleaseFile } from './release-info';
import { ERR_REDIRECTED_ELSEWHERE } from './update-problems';

/** Pictor's channel files are under 1 KiB; long release notes stay far below this. */
export const MAX_CHANNEL_FILE_BYTES = 64 * 1024;
/** The whole request, from asking to the last byte. */
export const CHANNEL_FILE_TIMEOUT_MS = 60_000;
/** Redirects followed inside the feed's origin, at most. */
export const MAX_FEED_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ReleaseFeedOptions {
  /** The feed's folder, as app-update.yml names it. */
  readonly feedUrl: string;
  /** `latest.yml`, `latest-mac.yml`, `latest-linux.yml`… ({@link channelFileName}). */
  readonly channelFile: string;
  readonly currentVersion: string;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly timeoutMs?: number;
}

/** A release and where each of its files is: beside the channel file. */
export interface FeedRelease {
  readonly release: CheckedRelease;
  readonly files: readonly { readonly url: URL; readonly info: ReleaseFile }[];
}

/** electron-updater's names: `latest.yml` on Windows, `-mac` on macOS, `-linux[-arch]` on Linux. */
export function channelFileName(
  platform: NodeJS.Platform,
  arch: string,
  channel = 'latest',
): string {
  if (platform === 'darwin') return `${channel}-mac.yml`;
  if (platform === 'linux') return `${channel}-linux${arch === 'x64' ? '' : `-${arch}`}.yml`;
  return `${channel}.yml`;
}

/** The feed folder as a base URL (with its trailing slash, so names resolve inside it). */
function feedBase(feedUrl: string): URL {
  const base = new URL(feedUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}

/** Node's fetch hides the system's error code under `cause`; the problem codes need it. */
function transportError(error: unknown): unknown {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code !== 'string') return error;
  return Object.assign(new Error(`The update feed could not be reached (${cause.code}).`), {
    code: cause.code,
  });
}

function redirectedAway(where: string): Error {
  return Object.assign(new Error(`The update feed redirected its channel file to ${where}.`), {
    code: ERR_REDIRECTED_ELSEWHERE,
  });
}

/** The next address of a redirect, inside the origin of `from`; null when `response` is none. */
function nextHop(response: Response, from: URL, hop: number): URL | null {
  const location = response.headers.get('location');
  if (response.type !== 'opaqueredirect' && !REDIRECT_STATUSES.has(response.status)) return null;
  discardBody(response);
  if (location === null) throw redirectedAway('an address the transport did not show');
  const next = URL.parse(location, from);
  if (next?.origin !== from.origin) {
    throw redirectedAway(next && /^https?:$/.test(next.protocol) ? next.origin : 'another scheme');
  }
  if (hop >= MAX_FEED_REDIRECTS) throw redirectedAway(`more than ${MAX_FEED_REDIRECTS} addresses`);
  return next;
}

/** The answer at `url` that is not a redirect, redirects followed inside its origin. */
async function fetchFollowing(
  url: URL,
  options: ReleaseFeedOptions,
  signal: AbortSignal,
): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    let response: Response;
    try {
      response = await options.fetch(current.href, {
        signal,
        cache: 'no-store',
        credentials: 'omit',
        redirect: 'manual',
      });
    } catch (error) {
      throw transportError(error);
    }
    const next = nextHop(response, current, hop);
    if (next === null) return response;
    current = next;
  }
}

async function fetchText(url: URL, options: ReleaseFeedOptions, signal: AbortSignal) {
  const response = await fetchFollowing(url, options, signal);
  if (!response.ok) {
    response.body?.cancel().catch(() => undefined);
    throw Object.assign(new Error(`The update feed answered HTTP ${response.status}.`), {
      statusCode: response.status,
    });
  }
  const read = await readBodyText(response, MAX_CHANNEL_FILE_BYTES, signal);
  if (read.outcome === 'too_large') {
    throw new FeedRefusedError(
      `The update feed's channel file is larger than ${MAX_CHANNEL_FILE_BYTES} bytes.`,
    );
  }
  if (read.outcome === 'broken') throw transportError(read.error);
  return read.text;
}

/**
 * Fetches and checks the channel file.
 * @throws FeedRefusedError (unreadable, too large, a prerelease for a stable app), an error with
 *   `statusCode` for an HTTP error, or the transport's error (with its `code`) when unreachable
 *   or past the deadline.
 */
export async function fetchRelease(options: ReleaseFeedOptions): Promise<FeedRelease> {
  const base = feedBase(options.feedUrl);
  const url = new URL(options.channelFile, base);
  const controller = new AbortController();
  const timer = options.clock.setTimeout(
    () =>
      controller.abort(
        Object.assign(new Error('The update feed did not answer in time.'), { code: 'ETIMEDOUT' }),
      ),
    options.timeoutMs ?? CHANNEL_FILE_TIMEOUT_MS,
  );
  try {
    const release = checkChannelFile(
      await fetchText(url, options, controller.signal),
      options.currentVersion,
    );
    const files = release.files.map((info) => ({ url: new URL(info.url, base), info }));
    return { release, files };
  } catch (error) {
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    options.clock.clearTimeout(timer);
  }
}

const updateConfigSchema = z.object({
  provider: z.literal('generic'),
  url: z.url({ protocol: /^https?$/ }),
  channel: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/)
    .nullable()
    .optional(),
  // electron-builder writes the certificate's publisher for a signed Windows build only.
  publisherName: z
    .union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).max(20)])
    .nullable()
    .optional(),
});

/** The packaged app's `app-update.yml` as Pictor reads it. */
export interface UpdateConfig {
  readonly url: string;
  readonly channel: string;
  /**
   * Windows: the Authenticode publishers electron-updater's NsisUpdater requires of an installer
   * before it runs it. Empty when the build was unsigned: NsisUpdater then checks no signature at
   * all (`verifySignature` returns at once), so such a copy must not install updates.
   */
  readonly publisherNames: readonly string[];
}

/** The feed named in the packaged app's `app-update.yml` (written by electron-builder). */
export function readUpdateConfig(text: string): UpdateConfig {
  const parsed = updateConfigSchema.safeParse(readFeedYaml(text.slice(0, MAX_CHANNEL_FILE_BYTES)));
  if (!parsed.success) throw new FeedRefusedError('app-update.yml does not name a generic feed.');
  const publisher = parsed.data.publisherName ?? [];
  return {
    url: parsed.data.url,
    channel: parsed.data.channel ?? 'latest',
    publisherNames: typeof publisher === 'string' ? [publisher] : publisher,
  };
}
