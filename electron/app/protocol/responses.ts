/**
 * Response pieces shared by the two protocols: refusals, validators and headers. Responses are
 * the WHATWG `Response` that Node and Electron's `protocol.handle` both use, so everything here
 * is tested in plain Node.
 */
import { INERT_CSP } from './csp';
import type { ProtocolRefusal } from './request-path';

/** Methods the protocols answer; everything else gets 405. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * On every answer: no sniffing (the type is the extension's, never what the bytes look like), and
 * a policy that allows nothing; the app's own files replace it with theirs (appHeaders).
 */
const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': INERT_CSP,
} as const;

/** A refusal as a short plain-text response (the reason is a fixed sentence, never the URL). */
export function refusalResponse(refusal: Pick<ProtocolRefusal, 'status' | 'reason'>): Response {
  return new Response(refusal.reason, {
    status: refusal.status,
    headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

export function methodNotAllowed(): Response {
  return new Response('Only GET and HEAD are served.', {
    status: 405,
    headers: { ...COMMON_HEADERS, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/**
 * 503: too many requests wait for a file already (a page asking for thousands at once). The page
 * may ask again; nothing was opened or read.
 */
export function busyResponse(): Response {
  return new Response('Too many files are being read; ask again shortly.', {
    status: 503,
    headers: { ...COMMON_HEADERS, 'Retry-After': '1', 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/** 304: the page's copy of the file (its `etag`) is still the file. */
export function notModified(etag: string): Response {
  return new Response(null, {
    status: 304,
    headers: { ...COMMON_HEADERS, ETag: etag, 'Cache-Control': 'no-cache' },
  });
}

/** A weak validator from size and modification time: a replaced file gets a new one. */
export function fileEtag(stats: { size: number; mtimeMs: number }): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

/** `If-None-Match` (a list, or `*`) names `etag`; weak comparison, as RFC 9110 asks for GET. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Headers of a gallery file. Not `immutable`: a retried or re-downloaded image replaces the
 * file under the same name, so the page must revalidate (`no-cache`) against the ETag.
 */
export function galleryHeaders(contentType: string, etag: string, size: number): HeadersInit {
  return {
    ...COMMON_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(size),
    'Cache-Control': 'no-cache',
    ETag: etag,
  };
}

/**
 * Headers of a file of the renderer bundle. The CSP goes on every response, not only HTML:
 * a worker script's policy comes from its own response.
 */
export function appHeaders(contentType: string, csp: string): HeadersInit {
  return {
    ...COMMON_HEADERS,
    'Content-Type': contentType,
    'Content-Security-Policy': csp,
    'Cache-Control': 'no-cache',
  };
}
