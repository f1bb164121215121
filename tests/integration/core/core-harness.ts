import { join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import {
  openPictorCore,
  type PictorCore,
  type PictorCoreOptions,
} from '../../../electron/core/pictor-core';
import type { TaskEngineOptions } from '../../../electron/core/engine/engine-types';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import type { Clock } from '../../../electron/ports/clock';
import type { Logger } from '../../../electron/ports/logger';
import type { CredentialsProvider } from '../../../electron/ports/credentials';
import { StaticCredentials } from '../../fakes/static-credentials';
import { afterEachTest } from '../../support/after-each-test';
import { bundledAnswers, bundledHistoryPort } from '../../support/bundled-history-worker';
import { testImageEngine } from '../../support/image-engine';
import { newLibraryAt } from '../../support/migrated-history';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { targetAt } from '../../support/submit-target';
import { providerRig, type ProviderRig } from '../providers/provider-harness';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];

afterEachTest(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The real core over the library in `dir` (`data/`, `gallery/`), with the tests' image engine, real
 * fetch and (unless given) clock, and polls fast enough for a test (200 ms, backoff at most 1 s).
 */
export function openTestCore(
  dir: string,
  credentials: CredentialsProvider,
  options: {
    engine?: Partial<TaskEngineOptions>;
    logger?: Logger | undefined;
    historyPort?: PictorCoreOptions['historyPort'];
    /**
     * Default the real clock, with a 20 s request limit (a test of the limit passes its own: at
     * 2 s a submit on a machine at load 40 outlived it and ended `submit_unknown`); a given clock
     * skips the gate's read.
     */
    clock?: Clock;
    requestTimeoutMs?: number;
  } = {},
): Promise<PictorCore> {
  return openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials,
    clock: options.clock ?? systemClock,
    // On a test's own clock the gate's real read would move requests on it (owners-unread.ts);
    // on the real clock the gate reads this host's tables as the app does.
    localServers: options.clock === undefined ? {} : OWNERS_UNREAD,
    requestTimeoutMs: options.requestTimeoutMs ?? 20_000,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.historyPort ? { historyPort: options.historyPort } : bundledHistoryPort()),
    ...bundledAnswers(),
    engine: { pollIntervalMs: 200, maxBackoffMs: 1_000, ...options.engine },
  });
}

/**
 * The demo's tasks complete by the engine's first poll (200 ms after the submit, not 2 to 4 polls
 * later): for a test that needs a gallery of real tasks' images, not how long a task takes.
 */
export const DONE_AT_FIRST_POLL: DemoServiceOptions = { durationMs: 0 };

/** The demo's accounts: alice with two keys, bob with one. */
const ACCOUNTS: DemoServiceOptions['accounts'] = [
  { account: 'alice', key: 'sk-alice' },
  { account: 'alice', key: 'sk-alice-2' },
  { account: 'bob', key: 'sk-bob' },
];

/**
 * The real core (SQLite history, gallery on disk, HTTP client) against the demo service on
 * loopback; its history's reads in the run's bundled worker, as the app has them, unless
 * `historyPort` says otherwise ({@link HISTORY_IN_THREAD}).
 */
export async function coreAgainstDemo(
  demoOptions: DemoServiceOptions = {},
  engine: Partial<TaskEngineOptions> = {},
  logger?: Logger,
  historyPort?: PictorCoreOptions['historyPort'],
) {
  const service: DemoService = await startDemoService({
    accounts: ACCOUNTS,
    durationMs: { min: 300, max: 600 },
    ...demoOptions,
  });
  const dir = await tempFolder('core');
  // Its history at today's schema already: every migration per test was no test's to prove.
  await newLibraryAt(join(dir, 'data'));
  const credentials = new StaticCredentials(service.url, 'sk-alice');
  const open = (): Promise<PictorCore> =>
    openTestCore(dir, credentials, { engine, logger, ...(historyPort ? { historyPort } : {}) });
  // Where its submits go: today's contract at the demo's address.
  const target = targetAt(service.url);
  const harness = { service, dir, credentials, target, core: await open(), open };
  cleanups.push(async () => {
    await harness.core.close().catch(() => undefined);
    await service.close();
    await removeFolder(dir);
  });
  return harness;
}

/**
 * The history's reads on the core's own thread, as a command-line run has them (electron/cli/
 * commands.ts): no worker thread started, warmed or asked to prebuild the gallery's positions as
 * the core opens. For a test whose proof never reaches what the worker answers (the Tasks screen's
 * counts and selections, the gallery's pages), only the history's records and writes on the
 * core's thread. CPU (3 alternating runs, load 41-52): template-runs.test.ts's 17 cores 14.8 s with
 * their workers, 12.8 s without; resend.test.ts's nine 12.1 s and 10.1 s.
 */
export const HISTORY_IN_THREAD: NonNullable<PictorCoreOptions['historyPort']> = { inThread: true };

/**
 * The same core and demo (today's contract, alice's key, the same accounts and task lengths), on
 * one manual clock (providerRig): a task's phases, polls, backoffs and Retry-After pass in clock
 * time while the test waits on its condition (`settle`, `drive`), not in real time. The demo's
 * 300 to 600 ms a task, 200 ms polls and a 1 s Retry-After took most of such a test's wall time
 * on the real clock.
 */
export function clockedCoreAgainstDemo(
  demoOptions: DemoServiceOptions = {},
  engine: Partial<TaskEngineOptions> = {},
  core: Pick<PictorCoreOptions, 'logger' | 'historyPort'> = {},
): Promise<ProviderRig> {
  return providerRig(
    'pictor',
    { accounts: ACCOUNTS, durationMs: { min: 300, max: 600 }, ...demoOptions },
    engine,
    core,
  );
}
