/**
 * What a host gives the core when it opens it (pictor-core.ts): the ports, the folders and the
 * test seams. Its own file so the core's assembly reads apart from the list of what it takes.
 */
import type { Clock } from '../ports/clock';
import type { ImageEngine } from '../ports/image-engine';
import type { CredentialsProvider } from '../ports/credentials';
import type { FetchLike, PinnedFetch, Resolver } from '../ports/http';
import type { Logger } from '../ports/logger';
import type { TaskEngineOptions } from './engine';
import type { LibraryFolderRecord, RelocateFaults } from './library';
import type { HistoryPortOptions } from './history';
import type { AnswerReader, LocalServerGate } from './service';
import type { ContentCredentialVerifier } from '../ports/content-credential-verifier';
import type { SystemTrash } from '../ports/system-trash';
import type { InputQuotaLimits, InputSettings } from './inputs';
import type { KeyValueStore } from '../ports/key-value-store';

export interface PictorCoreOptions {
  /** Where the history lives (the app's user-data folder). Shared with other Pictor processes. */
  readonly dataDir: string;
  /** Absolute gallery folder. */
  readonly galleryDir: string;
  readonly fetch: FetchLike;
  readonly credentials: CredentialsProvider;
  readonly clock: Clock;
  readonly logger?: Logger;
  readonly engine?: Partial<TaskEngineOptions>;
  readonly requestTimeoutMs?: number;
  /** The most one image may weigh, downloaded or sent inline; default the gallery's (64 MiB). */
  readonly maxImageBytes?: number;
  /**
   * Decodes images and makes their thumbnails, chosen by the host: the app's Chromium image
   * renderer, native sharp in plain-Node hosts (CLI from a checkout, tests, bench), or
   * header-only where neither runs. The core never picks one itself.
   */
  readonly imageEngine: ImageEngine;
  /** Pictor's version, written into every saved image's metadata; default `UNKNOWN_VERSION` (pictor-core.ts). */
  readonly appVersion?: string;
  /**
   * Verifies the Content Credentials of saved images; default a worker-thread verifier against
   * the shipped trust list (core/content-credentials), ended by `close()`. Either way the core
   * hands it stores fairly: by service, within each task's budget (fair-verifier.ts).
   */
  readonly contentCredentials?: ContentCredentialVerifier;
  /** Injected faults for tests (a port), passed to every library move. */
  readonly libraryFaults?: RelocateFaults;
  /** Where the library's folder is recorded when it moves (the app's setting); default nowhere. */
  readonly libraryFolder?: LibraryFolderRecord;
  /** Least time between two progress reports of a long operation; default 100 ms. */
  readonly progressEveryMs?: number;
  /** The user's time zone (IANA name) for the cost ledger's days and months; default the host's. */
  readonly timeZone?: string;
  /**
   * Where deleted images go once their time for Undo ends: the host's system trash; default none
   * (they stay held in the gallery's trash folder, as after a failed hand-over).
   */
  readonly systemTrash?: SystemTrash;
  /**
   * The settings a task's input images are sent under, read at each send ("never upload inputs",
   * the services agreed to make public links); default: uploads allowed, no public links.
   */
  readonly inputSettings?: () => InputSettings;
  /**
   * Where a host that keeps no settings service of its own (the CLI) keeps the app's settings
   * (settings.json): the core reads "never upload inputs" and the upload consents there, and
   * the core's `editSettings` records a consent there. Without it, `inputSettings`.
   */
  readonly settingsStore?: KeyValueStore;
  /**
   * How the history's heavy operations run: in its worker (default), or here (`inThread`: the
   * CLI); tests give the worker's gate (history-port.ts) to hold or end it mid-write.
   */
  readonly historyPort?: HistoryPortOptions;
  /**
   * What reads the service's answers (tests: one whose worker is the run's bundle, not the source
   * under tsx); default the process's shared reader.
   */
  readonly answers?: AnswerReader;
  /** How an upload target's name resolves (tests); default the operating system's. */
  readonly resolve?: Resolver;
  /**
   * How an image download connects (tests); default a direct connection pinned to the address
   * checked, each connection judged by the local-server gate (core/download/gated-transports.ts).
   */
  readonly imageFetch?: PinnedFetch;
  /**
   * How an input reaches a signed upload target (tests); default a direct connection pinned to
   * the address checked, as image downloads.
   */
  readonly signedFetch?: PinnedFetch;
  /** How much the inputs no task names may hold (tests); default the app's (input-quota.ts). */
  readonly inputQuota?: InputQuotaLimits;
  /** Who listens at a loopback address (tests make it another user); default this host's tables. */
  readonly localServers?: Omit<LocalServerGate, 'allowed'>;
  /**
   * The service's plain-http requests to a server on this computer, and its https ones to an
   * address written as one (a loopback literal, `localhost`), go through the core's own pinned
   * transport, each connection judged before a byte is written
   * (core/download/gated-transports.ts): the app and the CLI, whose `fetch` cannot be judged so.
   * Default false: `fetch` as given, after a look at the listener (tests whose own `fetch` counts
   * or faults a loopback service's requests).
   */
  readonly pinLocalServers?: boolean;
}
