import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import type { ImageEngine } from '../ports/image-engine';

/**
 * Public types of the demo service: the local implementation of the image task service's HTTP
 * interface (docs/SERVICE.md). Other code depends on exactly these names.
 */

/** An account the demo service knows, with one of its keys. Several entries may share an account. */
export interface DemoAccount {
  account: string;
  key: string;
  /** Credits left; `undefined` = unlimited. Each accepted submit costs one. */
  credits?: number;
}

/** How long a task stays `processing`: a fixed time or a range (per task, seeded by prompt + id). */
export type DemoDuration = number | { min: number; max: number };

/**
 * Which service's HTTP interface the demo speaks: `pictor` is the spec's own (docs/SERVICE.md);
 * the others follow the public documentation of real asynchronous image services
 * (docs/DEMO-SERVICE.md, "Dialects"). One per provider Pictor speaks (shared/domain/providers.ts).
 */
export type DemoDialect = ProviderId;

/** How the demo carries completed images in the answer (see DemoServiceOptions.inlineResults). */
export type DemoInlineResults = 'data-url' | 'b64-json';
export const DEMO_INLINE_RESULTS: readonly DemoInlineResults[] = ['data-url', 'b64-json'];

/** Every dialect name, in the order the help lists them. */
export const DEMO_DIALECTS: readonly DemoDialect[] = PROVIDER_IDS;

/**
 * How the demo (today's contract) says what a task cost (docs/DEMO-SERVICE.md, "Costs"): where,
 * and the `usage` object it sends exactly as given, so a test can send hostile values (`-1`,
 * `"NaN"`, `1e300`, an unknown currency) as a real service might.
 */
export interface DemoCost {
  /**
   * `submit`: `usage` in the submit answer and every task answer; `poll`: in every task answer;
   * `late`: only in the answer of a finished task (completed or failed); `header`: no `usage`,
   * an `X-Usage-Cost: <header>` header on every task answer instead.
   */
  readonly where: 'submit' | 'poll' | 'late' | 'header';
  /** The `usage` object (`{ cost: 0.04, currency: 'USD' }`, `{ credits: 2 }`), any JSON. */
  readonly usage?: unknown;
  /** With `header`: the header's text (`0.04 USD`). */
  readonly header?: string;
}

