/**
 * A shared gateway on loopback: one origin, several tenants under path prefixes, each forwarded
 * to its own upstream service (a demo service), as a provider's API gateway would. It records
 * every request it receives with its Authorization header, routed or not, so a test can tell
 * which tenant (or which path between tenants) ever saw a key.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayRequest {
  readonly method: string;
  /** The path as received, before any decoding. */
  readonly path: string;
  readonly authorization: string | null;
  /** The tenant prefix it was routed to, or null when it matched none (answered 404). */
  readonly tenant: string | null;
}

export interface PathGateway {
  readonly origin: string;
  readonly requests: GatewayRequest[];
  /** The base URL of a tenant: `<origin><prefix>`. */
  url(prefix: string): string;
  close(): Promise<void>;
}

/** Starts a gateway routing `<prefix>/…` to `<upstream>/…` for each tenant. */
export async function startPathGateway(tenants: Record<string, string>): Promise<PathGateway> {
  const requests: GatewayRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const tenant = Object.keys(tenants).find((prefix) => path.startsWith(`${prefix}/`)) ?? null;
    requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization ?? null,
      tenant,
    });
    if (tenant === null) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no tenant"}');
      return;
    }
    const upstream = new URL(path.slice(tenant.length), tenants[tenant]);
    const forwarded = httpRequest(
      upstream,
      { method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    url: (prefix) => `${origin}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
