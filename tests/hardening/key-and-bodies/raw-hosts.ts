/**
 * Loopback servers for the hostile-body and redirect suites: a raw TCP image host (so a reply can
 * lie about its Content-Length or close mid-body, which node:http will not do) and a minimal
 * image task service (submit → id, poll → completed with the image URLs the test chose).
 * Both record every request's headers, so the suites can count what reached them.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

/** One request as a server received it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A reply written byte for byte: status, headers as given (nothing added but Connection: close). */
export interface RawReply {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Chunks sent after the head; the socket is closed after the last one. */
  readonly body?: Iterable<Buffer> | AsyncIterable<Buffer>;
}

export interface RawHost {
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Serves `reply()` at `path`; returns the absolute URL. */
  route(path: string, reply: () => RawReply): string;
  close(): Promise<void>;
}

function parseHead(head: string): SeenRequest {
  const [requestLine = '', ...lines] = head.split('\r\n');
  const [method = '', path = ''] = requestLine.split(' ');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method, path, headers };
}

/** Resolves when the socket can take more, or is gone; leaves no listener behind. */
function drained(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

async function writeReply(socket: Socket, reply: RawReply): Promise<void> {
  const status = reply.status ?? 200;
  const headers = { ...reply.headers, Connection: 'close' };
  const head = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  for await (const chunk of reply.body ?? []) {
    if (socket.destroyed) return;
    if (!socket.write(chunk)) await drained(socket);
  }
  socket.end();
}

/** A TCP server speaking just enough HTTP/1.1 to answer GETs with {@link RawReply}s. */
export async function startRawHost(): Promise<RawHost> {
  const routes = new Map<string, () => RawReply>();
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // The client cancels bodies it refuses: EPIPE / ECONNRESET here are expected.
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (data: Buffer) => {
      buffered += data.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const request = parseHead(buffered.slice(0, end));
      buffered = '';
      socket.removeAllListeners('data');
      requests.push(request);
      const route = routes.get(new URL(request.path, 'http://x').pathname);
      const reply = route ? route() : { status: 404, headers: { 'Content-Length': '0' } };
      void writeReply(socket, reply).catch(() => socket.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    route(path, reply) {
      routes.set(path, reply);
      return `${origin}${path}`;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** What the fake service answers to a poll of a task: image URLs, or a failure. */
export type TaskPlan = { images: readonly string[] } | { failed: string };

export interface FakeService {
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** Decides each submitted task's result from its prompt. */
  plan: (prompt: string) => TaskPlan;
  close(): Promise<void>;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** The image task service reduced to what the engine needs; tasks complete on their first poll. */
export async function startFakeService(plan: FakeService['plan']): Promise<FakeService> {
  const tasks = new Map<string, string>();
  const requests: SeenRequest[] = [];
  const service: FakeService = {
    origin: '',
    requests,
    plan,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: flatHeaders(req.headers),
      });
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && req.url === '/v1/images/generations') {
        const id = `task-${tasks.size + 1}`;
        tasks.set(
          id,
          (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { prompt: string }).prompt,
        );
        return send(200, { id, status: 'processing' });
      }
      const id = /^\/v1\/tasks\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const prompt = id === undefined ? undefined : tasks.get(id);
      if (prompt === undefined) return send(404, { error: { message: 'no such task' } });
      const result = service.plan(prompt);
      if ('failed' in result)
        return send(200, { id, status: 'failed', error: { message: result.failed } });
      send(200, {
        id,
        status: 'completed',
        output: { data: result.images.map((url) => ({ url })) },
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  Object.assign(service, { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  return service;
}

/** A service whose every answer is `status` with Location `location(path)`; records each request. */
export async function startRedirectingServer(
  status: number,
  location: (path: string) => string,
): Promise<{ origin: string; requests: SeenRequest[]; close: () => Promise<void> }> {
  const requests: SeenRequest[] = [];
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: flatHeaders(req.headers),
      });
      res.writeHead(status, { Location: location(req.url ?? '/'), 'Content-Length': '0' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
