/**
 * `pictor self-test`: whether this installation can do what Pictor needs, checked on the code the
 * app runs (what the app loads lazily included), in a temporary data folder that is removed
 * after, each check a step of its own: the history (node:sqlite and its FTS5 trigram index), the
 * image path (the host's image engine decodes a PNG, a JPEG and a WebP and makes each a
 * thumbnail: `image-png`, `image-jpeg`, `image-webp`), the XMP written into an image and read
 * back, the Content Credentials trust list the build ships (without it every signer reads as one
 * Pictor cannot vouch for), one signed sample verified in the image renderer (`c2pa-renderer`,
 * the app only) and through the worker-thread verifier it falls back to (`c2pa-worker`), and
 * whether the OS can encrypt the key. Every step has a time limit that fires: no step runs
 * synchronous work that could block it (the encryption probe is the asynchronous one, which a
 * keychain prompt nobody answers cannot hold past its limit). One JSON line a person can paste
 * into a bug report; `ok` false names the step that failed. The host brings the engine, the
 * renderer's verifier and the encryption answer (app: Chromium's codecs and safeStorage; plain
 * Node: native sharp, and encryption "not applicable").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../ports/clock';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import type { ImageEngine } from '../../ports/image-engine';
import { messageOf, UserFacingError } from '../errors';
import type { HistoryStoreOptions } from '../history';
import { C2paVerifier, readTrustAnchors } from '../content-credentials';
import { selfTestImages } from './self-test-images';
import { c2paStep, credentialsStep, historyStep, imageStep, xmpStep } from './self-test-steps';

/** What the host says about the OS's encryption of the key (safeStorage in the app). */
export type EncryptionReport =
  | { readonly state: 'available'; readonly backend?: string }
  | { readonly state: 'unavailable'; readonly backend?: string }
  /** A host with no OS keychain of its own (the CLI run by Node): the key comes from the environment. */
  | { readonly state: 'not applicable' };

export type SelfTestStepName =
  | 'history'
  | 'image-png'
  | 'image-jpeg'
  | 'image-webp'
  | 'xmp'
  | 'credentials'
  | 'c2pa-renderer'
  | 'c2pa-worker'
  | 'encryption';

/** Makes a Content Credentials verifier for a trust list (the step ends it). */
export type VerifierFactory = (trustAnchors: string) => ContentCredentialVerifier;

export type StepReport =
  | { readonly step: SelfTestStepName; readonly ok: true; readonly ms: number }
  | {
      readonly step: SelfTestStepName;
      readonly ok: false;
      readonly ms: number;
      readonly error: string;
    };

/** The JSON line. */
export interface SelfTestReport {
  readonly ok: boolean;
  /** The first step that failed, when one did. */
  readonly failed?: SelfTestStepName;
  readonly version: string;
  readonly platform: string;
  readonly runtime: { readonly node: string; readonly electron?: string };
  readonly imageEngine: string;
  readonly encryption: EncryptionReport;
  readonly steps: readonly StepReport[];
}

export interface SelfTestOptions {
  /** The host's image engine; null when the host has none (the images step then fails). */
  readonly engine: ImageEngine | null;
  readonly encryption: () => Promise<EncryptionReport>;
  readonly version: string;
  /** Where the temporary data folder goes; default the OS's temp folder. */
  readonly tempRoot?: string;
  /** How long one step may take before it counts as failed. */
  readonly stepTimeoutMs?: number;
  /** How the history opens its file (default node:sqlite). */
  readonly database?: HistoryStoreOptions['database'];
  /** The Content Credentials trust list (default: the one this build ships). */
  readonly trustAnchors?: () => Promise<string>;
  /** The image renderer's verifier (the app's); absent: no `c2pa-renderer` step. */
  readonly rendererVerifier?: VerifierFactory;
  /** The worker-thread verifier (default: the core's, c2pa-verifier.ts). */
  readonly workerVerifier?: VerifierFactory;
  /** The steps' time limits run on it (tests: a manual clock); default the system's. */
  readonly clock?: Clock;
}

