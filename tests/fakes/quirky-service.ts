/**
 * An independent implementation of the image task service (docs/SERVICE.md)
 * with the habits of real providers the spec leaves "not shown": extra fields, `error` as a
 * string or an object, 429 with and without `Retry-After`, gateway 502 pages in HTML, 503 with
 * an HTTP-date `Retry-After`, images on another origin that redirect, expire or come back as
 * `application/octet-stream`. Written apart from electron/demo-service on purpose, so the
 * tests that use it catch what a demo written with the app would hide.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QuirkyCdn, type QuirkyCdnOptions } from './quirky-cdn';
import type { LoggedRequest } from './quirky-log';
import {
  QuirkyApi,
  type PollFault,
  type QuirkyOutcome,
  type QuirkyTaskInfo,
  type SubmitThrottle,
} from './quirky-api';

export type { LoggedRequest } from './quirky-log';
export type { QuirkyCdnOptions } from './quirky-cdn';
export type { PollFault, QuirkyOutcome, QuirkyTaskInfo, SubmitThrottle } from './quirky-api';

/** Keys the quirky service knows by default. Two belong to alice; carol has no credits. */
export const QUIRKY_KEYS = {
  alice: 'sk-alice-5c81f0e27d9a4b36',
  alice2: 'sk-alice-2-a97d0c4e13b85f62',
  bob: 'sk-bob-0e4f7a2c9d316b58',
  carol: 'sk-carol-7b2d96e0c45a1f83',
} as const;

const DEFAULT_ACCOUNTS: Readonly<Record<string, string>> = {
  [QUIRKY_KEYS.alice]: 'alice',
  [QUIRKY_KEYS.alice2]: 'alice',
  [QUIRKY_KEYS.bob]: 'bob',
  [QUIRKY_KEYS.carol]: 'carol',
};

/** How the quirky service behaves; every field is optional. */
export interface QuirkyServiceOptions {
  /** Key → account. Default: {@link QUIRKY_KEYS} (alice has two keys). */
  readonly accounts?: Readonly<Record<string, string>>;
  /** Accounts whose submits answer 402. Default: `['carol']`. */
  readonly brokeAccounts?: readonly string[];
  /** How long a task stays `processing`, in ms, or per prompt. Default 500. */
  readonly durationMs?: number | ((prompt: string) => number);
  /** How a task ends. Default: completed with one image. */
  readonly outcome?: (task: QuirkyTaskInfo) => QuirkyOutcome;
  /** One entry per early submit: each answers 429 (and creates nothing). */
  readonly submitThrottle?: readonly SubmitThrottle[];
  /** Consumed in order by successive polls (of any task), before authentication. */
  readonly pollFaults?: readonly PollFault[];
  /** Path prefix of the API (the spec's paths are relative to the base URL). Default `''`. */
  readonly basePath?: string;
  /** The image origin's habits. */
  readonly cdn?: QuirkyCdnOptions;
  /** The id of the n-th task (from 1); default `gen-<16 hex>`. Hostile ids test the CLI. */
  readonly taskId?: (seq: number) => string;
  /**
   * The clock a task's processing time is read on (default the system's): a test that must see
   * a task still processing moves it by hand, which no load can outrun.
   */
  readonly now?: () => number;
}

/** A running quirky service. */
export interface QuirkyService {
  /** The base URL to give the client: origin plus {@link QuirkyServiceOptions.basePath}. */
  readonly baseUrl: string;
  /** The image origin (a different port). */
  readonly cdnUrl: string;
  /** Every request to either origin, in arrival order. */
  readonly log: readonly LoggedRequest[];
  /** Submit requests (every POST to the generations path, whatever the answer). */
  submits(): LoggedRequest[];
  /** Poll requests for `taskId` (whatever the answer). */
  polls(taskId: string): LoggedRequest[];
  /** Every request that reached the image origin. */
  cdnRequests(): LoggedRequest[];
  /** Tasks the service holds. */
  tasks(): QuirkyTaskInfo[];
  /** Makes a task "created outside the app" for `account`; returns its id. */
  createTaskFor(account: string, prompt: string, size?: string): string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A request listener that turns a thrown error into a 500 instead of a hung socket. */
function guarded(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(`quirky service bug: ${String(error)}`);
    });
  };
}

/** Starts both origins on 127.0.0.1 with ephemeral ports. */
export async function startQuirkyService(
  options: QuirkyServiceOptions = {},
): Promise<QuirkyService> {
  const log: LoggedRequest[] = [];
  const cdn = new QuirkyCdn(options.cdn ?? {}, log);
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const api = new QuirkyApi(
    {
      accounts: options.accounts ?? DEFAULT_ACCOUNTS,
      brokeAccounts: options.brokeAccounts ?? ['carol'],
      durationMs: options.durationMs ?? 500,
      outcome: options.outcome ?? (() => ({ kind: 'completed', images: 1 })),
      submitThrottle: [...(options.submitThrottle ?? [])],
      pollFaults: [...(options.pollFaults ?? [])],
      basePath,
      now: options.now ?? Date.now,
      ...(options.taskId ? { taskId: options.taskId } : {}),
    },
    cdn,
    log,
  );
  const apiServer = createServer(guarded((req, res) => api.handle(req, res)));
  const cdnServer = createServer(guarded((req, res) => cdn.handle(req, res)));
  const apiOrigin = await listen(apiServer);
  const cdnUrl = await listen(cdnServer);
  cdn.setBaseUrl(cdnUrl);
  const generationsPath = `${basePath}/v1/images/generations`;
  return {
    baseUrl: `${apiOrigin}${basePath}`,
    cdnUrl,
    log,
    submits: () =>
      log.filter((e) => e.origin === 'api' && e.method === 'POST' && e.path === generationsPath),
    polls: (taskId) =>
      log.filter((e) => e.origin === 'api' && e.method === 'GET' && e.taskId === taskId),
    cdnRequests: () => log.filter((e) => e.origin === 'cdn'),
    tasks: () => api.taskInfos(),
    createTaskFor: (account, prompt, size) => api.createTask(account, { prompt, size }),
    close: async () => {
      await Promise.all([close(apiServer), close(cdnServer)]);
    },
  };
}
