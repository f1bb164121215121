/**
 * `pictor self-test`: whether this installation can do what Pictor needs, checked on the code the
 * app runs, in a temporary data folder that is removed after: the history (node:sqlite and its
 * FTS5 trigram index), the image path (the host's image engine decodes one PNG, JPEG and WebP
 * and makes each a thumbnail), the XMP written into an image and read back, the Content
 * Credentials trust list the build ships (without it every signer reads as one Pictor cannot
 * vouch for), and whether the OS
 * can encrypt the key. One JSON line a person can paste into a bug report; `ok` false names the
 * step that failed. The host brings the engine and the encryption answer (app: Chromium's codecs
 * and safeStorage; plain Node: native sharp, and encryption "not applicable").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImageEngine } from '../../ports/image-engine';
import { UserFacingError } from '../errors/user-facing-error';
import { messageOf } from '../errors/thrown-value';
import type { HistoryStoreOptions } from '../history/history-store';
import { readTrustAnchors } from '../content-credentials/trust-anchors';
import { credentialsStep, historyStep, imagesStep, xmpStep } from './self-test-steps';

/** What the host says about the OS's encryption of the key (safeStorage in the app). */
export type EncryptionReport =
  | { readonly state: 'available'; readonly backend?: string }
  | { readonly state: 'unavailable'; readonly backend?: string }
  /** A host with no OS keychain of its own (the CLI run by Node): the key comes from the environment. */
  | { readonly state: 'not applicable' };

export type SelfTestStepName = 'history' | 'images' | 'xmp' | 'credentials' | 'encryption';

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
}

const STEP_TIMEOUT_MS = 60_000;

/** The message, with a user-facing error's technical detail (SQLite's own words) after it. */
function reasonOf(error: unknown): string {
  const detail = error instanceof UserFacingError ? error.detail : undefined;
  return detail ? `${messageOf(error)} (${detail})` : messageOf(error);
}

/** `work`, or a rejection once `ms` passed; the timer never keeps the process alive. */
async function within<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not finish within ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function step(
  name: SelfTestStepName,
  work: () => Promise<void>,
  timeoutMs: number,
): Promise<StepReport> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    await within(work, timeoutMs);
    return { step: name, ok: true, ms: ms() };
  } catch (error) {
    return { step: name, ok: false, ms: ms(), error: reasonOf(error) };
  }
}

/** Runs every step (a failed one does not stop the others) and removes the folder it used. */
export async function runSelfTest(options: SelfTestOptions): Promise<SelfTestReport> {
  const dir = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'pictor-self-test-'));
  const timeout = options.stepTimeoutMs ?? STEP_TIMEOUT_MS;
  const { engine } = options;
  let encryption: EncryptionReport = { state: 'unavailable' };
  try {
    const steps = [
      await step('history', async () => historyStep(dir, { database: options.database }), timeout),
      await step(
        'images',
        async () => {
          if (!engine) throw new Error('this host has no image engine');
          await imagesStep(dir, engine);
        },
        timeout,
      ),
      await step('xmp', () => xmpStep(dir, options.version), timeout),
      await step(
        'credentials',
        async () => credentialsStep(await (options.trustAnchors ?? readTrustAnchors)()),
        timeout,
      ),
      await step(
        'encryption',
        async () => {
          encryption = await options.encryption();
        },
        timeout,
      ),
    ];
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