/** Options of {@link startDemoService}; every field has a default. */
export interface DemoServiceOptions {
  /** The interface spoken; default `'pictor'`. The switches below marked "dialects" act on the others only. */
  dialect?: DemoDialect;
  /** Dialects: the next n submits are refused with the dialect's 429 and `Retry-After: 1`; default 0. */
  rateLimit?: number;
  /**
   * Dialects: the first n status reads of each task carry a status word outside the documented set
   * (fal `IN_PROGRESS_V2`, replicate `booting`, dashscope `PREPARING`, bfl `Queued`); default 0.
   */
  unknownStatusPolls?: number;
  /**
   * Dialects: every poll, result and cancel URL the service hands out points to this origin
   * instead of its own (same paths), so a test can prove a client never sends its key there.
   * Image URLs stay on the service's origin. Default `null`.
   */
  foreignOrigin?: string | null;
  /** bfl: unfinished tasks a key's account may have before a submit is answered 429; default 24. */
  maxActiveTasks?: number;
  /**
   * Draws the demo's pictures from SVG: the host's image engine. Default (and when the engine
   * cannot draw): a plain gradient PNG in the picture's colours (plain-png.ts).
   */
  images?: Pick<ImageEngine, 'renderSvgPng'>;
  /**
   * Files served as they are instead of drawn pictures: image n of every task is
   * `imageFiles[n mod length]`, byte for byte, with the Content-Type its bytes say (PNG, JPEG or
   * WebP). For images a real service signed (C2PA Content Credentials), which must arrive unchanged.
   */
  imageFiles?: readonly Uint8Array[];
  /**
   * Paces image bodies (in-process use: benchmarks): each chunk of an image is written once the
   * returned promise resolves, so one function shared by several services is one slow link.
   */
  imagePacing?: (bytes: number) => Promise<void>;
  /** Interface to listen on; default `'127.0.0.1'`. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** Default `[{ account: 'demo', key: 'demo' }]`. */
  accounts?: DemoAccount[];
  /** Task duration; default `{ min: 3000, max: 6000 }`. */
  durationMs?: DemoDuration;
  /** 0..1 share of tasks that end `failed` with an error object; default 0. */
  failureRate?: number;
  /**
   * Today's contract (and bfl, `where: 'submit'` only: `usage` is its submit answer's `cost`): how
   * each task's cost is reported; default none (no cost is said).
   */
  cost?: DemoCost | null;
  /** Images per completed task; default 1 (the spec's request has no count field). */
  imagesPerTask?: number;
  /** Image URLs stop working (403) this long after the task completed; default `null` (never). */
  imageUrlTtlMs?: number | null;
  /**
   * Completed tasks carry their images in the answer itself instead of at an address:
   * `data-url` puts a `data:image/<type>;base64,…` URL where the address would be (today's
   * contract's `output.data[].url`, fal's `images[].url`), `b64-json` (today's contract only;
   * fal gets data URLs) gives each `output.data[]` entry an OpenAI-style `b64_json` and no `url`.
   * The other dialects keep addresses. Default `null` (addresses).
   */
  inlineResults?: DemoInlineResults | null;
  /** Task image URLs go through a 302 hop on the same server; default false. */
  redirectImages?: boolean;
  /** Largest accepted request body; default 64 KiB, larger = 400. */
  maxBodyBytes?: number;
  /**
   * The most bytes the service holds at once of each of two things (default 256 MiB): request
   * bodies being read, over every connection (one that would pass it is dropped unanswered), and
   * uploaded files (the oldest forgotten first, as an expired upload). The demo runs inside the app,
   * on a loopback port every local user can reach: without a bound, another user's requests grew
   * the app's memory without end.
   */
  maxHeldBytes?: number;
  /** Largest accepted image side in pixels; default 2048, larger = 400. */
  maxImageSide?: number;
  /** Expose the `/_demo/*` control API (loopback clients only); default false. */
  control?: boolean;
  /** Seed of task durations, failure draws, fault probabilities and image art. */
  seed?: number;
  /** Clock of task progress, image expiry and the request log; default `Date.now`. */
  now?: () => number;
  /**
   * Timers of a `delay` fault's wait; default the real ones. A test whose `now` is a manual clock
   * passes that clock here too, so an answer slower than a request's limit is slow on that clock.
   */
  timers?: DemoTimers;
  /**
   * Today's contract: a poll of a task id this service does not hold asks here whether an
   * earlier run of the same service made it (recall.ts: the host's history). A task recalled is
   * made again under the asking account, created when it first was, so it finishes when it would
   * have; undefined (the default, and for an id the host does not know) answers 404 as always.
   */
  recall?: DemoRecall;
}

/** Timers the service's waits run on (a Clock, electron/ports/clock.ts, is one). */
export interface DemoTimers {
  setTimeout(callback: () => void, ms: number): object;
  clearTimeout(handle: object): void;
}

/** A task an earlier run of the demo made, as the host remembers it (see DemoServiceOptions.recall). */
export interface DemoRecalledTask extends DemoTaskRequest {
  /** When the service first accepted it (ms since the epoch). */
  readonly createdAt: number;
}

/** What the host remembers of the task `taskId`, or undefined for one it does not know. */
export type DemoRecall = (taskId: string) => DemoRecalledTask | undefined;

/** The service routes a fault rule can target. */
export type DemoRoute = 'submit' | 'poll' | 'image';

/** The routes a fault rule can target: the service's, and a dialect's cancel request. */
export type FaultRoute = DemoRoute | 'cancel' | 'schema';

/** What a matching fault rule does to a request instead of (or around) the normal answer. */
export type FaultEffect =
  | {
      type: 'status';
      status: number;
      retryAfter?: number | 'http-date';
      body?: 'json' | 'html' | 'empty' | 'text';
    }
  /** Destroys the socket without answering. */
  | { type: 'reset' }
  /** Submit: creates the task, then destroys the socket (the client cannot know the outcome). */
  | { type: 'reset-after-accepting' }
  /** Normal status and headers (full Content-Length), then half the body, then the socket is destroyed. */
  | { type: 'truncate' }
  /** Answers normally after `ms`. */
  | { type: 'delay'; ms: number }
  /** Never answers; the socket is destroyed when the service closes. */
  | { type: 'hang' }
  /** Answers exactly this (malformed JSON, a body without id, HTML labelled image/png…). */
  | { type: 'body'; status?: number; contentType?: string; body: string; location?: string };

/** A scripted fault. The first matching rule applies. */
export interface FaultRule {
  /** `cancel`: a dialect's cancel request (a service without one never sees a cancel). */
  route: FaultRoute;
  effect: FaultEffect;
  /** Applies to the next N matching requests, then is removed; default unlimited. */
  times?: number;
  /** Chance (0..1) that a matching request is affected, drawn from the seeded PRNG; default 1. */
  probability?: number;
  /** Only requests about this task (polls of it, downloads of its images). */
  taskId?: string;
}

