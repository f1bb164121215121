/**
 * The real core (SQLite history, gallery on disk, the service client over node fetch) against
 * the demo service speaking one provider's dialect on loopback, both on one manual clock: a
 * test moves time itself, so a task's phases, backoffs, watch timeouts and link lifetimes
 * happen in clock time, never in sleeps, and a test never bounds anything by the wall clock.
 */
import { join } from 'node:path';
import type { ProviderId } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import {
  openPictorCore,
  type PictorCore,
  type PictorCoreOptions,
} from '../../../electron/core/pictor-core';
import type { TaskEngineOptions } from '../../../electron/core/engine/engine-types';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { startDemoService } from '../../../electron/demo-service/server';
import type {
  DemoService,
  DemoServiceOptions,
  RequestLogEntry,
} from '../../../electron/demo-service/types';
import type { CredentialsProvider, ServiceCredentials } from '../../../electron/ports/credentials';
import { ManualClock } from '../../fakes/manual-clock';
import { answered } from '../../support/in-flight';
import { syncFingerprint } from '../../fakes/static-credentials';
import { afterEachTest } from '../../support/after-each-test';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { testImageEngine } from '../../support/image-engine';
import { newLibraryAt } from '../../support/migrated-history';
import { targetAt } from '../../support/submit-target';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

export type DialectId = Exclude<ProviderId, 'pictor'>;

/** Where each dialect reads the key, and how its value carries it. */
export const KEY_HEADER: Readonly<
  Record<ProviderId, { name: string; value: (key: string) => string }>
> = {
  pictor: { name: 'authorization', value: (key) => `Bearer ${key}` },
  fal: { name: 'authorization', value: (key) => `Key ${key}` },
  replicate: { name: 'authorization', value: (key) => `Bearer ${key}` },
  dashscope: { name: 'authorization', value: (key) => `Bearer ${key}` },
  bfl: { name: 'x-key', value: (key) => key },
  // A proxied ComfyUI's Bearer key (a local one takes none).
  comfyui: { name: 'authorization', value: (key) => `Bearer ${key}` },
};

/** A size each dialect takes as it is (BFL: multiples of 32 from 256; DashScope: from 512). */
export const SIZE: Readonly<Record<ProviderId, string>> = {
  pictor: '256x256',
  fal: '256x256',
  replicate: '256x256',
  dashscope: '512x512',
  bfl: '256x256',
  comfyui: '256x256',
};

/** Credentials held in memory, entered for one provider; `setKey` stands for a pasted key. */
export class ProviderCredentials implements CredentialsProvider {
  constructor(
    private readonly baseUrl: string,
    private key: string | null,
    private provider: ProviderId,
  ) {}

  setKey(key: string | null): void {
    this.key = key;
  }

  /** The user entered the key again for another kind of service. */
  setProvider(provider: ProviderId): void {
    this.provider = provider;
  }

  currentEndpoint(): string {
    return this.baseUrl;
  }

  async credentialsFor(endpoint: string): Promise<ServiceCredentials | null> {
    if (endpoint !== this.baseUrl || !this.key) return null;
    return {
      baseUrl: this.baseUrl,
      key: this.key,
      keyFingerprint: syncFingerprint(this.key),
      provider: this.provider,
    };
  }

