/** Real node:http servers on 127.0.0.1 (port 0) for transport tests. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  readonly body: string;
  /** The body byte for byte. */
  readonly bytes: Buffer;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  /** TCP connections accepted (a kept-alive socket carries several requests on one). */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** Where a server listens: 127.0.0.1 and a free port unless told (another loopback address). */
export interface ListenAt {
  readonly host?: string;
  readonly port?: number;
}

/** Starts a server whose handler runs after the request body has been read in full. */
export async function startServer(handler: Handler, at: ListenAt = {}): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      const { method = '', url = '', headers } = req;
      requests.push({ method, url, headers, body, bytes });
      handler(req, res, body);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  const host = at.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(at.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Answers JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

const started: TestServer[] = [];

/** Starts a server that {@link closeServers} (registered in each file's afterEach) closes. */
export async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  started.push(server);
  return server;
}

export async function closeServers(): Promise<void> {
  await Promise.all(started.splice(0).map((server) => server.close()));
}