/** One request as the service received it. */
export interface RequestLogEntry {
  /** `now()` when the request arrived. */
  at: number;
  method: string;
  /** Path and query as requested. */
  path: string;
  /** `cancel` only in the dialects that have a cancel endpoint. */
  route: DemoRoute | 'cancel' | 'schema' | 'other';
  /** Status sent; `null` while unanswered and for reset / hang. */
  status: number | null;
  /** The account whose key the request carried, if any. */
  account: string | null;
  /** Every header as received (lower-case names; repeated ones joined with ', '). */
  headers: Record<string, string>;
  fault?: FaultEffect['type'];
  /**
   * Dialects only: the header the dialect reads the key from, with its value exactly as received
   * (`null` when the request had no such header).
   */
  auth?: { header: string; value: string } | null;
  /** Dialect submits: the JSON body as received (absent when larger than 64 KiB or not JSON). */
  body?: unknown;
}

/** One request the demo's storage origin (its signed upload targets) received. */
export interface DemoStorageRequest {
  readonly at: number;
  readonly method: string;
  /** Path and query as requested. */
  readonly path: string;
  /** The header names, lower case, as received. */
  readonly headerNames: readonly string[];
  /** Whether a header, the path or the body held any key the demo knows (revoked ones too). */
  keySeen: boolean;
  /** Status sent; `null` while unanswered. */
  status: number | null;
  /**
   * The file the request stored (fal's PUT body, the OSS form's `file` part) as it arrived: its
   * size, SHA-256 (hex) and Content-Type; `null` when it stored none.
   */
  stored: DemoStoredFile | null;
}

/** A file the demo's storage origin stored, as {@link DemoStorageRequest} records it. */
export interface DemoStoredFile {
  readonly bytes: number;
  readonly sha256: string;
  readonly contentType: string;
}

/** A task as the demo service holds it. */
export interface DemoTaskSnapshot {
  id: string;
  account: string;
  status: 'processing' | 'completed' | 'failed';
  prompt: string;
  model: string;
  size: string;
  quality: string;
  createdAt: number;
  completesAt: number;
  imageUrls: string[];
}

/** Request fields of {@link DemoService.createTask} (same rules as a submit). */
export interface DemoTaskRequest {
  prompt: string;
  model?: string;
  size?: string;
  quality?: string;
}

/** The live request log; the arrays grow as requests arrive. */
export interface DemoRequestLog {
  requests: RequestLogEntry[];
  submits: RequestLogEntry[];
  polls: RequestLogEntry[];
  downloads: RequestLogEntry[];
}

/** A running demo service. */
export interface DemoService {
  /** `http://127.0.0.1:<port>` (or the host it listens on). */
  readonly url: string;
  readonly port: number;
  readonly log: DemoRequestLog;
  tasks(): DemoTaskSnapshot[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  setCredits(account: string, credits: number | undefined): void;
  /** The key is refused from now on (401), as one revoked at the service; its account stays. */
  revokeKey(key: string): void;
  setFailureRate(rate: number): void;
  setDuration(d: DemoServiceOptions['durationMs']): void;
  /** Dialects: the next n submits are answered 429 (replaces what was left). */
  setRateLimit(n: number): void;
  /** Dialects: the first n status reads of each task from now on carry an unknown status word. */
  setUnknownStatusPolls(n: number): void;
  /** A task "created outside the app" (same validation as a submit; costs no credit). */
  createTask(account: string, request: DemoTaskRequest): DemoTaskSnapshot;
  /** Completes a processing task now. */
  completeTask(id: string): void;
  /** Fails a processing task now, with `error` as its error (default: a generation_failed object). */
  failTask(id: string, error?: unknown): void;
  /** Every image URL handed out so far stops working (403). */
  expireImages(): void;
  /**
   * The storage origin: the second loopback server standing for signed upload targets (fal's
   * upload URL, DashScope's OSS host), and every request it received, oldest first.
   */
  readonly storage: { readonly url: string; readonly requests: readonly DemoStorageRequest[] };
  /** How many requests it is answering now (received, response not yet ended). */
  answering(): number;
  /**
   * The bytes it holds now under its `maxHeldBytes`: of request bodies being read (this server's
   * and its storage origin's), of uploaded files kept, and about those of the tasks kept (their
   * prompts, inputs and images made from inputs).
   */
  held(): { readonly bodies: number; readonly uploads: number; readonly tasks: number };
  /** Closes the server and destroys open sockets (hung ones included). */
  close(): Promise<void>;
}
