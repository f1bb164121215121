/**
 * The one way the pinned transports (image downloads' exchange, signed uploads, and requests to a
 * plain-http server on this computer: pinned-fetch.ts) open a connection: to the checked address,
 * TLS verified against the URL's own name, and judged once connected, before the first byte of
 * the request is written (the authorities trusted: trusted-authorities.ts). The judge
 * (core/service/local-server-gate.ts `checkConnection`) reads who owns the server's end of THIS
 * connection, so a server that took the port after any earlier look cannot receive the request:
 * there is no moment between the judgement and the sending.
 */
import type { OnReadOpts, Socket } from 'node:net';
import type { ResolvedAddress } from '../../ports/http';
import { trustedContext } from './trusted-authorities';

const net = process.getBuiltinModule('node:net');
const tls = process.getBuiltinModule('node:tls');

/**
 * Judges a connected socket for `url` before anything is written on it; rejects to refuse it
 * (the socket is then destroyed, nothing sent).
 */
export type ConnectionCheck = (url: string, socket: Socket) => Promise<void>;

export interface DialTarget {
  readonly url: URL;
  readonly address: ResolvedAddress;
  /** The only trusted certificates (tests' self-signed hosts); trusted-authorities.ts otherwise. */
  readonly ca?: string | Buffer | undefined;
  /** Where reads land (the exchange's kept buffers); Node's own otherwise. */
  readonly onread?: OnReadOpts | undefined;
}

/** A new socket to `target.address` for `target.url`: plain, or TLS checked against its name. */
export function dial(target: DialTarget): Socket {
  const { url, address } = target;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const to = {
    host: address.address,
    family: address.family,
    ...(target.onread ? { onread: target.onread } : {}),
  };
  if (url.protocol !== 'https:') return net.connect({ ...to, port: Number(url.port || 80) });
  return tls.connect({
    ...to,
    port: Number(url.port || 443),
    ...(net.isIP(host) ? {} : { servername: host }),
    checkServerIdentity: (_name, certificate) => tls.checkServerIdentity(host, certificate),
    ...(target.ca === undefined ? { secureContext: trustedContext() } : { ca: target.ca }),
  });
}

/**
 * Settles once `socket` may carry the request: connected (and its TLS handshake done), then
 * judged by `check`. Rejects with the socket's error, or the check's refusal (the socket
 * destroyed then).
 */
export function whenReady(
  socket: Socket,
  url: URL,
  check: ConnectionCheck | undefined,
): Promise<void> {
  const ready = url.protocol === 'https:' ? 'secureConnect' : 'connect';
  const connected = new Promise<void>((resolve, reject) => {
    const failed = (error?: unknown) => reject(error ?? new Error('The connection closed.'));
    const closed = () => failed();
    socket.once('error', failed);
    socket.once('close', closed);
    socket.once(ready, () => {
      socket.off('error', failed);
      socket.off('close', closed);
      resolve();
    });
  });
  return connected.then(async () => {
    try {
      await check?.(url.href, socket);
    } catch (error) {
      socket.destroy();
      throw error;
    }
  });
}