  baseUrlFor(endpoint: string): string | null {
    return endpoint === this.baseUrl ? this.baseUrl : null;
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEachTest(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Registers work to undo after the test (a server to close), run in reverse order. */
export function afterTest(cleanup: () => Promise<unknown>): void {
  cleanups.push(cleanup);
}

/**
 * How the clock is moved while a test waits: to the next due timer, but never more than
 * `maxStepMs` at once (an answer may be on its way over loopback, or a file being written: a
 * far timer such as a lease renewal is reached in several moves, so real work keeps up with the
 * clock), at least `minStepMs`; a wait gives up (throws) after `withinMs` of clock time.
 */
export interface DriveOptions {
  readonly withinMs?: number;
  readonly maxStepMs?: number;
  /** What the error says of the state when the wait gives up (where a task stood). */
  readonly state?: () => string;
}

const MIN_STEP_MS = 20;
const DEFAULT_MAX_STEP_MS = 250;
const DEFAULT_WITHIN_MS = 30 * 60_000;

export const KEY = 'sk-alice';

export interface ProviderRig {
  readonly provider: ProviderId;
  readonly service: DemoService;
  readonly clock: ManualClock;
  readonly credentials: ProviderCredentials;
  /** Where its submits go: the provider at the demo's address. */
  readonly target: SubmitTarget;
  readonly dir: string;
  core: PictorCore;
  /** Closes the core (its engine stops, its leases go) and opens another on the same folders. */
  restart(): Promise<void>;
  /** Moves the clock (see {@link DriveOptions}) until `condition` holds. */
  drive(condition: () => boolean, options?: DriveOptions): Promise<void>;
  /** Moves the clock `ms` forward, in the same steps as {@link drive}. */
  pass(ms: number): Promise<void>;
  /** The records once every task needs nothing more from this run, the clock moved meanwhile. */
  settle(localIds: readonly string[], options?: DriveOptions): Promise<TaskRecord[]>;
  /** The record of `localId` as the history holds it. */
  stored(localId: string): TaskRecord;
}

/**
 * The engine's timing for a crowd of tasks watched over tens of seconds of clock (BFL's 24
 * running at once): each polled every 2 s instead of 200 ms. 24 tasks polled for 20 s of clock
 * were 2,400 polls, each a loopback request whose answer the answer worker parses, most of such
 * a test's time; when a task ends is still seen within one interval, and the waits for room
 * (submitter.ts) take the same interval.
 */
export const CROWD_TIMING: Partial<TaskEngineOptions> = {
  pollIntervalMs: 2_000,
  maxBackoffMs: 4_000,
};

/** The core and the demo service speaking `provider`'s dialect, on one manual clock. */
export async function providerRig(
  provider: ProviderId,
  demoOptions: DemoServiceOptions = {},
  engine: Partial<TaskEngineOptions> = {},
  /** `fetch`: the core's transport (node's fetch when absent, as the CLI's). */
  coreOptions: Pick<PictorCoreOptions, 'maxImageBytes' | 'logger' | 'historyPort'> &
    Partial<Pick<PictorCoreOptions, 'fetch'>> = {},
): Promise<ProviderRig> {
  const { fetch: transport = fetch, ...otherCoreOptions } = coreOptions;
  const clock = new ManualClock(Date.now());
  const service = await startDemoService({
    dialect: provider,
    accounts: [
      { account: 'alice', key: KEY },
      { account: 'bob', key: 'sk-bob' },
    ],
    durationMs: 1_000,
    now: () => clock.now(),
    ...demoOptions,
  });
  cleanups.push(() => service.close());
  const dir = await tempFolder(provider);
  cleanups.push(() => removeFolder(dir));
  // Its history at today's schema already (migration from nothing is the history's tests').
  await newLibraryAt(join(dir, 'data'));
  const credentials = new ProviderCredentials(service.url, KEY, provider);
  let asking = 0;
  const counted = async <T>(request: () => Promise<T>): Promise<T> => {
    asking += 1;
    try {
      return await request();
    } finally {
      asking -= 1;
    }
  };
  // Every file operation of the engine's is work in flight too: a download from its first file
  // operation to its outcome, a sidecar written (a download waits for the task's sidecar before
  // it starts), inline images kept and dropped; so is every call to the service until its answer
  // is read (the answer worker reads it after the response came, on another thread and in real
  // time). Else the clock runs on while the engine works in real time: under load, a sidecar
  // write before a retried download took long enough for the clock to pass ten links' lifetimes.
  const counting = (core: PictorCore): PictorCore => {
    const intake = core.intake;
    const download = intake.downloadImage.bind(intake);
    intake.downloadImage = (...args) => counted(() => download(...args));
    const keepInline = intake.keepInline.bind(intake);
    intake.keepInline = (...args) => counted(() => keepInline(...args));
    const dropInline = intake.dropInline.bind(intake);
    intake.dropInline = (...args) => counted(() => dropInline(...args));
    const gallery = core.gallery;
    const writeSidecar = gallery.writeSidecar.bind(gallery);
    gallery.writeSidecar = (...args) => counted(() => writeSidecar(...args));
    const client = core.client;
    const [submit, getTask, cancel] = [client.submit, client.getTask, client.cancel].map((method) =>
      method.bind(client),
    ) as [typeof client.submit, typeof client.getTask, typeof client.cancel];
    client.submit = (...args) => counted(() => submit(...args));
    client.getTask = (...args) => counted(() => getTask(...args));
    client.cancel = (...args) => counted(() => cancel(...args));
    return core;
  };
  const open = async (): Promise<PictorCore> => counting(await openCore());
  const openCore = (): Promise<PictorCore> =>
    openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: async (url, init) => counted(() => transport(url, init)),
      credentials,
      clock,
      // A request's own timeout runs on real time: far above a loopback answer on a loaded machine.
      requestTimeoutMs: 20_000,
      // No held waits unless a test asks (held-waits.test.ts): a wait held open is a request in
      // flight, which stands the clock still while it lasts.
      engine: {
        pollIntervalMs: 200,
        maxBackoffMs: 1_000,
        watchTimeoutMs: null,
        heldWaitMs: null,
        ...engine,
      },
      ...bundledCoreWorkers(),
      // No read of /proc before each request: its real time would move requests on the clock.
      localServers: OWNERS_UNREAD,
      ...otherCoreOptions,
    });
  const drive = async (condition: () => boolean, options: DriveOptions = {}): Promise<void> => {
    const { withinMs = DEFAULT_WITHIN_MS, maxStepMs = DEFAULT_MAX_STEP_MS, state } = options;
    const until = clock.now() + withinMs;
    while (!condition()) {
      // Time stands still while the service answers or the engine writes: a request or a file
      // operation in flight takes no clock time, however slow a loaded machine makes it (else
      // the clock outruns the engine).
      await answered(() => asking > 0 || service.answering() > 0);
      if (condition()) break;
      if (clock.now() > until) {
        const stood = state ? ` Then: ${state()}` : '';
        throw new Error(`The condition did not hold within ${withinMs} ms of clock time.${stood}`);
      }
      const next = clock.nextDue();
      const gap = next === null ? MIN_STEP_MS : next - clock.now();
      await clock.advance(Math.min(maxStepMs, Math.max(MIN_STEP_MS, gap)));
    }
  };
  const rig: ProviderRig = {
    provider,
    service,
    clock,
    credentials,
    target: targetAt(service.url, provider),
    dir,
    core: await open(),
    async restart() {
      await rig.core.close();
      rig.core = await open();
    },
    drive,
    async pass(ms) {
      const until = clock.now() + ms;
      await drive(() => clock.now() >= until, { withinMs: ms + DEFAULT_MAX_STEP_MS });
    },
    async settle(localIds, options) {
      let settled: TaskRecord[] | null = null;
      void rig.core.engine.whenSettled(localIds).then((records) => {
        settled = records;
      });
      await drive(() => settled !== null, options);
      return settled ?? [];
    },
    stored(localId) {
      const record = rig.core.history.get(localId);
      if (!record) throw new Error(`The history has no task ${localId}.`);
      return record;
    },
  };
  cleanups.push(() => rig.core.close());
  return rig;
}

/**
 * Every place the demo's log shows `key`: `where` is the header name, or `path` when it was in
 * the address. A request that carries it outside the dialect's header shows up here.
 */
export function keySightings(
  entries: readonly RequestLogEntry[],
  key: string,
): { route: string; where: string; value: string }[] {
  const seen: { route: string; where: string; value: string }[] = [];
  for (const entry of entries) {
    if (entry.path.includes(key)) seen.push({ route: entry.route, where: 'path', value: '' });
    for (const [name, value] of Object.entries(entry.headers)) {
      if (value.includes(key)) seen.push({ route: entry.route, where: name, value });
    }
  }
  return seen;
}

/** The most tasks the demo had running at once, from when each was created and finished. */
export function mostRunningAtOnce(
  tasks: readonly { createdAt: number; completesAt: number }[],
): number {
  const edges = tasks.flatMap((task) => [
    { at: task.createdAt, step: 1 },
    { at: task.completesAt, step: -1 },
  ]);
  // A task that ends at the moment another starts is not running beside it.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let running = 0;
  let most = 0;
  for (const edge of edges) {
    running += edge.step;
    most = Math.max(most, running);
  }
  return most;
}