const STEP_TIMEOUT_MS = 60_000;

/** Node's timers, unreferenced: a step's limit never keeps the process alive. */
const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  monotonic: () => performance.now(),
};

/** The message, with a user-facing error's technical detail (SQLite's own words) after it. */
function reasonOf(error: unknown): string {
  const detail = error instanceof UserFacingError ? error.detail : undefined;
  return detail ? `${messageOf(error)} (${detail})` : messageOf(error);
}

interface Limits {
  readonly timeoutMs: number;
  readonly clock: Clock;
}

/** `work`, or a rejection once `ms` passed on `clock`, its signal then aborted. */
async function within(
  work: (signal: AbortSignal) => Promise<void>,
  { timeoutMs, clock }: Limits,
): Promise<void> {
  const abort = new AbortController();
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = clock.setTimeout(() => {
      const error = new Error(`it did not finish within ${timeoutMs} ms`);
      reject(error);
      abort.abort(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([work(abort.signal), late]);
  } finally {
    if (timer !== undefined) clock.clearTimeout(timer);
  }
}

async function step(
  name: SelfTestStepName,
  work: (signal: AbortSignal) => Promise<void>,
  limits: Limits,
): Promise<StepReport> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    await within(work, limits);
    return { step: name, ok: true, ms: ms() };
  } catch (error) {
    return { step: name, ok: false, ms: ms(), error: reasonOf(error) };
  }
}

/** One step per embedded image: the engine decodes it and makes its thumbnail. */
function imageSteps(dir: string, engine: ImageEngine | null, limits: Limits) {
  return selfTestImages().map(
    (image) => async () =>
      step(
        `image-${image.header.format}`,
        async (signal) => {
          if (!engine) throw new Error('this host has no image engine');
          await imageStep(dir, engine, image, signal);
        },
        limits,
      ),
  );
}

/** The signed sample in the renderer (when the host has one) and in the worker thread. */
function c2paSteps(options: SelfTestOptions, limits: Limits) {
  const worker = options.workerVerifier ?? ((trustAnchors) => new C2paVerifier({ trustAnchors }));
  const renderer = options.rendererVerifier;
  return [
    ...(renderer
      ? [async () => step('c2pa-renderer', (signal) => c2paStep(renderer, signal), limits)]
      : []),
    async () => step('c2pa-worker', (signal) => c2paStep(worker, signal), limits),
  ];
}

/** Runs every step (a failed one does not stop the others) and removes the folder it used. */
export async function runSelfTest(options: SelfTestOptions): Promise<SelfTestReport> {
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'pictor-self-test-'));
  const limits: Limits = {
    timeoutMs: options.stepTimeoutMs ?? STEP_TIMEOUT_MS,
    clock: options.clock ?? SYSTEM_CLOCK,
  };
  const { engine } = options;
  let encryption: EncryptionReport = { state: 'unavailable' };
  try {
    const runs = [
      async () =>
        step('history', async () => historyStep(dir, { database: options.database }), limits),
      ...imageSteps(dir, engine, limits),
      async () => step('xmp', () => xmpStep(dir, options.version), limits),
      async () =>
        step(
          'credentials',
          async () => credentialsStep(await (options.trustAnchors ?? readTrustAnchors)()),
          limits,
        ),
      ...c2paSteps(options, limits),
      async () =>
        step(
          'encryption',
          async () => {
            encryption = await options.encryption();
          },
          limits,
        ),
    ];
    // One after the other: a step's time is its own.
    const steps: StepReport[] = [];
    for (const run of runs) steps.push(await run());
    const failed = steps.find((report) => !report.ok)?.step;
    return {
      ok: failed === undefined,
      ...(failed ? { failed } : {}),
      version: options.version,
      platform: `${process.platform}-${process.arch}`,
      runtime: {
        node: process.versions.node,
        ...(process.versions['electron'] ? { electron: process.versions['electron'] } : {}),
      },
      imageEngine: engine?.name ?? 'none',
      encryption,
      steps,
    };
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
