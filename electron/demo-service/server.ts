import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleControlCall } from './control-api';
import { deliver } from './fault-delivery';
import { FaultBook } from './faults';
import { appendBounded } from './bounded-log';
import { BodyBudget, readBody, writeReply, errorReply } from './http-reply';
import { ImageCache } from './image-renderer';
import type { ResolvedOptions } from './options';
import {
  checkCredits,
  checkFailureRate,
  checkSwitchCount,
  resolveDuration,
  resolveOptions,
} from './options';
import { validateGenerationRequest } from './request-validation';
import type { RouteMatch } from './service-routes';
import type { ServiceContext } from './service-context';
import { bearerKey, handleServiceCall, matchRoute } from './service-routes';
import { TaskStore } from './task-store';
import type { DemoRequestLog, DemoService, DemoServiceOptions, RequestLogEntry } from './types';
import { headerValue, type Dialect, type DialectMatch } from './dialects/dialect';
import { logSubmitBody } from './submit-body';
import { dialectFor } from './dialects/dialect-for';
import { INPUT_BODY_BYTES } from './input-checks';
import { startStorageOrigin, type StorageOrigin } from './storage-server';
import { UploadStore } from './uploads';

// Not an ES import: that would load Node's bundled undici (see core/download/pinned-fetch.ts).
const { createServer } = process.getBuiltinModule('node:http');

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function isLoopbackAddress(address: string | undefined): boolean {
  return !!address && (/^(::ffff:)?127\./.test(address) || address === '::1');
}

/** The URL clients use: a wildcard listen address is reached through loopback. */
function publicUrl(host: string, port: number): string {
  if (host === '0.0.0.0') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Everything one running service holds. */
class DemoServer {
  readonly log: DemoRequestLog = { requests: [], submits: [], polls: [], downloads: [] };
  readonly store: TaskStore;
  readonly faults: FaultBook;
  readonly context: ServiceContext;
  /** The real service's interface spoken instead of the spec's, if any. */
  readonly dialect: Dialect | null;
  readonly sockets = new Set<Socket>();
  readonly waits = new Map<object, (done: boolean) => void>();
  /** Requests received and not yet answered to the end. */
  answering = 0;
  url = '';
  api!: DemoService;
  storage!: StorageOrigin;
  readonly uploads: UploadStore;
  /** Request bodies being read, on this server and its storage origin. */
  readonly bodies: BodyBudget;

  constructor(readonly options: ResolvedOptions) {
    this.store = new TaskStore(options);
    this.faults = new FaultBook(options.seed);
    this.uploads = new UploadStore(options.now, options.maxHeldBytes);
    this.bodies = new BodyBudget(options.maxHeldBytes);
    this.context = {
      uploads: this.uploads,
      storageUrl: () => this.storage.url,
      store: this.store,
      options,
      images: new ImageCache(options.images),
      baseUrl: () => this.url,
      wait: (ms) => this.wait(ms),
    };
    this.dialect = dialectFor(options.dialect, this.context);
  }

  /** A wait that close() cuts short (resolving false) so no timer outlives the service. */
  wait = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = this.options.timers.setTimeout(() => {
        this.waits.delete(timer);
        resolve(true);
      }, ms);
      this.waits.set(timer, resolve);
    });

  private record(req: IncomingMessage, match: RouteMatch): RequestLogEntry {
    const key = bearerKey(req.headers.authorization);
    const entry: RequestLogEntry = {
      at: this.options.now(),
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      route: match.route,
      status: null,
      account: (key && this.store.accountForKey(key)) ?? null,
      headers: headersOf(req),
    };
    appendBounded(this.log.requests, entry);
    if (match.route === 'submit') appendBounded(this.log.submits, entry);
    if (match.route === 'poll') appendBounded(this.log.polls, entry);
    if (match.route === 'image') appendBounded(this.log.downloads, entry);
    return entry;
  }

  private taskIdOf(match: RouteMatch): string | undefined {
    if (match.route === 'poll') return match.taskId;
    if (match.route === 'image') return this.store.image(match.token)?.taskId;
    return undefined;
  }

  private async control(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
  ): Promise<void> {
    const body = await readBody(req, this.options.maxBodyBytes, this.bodies);
    if (!body.ok && body.reason === 'aborted') return;
    const method = req.method ?? 'GET';
    const reply = isLoopbackAddress(req.socket.remoteAddress)
      ? handleControlCall(this.api, method, pathname, body)
      : errorReply(403, 'forbidden', 'The control API answers loopback clients only.');
    writeReply(res, reply, method);
  }

  handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Split by hand: new URL() would read '//x/…' as a host and throws on some inputs.
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (this.options.control && pathname.startsWith('/_demo/'))
      return this.control(req, res, pathname);
    if (this.dialect) return this.handleDialect(this.dialect, req, res, pathname);
    const match = matchRoute(pathname);
    const entry = this.record(req, match);
    // A submit may carry images (the demo-edit model): today's contract checks the usual limit
    // for every other request after reading (service-routes.ts).
    const limit = match.route === 'submit' ? this.inputLimit() : this.options.maxBodyBytes;
    const body = await readBody(req, limit, this.bodies);
    if (!body.ok && body.reason === 'aborted') return;
    const applied =
      match.route === 'other' ? undefined : this.faults.take(match.route, this.taskIdOf(match));
    if (applied) entry.fault = applied.type;
    const call = { method: entry.method, match, authorization: req.headers.authorization, body };
    await deliver(
      {
        req,
        res,
        produce: () => handleServiceCall(this.context, call),
        wait: this.wait,
        now: this.options.now,
        setStatus: (status) => (entry.status = status),
        pace: this.options.imagePacing,
      },
      applied,
    );
  };

  /** The body limit of a request that may carry images: at least the largest model's. */
  inputLimit(): number {
    return Math.max(this.options.maxBodyBytes, INPUT_BODY_BYTES);
  }

  /** Image URLs are the server's own in every dialect; the rest is the dialect's. */
  private dialectMatch(
    dialect: Dialect,
    method: string,
    pathname: string,
    query: URLSearchParams,
  ): DialectMatch {
    const image = matchRoute(pathname);
    if (image.route === 'image') {
      return {
        route: 'image',
        taskId: this.store.image(image.token)?.taskId,
        answer: (call) =>
          handleServiceCall(this.context, {
            method: call.method,
            match: image,
            authorization: undefined,
            body: call.body,
          }),
      };
    }
    return dialect.match(method, pathname, query);
  }

  private recordDialect(
    dialect: Dialect,
    req: IncomingMessage,
    route: DialectMatch['route'],
  ): RequestLogEntry {
    const value = headerValue(req.headers, dialect.keyHeader);
    const key = dialect.keyOf(req.headers);
    const entry: RequestLogEntry = {
      at: this.options.now(),
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      route,
      status: null,
      account: (key && this.store.accountForKey(key)) ?? null,
      headers: headersOf(req),
      auth: value === undefined ? null : { header: dialect.keyHeader, value },
    };
    appendBounded(this.log.requests, entry);
    if (route === 'submit') appendBounded(this.log.submits, entry);
    if (route === 'poll') appendBounded(this.log.polls, entry);
    if (route === 'image') appendBounded(this.log.downloads, entry);
    return entry;
  }

  private async handleDialect(
    dialect: Dialect,
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
  ): Promise<void> {
    const url = req.url ?? '/';
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const match = this.dialectMatch(dialect, req.method ?? 'GET', pathname, query);
    const entry = this.recordDialect(dialect, req, match.route);
    const limit = match.carriesImages ? this.inputLimit() : this.options.maxBodyBytes;
    const body = await readBody(req, limit, this.bodies);
    if (!body.ok && body.reason === 'aborted') return;
    const { route } = logSubmitBody(entry, match, body);
    const applied = route === 'other' ? undefined : this.faults.take(route, match.taskId);
    if (applied) entry.fault = applied.type;
    const call = { method: entry.method, pathname, query, headers: req.headers, body };
    await deliver(
      {
        req,
        res,
        produce: async () => match.answer(call),
        wait: this.wait,
        now: this.options.now,
        setStatus: (status) => (entry.status = status),
        pace: this.options.imagePacing,
      },
      applied,
    );
  }
}

