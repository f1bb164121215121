/** A scripted FetchLike for mapping tests: answers with real `Response` objects and records calls. */
import type { FetchLike } from '../../../../electron/ports/http';

export interface RecordedCall {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly init: RequestInit | undefined;
}

export type Responder = (
  url: string,
  init: RequestInit | undefined,
) => Response | Promise<Response>;

export interface FakeFetch {
  readonly fetch: FetchLike;
  readonly calls: RecordedCall[];
}

/** Each call is answered by the next responder; the last one repeats. */
export function fakeFetch(...responders: Responder[]): FakeFetch {
  const calls: RecordedCall[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
      init,
    });
    const responder = responders[Math.min(calls.length - 1, responders.length - 1)];
    if (!responder) throw new Error('fakeFetch has no responder');
    return responder(url, init);
  };
  return { fetch, calls };
}

/** A responder answering `body` with `status` and optional headers. */
export function answer(
  status: number,
  body: string | null = '',
  headers: Record<string, string> = {},
): Responder {
  return () => new Response(status === 204 || status === 304 ? null : body, { status, headers });
}

/** A responder answering JSON. */
export function json(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): Responder {
  return answer(status, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
}

/** A responder whose fetch rejects with `error`. */
export function fail(error: unknown): Responder {
  return () => Promise.reject(error);
}

/** A TypeError shaped like undici's "fetch failed" with a coded cause. */
export function undiciError(
  code: string,
  syscall?: string,
  message = `${syscall ?? 'socket'} ${code}`,
): TypeError {
  const cause = Object.assign(new Error(message), { code, ...(syscall ? { syscall } : {}) });
  return new TypeError('fetch failed', { cause });
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a value');
}
