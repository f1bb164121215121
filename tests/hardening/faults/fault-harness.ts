/**
 * Shared pieces of the fault suites: the real core (openPictorCore) over a fresh temp folder with
 * the fetch, clock and base URL a scenario needs, a request log that survives the demo service's
 * log trimming, and checks of records and images on disk.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../../electron/ports/clock';
import type { FetchLike } from '../../../electron/ports/http';
import type { TaskEngineOptions } from '../../../electron/core/engine/engine-types';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { PictorCoreOptions } from '../../../electron/core/pictor-core';
import type {
  DemoService,
  DemoTaskSnapshot,
  RequestLogEntry,
} from '../../../electron/demo-service/types';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';
export { maxInWindow } from '../../support/bursts';

/** The key every suite here uses; searched for in records to count leaks. */
export const KEY = 'sk-fault-suite-key-4f7c1d';

/** What a scenario needs to open (and reopen) the core. */
export interface CoreSetup {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  readonly clock: Clock;
  readonly requestTimeoutMs: number;
  readonly engine: Partial<TaskEngineOptions>;
  /**
   * The loopback-owner check's socket tables (local-server-gate.ts); default unread, as off Linux
   * (owners-unread.ts says why).
   */
  readonly localServers?: PictorCoreOptions['localServers'];
}

/** The core over its own temp folder; `reopen` stands for the app's next start. */
export interface CoreRun {
  core: PictorCore;
  readonly dir: string;
  /** Where its submits go: today's contract at the setup's address. */
  readonly target: SubmitTarget;
  reopen(): Promise<PictorCore>;
  dispose(): Promise<void>;
}

/** Opens the real core (SQLite history, gallery on disk, HTTP client, engine) in a temp folder. */
export async function openCoreRun(setup: CoreSetup): Promise<CoreRun> {
  const dir = await tempFolder('faults', memoryTempParent());
  const credentials = new StaticCredentials(setup.baseUrl, KEY);
  const open = (): Promise<PictorCore> =>
    openPictorCore({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      galleryDir: join(dir, 'gallery'),
      fetch: setup.fetch,
      credentials,
      clock: setup.clock,
      requestTimeoutMs: setup.requestTimeoutMs,
      engine: setup.engine,
      ...bundledCoreWorkers(),
      localServers: setup.localServers ?? OWNERS_UNREAD,
    });
  const run: CoreRun = {
    core: await open(),
    dir,
    target: targetAt(setup.baseUrl),
    async reopen() {
      await run.core.close();
      run.core = await open();
      return run.core;
    },
    async dispose() {
      await run.core.close().catch(() => undefined);
      await removeFolder(dir);
    },
  };
  return run;
}

/** Every record in the history (paged through, 500 at a time). */
export function allRecords(core: PictorCore): TaskRecord[] {
  const records: TaskRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = core.history.list({ limit: 500, cursor });
    records.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return records;
}

/**
 * A copy of the demo service's request log that keeps every entry: the service trims its own log
 * past 11,000 entries, which a soak-size run exceeds. Entries are the service's objects, so a
 * status set after arrival is seen here too.
 */
export class LogCollector {
  readonly entries: RequestLogEntry[] = [];
  private readonly seen = new WeakSet<RequestLogEntry>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly service: DemoService) {
    this.timer = setInterval(() => this.collect(), 20);
  }

  /** Takes the entries that arrived since the last call (scanning back to the first one seen). */
  collect(): RequestLogEntry[] {
    const log = this.service.log.requests;
    let start = log.length;
    while (start > 0 && !this.seen.has(log[start - 1]!)) start -= 1;
    const fresh = log.slice(start);
    for (const entry of fresh) this.seen.add(entry);
    this.entries.push(...fresh);
    return this.entries;
  }

  stop(): RequestLogEntry[] {
    clearInterval(this.timer);
    return this.collect();
  }
}

/** The task id a poll path names. */
export function polledTaskId(entry: RequestLogEntry): string | null {
  return /^\/v1\/tasks\/([^/?]+)/.exec(entry.path)?.[1] ?? null;
}

/** Groups entries by a key (entries without one are left out). */
export function groupBy<T>(
  items: readonly T[],
  keyOf: (item: T) => string | null,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null) continue;
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  return groups;
}

/** Adds one to a named counter. */
export function bump(counts: Record<string, number>, name: string, by = 1): void {
  counts[name] = (counts[name] ?? 0) + by;
}

/** Why a saved image is not a real one on disk, or null when it is: file, decodable, thumbnail. */
export async function problemWithSavedImage(
  core: PictorCore,
  image: TaskRecord['images'][number],
): Promise<string | null> {
  if (!image.file || !image.thumbnail) return 'no file or thumbnail recorded';
  const file = core.gallery.resolve(image.file);
  const thumbnail = core.gallery.resolve(image.thumbnail);
  if (!existsSync(file)) return `missing file ${image.file}`;
  if (!existsSync(thumbnail)) return `missing thumbnail ${image.thumbnail}`;
  try {
    const [full, thumb] = await Promise.all([sharp(file).metadata(), sharp(thumbnail).metadata()]);
    if (full.width !== image.width || full.height !== image.height) return 'wrong dimensions';
    if (!thumb.width) return 'undecodable thumbnail';
    await sharp(file).raw().toBuffer();
  } catch (error) {
    return `undecodable: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}

/** How many records mention the key's text anywhere (must be 0). */
export function recordsWithKey(records: readonly TaskRecord[]): number {
  return records.filter((record) => JSON.stringify(record).includes(KEY)).length;
}

/** What a finished run left, as the checks read it: the app's records, the service's view. */
export interface RunFacts {
  readonly core: PictorCore;
  readonly records: readonly TaskRecord[];
  readonly tasks: readonly DemoTaskSnapshot[];
  readonly log: readonly RequestLogEntry[];
  readonly expectedTasks: number;
  readonly intervalMs: number;
}

/** Node's fetch, counting the requests out (polls, submits): a suite's "nothing moves" check. */
export function countingFetch(): { fetch: FetchLike; inFlight: () => number } {
  let out = 0;
  const counted: FetchLike = async (url, init) => {
    out += 1;
    try {
      return await fetch(url, init);
    } finally {
      out -= 1;
    }
  };
  return { fetch: counted, inFlight: () => out };
}