function buildApi(state: DemoServer, server: Server, port: number): DemoService {
  const { store, options, bodies, uploads } = state;
  return {
    url: state.url,
    port,
    log: state.log,
    tasks: () => store.all().map((task) => store.snapshot(task, state.url)),
    addFault: (rule) => state.faults.add(rule),
    clearFaults: () => state.faults.clear(),
    revokeKey: (key) => store.revokeKey(key),
    setCredits: (account, credits) => store.setCredits(account, checkCredits(credits)),
    setFailureRate: (rate) => void (options.failureRate = checkFailureRate(rate)),
    setDuration: (duration) => void (options.durationMs = resolveDuration(duration)),
    setRateLimit: (n) => void (options.rateLimit = checkSwitchCount(n, 'The rate limit')),
    setUnknownStatusPolls: (n) =>
      void (options.unknownStatusPolls = checkSwitchCount(n, 'Unknown status polls')),
    createTask(account, request) {
      if (!store.hasAccount(account)) throw new Error(`There is no account named "${account}".`);
      const checked = validateGenerationRequest(request, options.maxImageSide);
      if (!checked.ok) throw new Error(checked.problem.message);
      return store.snapshot(store.create(account, checked.request), state.url);
    },
    completeTask: (id) => store.complete(id),
    failTask: (id, error) => store.fail(id, error),
    expireImages: () => store.revokeAllImages(),
    storage: { url: state.storage.url, requests: uploads.log },
    answering: () => state.answering,
    held: () => ({ bodies: bodies.heldBytes, uploads: uploads.heldBytes, tasks: store.heldBytes }),
    close: () => closeServer(state, server),
  };
}

function closeServer(state: DemoServer, server: Server): Promise<void> {
  for (const [timer, resolve] of state.waits) {
    state.options.timers.clearTimeout(timer);
    resolve(false);
  }
  state.waits.clear();
  state.storage.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of state.sockets) socket.destroy();
  return closed;
}

/**
 * Starts the demo service: the local implementation of the image task service's HTTP
 * interface, with scripted behaviour for tests. Resolves once it is listening.
 */
export async function startDemoService(options?: DemoServiceOptions): Promise<DemoService> {
  const state = new DemoServer(resolveOptions(options));
  const server = createServer((req, res) => {
    // Its own clock's date, as a real service's (Node's would be the machine's real time).
    res.setHeader('Date', new Date(state.options.now()).toUTCString());
    state.answering += 1;
    res.once('close', () => (state.answering -= 1));
    void state.handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    state.sockets.add(socket);
    socket.on('close', () => state.sockets.delete(socket));
  });
  const keys = state.options.accounts.map((entry) => entry.key);
  state.storage = await startStorageOrigin(state.uploads, keys, state.options.now, state.bodies);
  const port = await listen(server, state.options.host, state.options.port).catch((error) => {
    state.storage.close();
    throw error;
  });
  state.url = publicUrl(state.options.host, port);
  state.api = buildApi(state, server, port);
  return state.api;
}
