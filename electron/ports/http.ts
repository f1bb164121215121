/**
 * How core code reaches the service: the WHATWG `fetch` signature. In the app it is Electron's
 * `net.fetch` (system proxy settings honoured); in the CLI Node's fetch with a proxy agent; in
 * tests the real thing against loopback, or a fake that injects faults. Image downloads and
 * uploads to signed targets do not use it: they need the connection pinned to a checked address
 * ({@link PinnedFetch}).
 */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Every address a host name resolves to, the way the operating system resolves it (hosts file,
 * DNS). Image downloads and signed uploads check each one before connecting. Rejects when the
 * name has none.
 */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The network port of image downloads and of uploads to signed targets: `fetch` that connects
 * to `address` (already checked by the URL policy) for `url`'s host and never resolves the name
 * again, so a second DNS answer cannot send the request, or the bytes it uploads, elsewhere (DNS
 * rebinding). TLS still verifies the certificate against the host name, and the Host header is
 * the URL's. Redirects are never followed here.
 */
export type PinnedFetch = (
  url: string,
  init: RequestInit,
  address: ResolvedAddress,
) => Promise<Response>;

/**
 * How far a request got when its `fetch` rejected, as the transport saw it: `unsent` when no byte
 * of it was handed to a connection (the port refused before connecting, the name not found, the
 * connection refused, the TLS handshake failed: nothing can have reached the service), `written`
 * once it was (the service may have it). Only a transport that watches its connection can tell; one
 * that cannot (a plain `fetch`; Chromium's `net`, which says only `written`, once bytes of a body
 * were handed off) rejects as it does, and the service client then reads the error's codes instead
 * (core/service/network-errors.ts).
 */
export type RequestReach = 'unsent' | 'written';

/**
 * A `fetch` rejection that says how far its request got. `cause` is the transport's own error
 * (its codes say why: refused, not found, a certificate); an abort is never wrapped.
 */
export class FetchRejection extends Error {
  override readonly name = 'FetchRejection';
  readonly reach: RequestReach;

  constructor(reach: RequestReach, cause: unknown) {
    super(reach === 'unsent' ? 'The request was not sent.' : 'The request was sent.', { cause });
    this.reach = reach;
  }
}

/**
 * A request body sent as a stream of pieces, its length known before the first is made (sent as
 * its `Content-Length` where the transport can say it), made again from its source for each
 * request that sends it (a redirect followed): the input images inlined in a submit, read from
 * their files as they are sent, never held whole.
 */
export interface StreamedBody {
  /** Its bytes in all. */
  readonly length: number;
  /** A new stream of its bytes; each read gives one piece. */
  open(): ReadableStream<Uint8Array>;
}
