/**
 * What the CLI's commands over a library share: the core opened on their service (the built-in
 * demo started inside the command, or the one SERVICE_API_KEY is for), and the watch that follows
 * their tasks and reports them.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { plainNodeImageEngine } from '../adapters/image-engines/plain-node-engine';
import { createNodeFetch } from '../adapters/node-fetch';
import { JsonFileKv } from '../adapters/json-file-kv';
import type { ImageEngine } from '../ports/image-engine';
import type { CredentialsProvider } from '../ports/credentials';
import { systemClock } from '../adapters/system-clock';
import { openPictorCore, type PictorCore } from '../core/pictor-core';
import { heldUntilClosed, holdLibraryOpen } from '../core/fs';
import type { CommonOptions } from './common-args';
import type { ServiceChoice } from './service-args';
import { worksWithoutKey, type ProviderId } from '../../shared/domain/providers';
import { UsageError } from '../core/command-line';
import { CliProgress } from './cli-progress';
import { EXIT, jsonLine, worstExitCode } from './cli-report';
import { problemLine, resumeAllCommand, resumeLineFor, type ResumeWhere } from './resume-lines';
import { BuiltInDemo, demoDialectsFor } from './built-in-demo';
import { demoStartedLine } from './demo-choice';
import { EnvCredentials } from './env-credentials';
import { terminalSafe } from './terminal-text';
import { cliLogger } from './library-reader';
import type { CliIo } from './cli-io';

/** Where a command needs a key it was not given: the way without one, if there is one. */
const NO_KEY_HINT: Readonly<Record<string, string>> = {
  generate: ' To try Pictor with no key, use --provider demo: its built-in demo service.',
  resume: " The built-in demo's tasks resume with --provider demo, which needs no key.",
};

/**
 * Opens the core for a command on its service (the built-in demo started inside it, or the one
 * SERVICE_API_KEY is for) and runs `body` on it; closes everything after.
 * @throws UsageError when the service needs a key (`needsKey`) and SERVICE_API_KEY is not set.
 */
export async function runOnService(
  command: {
    readonly name: string;
    readonly common: CommonOptions;
    readonly service?: ServiceChoice;
  },
  io: CliIo,
  body: (run: Run, credentials: EnvCredentials) => Promise<number>,
  {
    needsKey = true,
    widen,
  }: {
    readonly needsKey?: boolean;
    /** The core's keys beyond the command's service (`pictor mcp`'s compare: mcp-credentials.ts). */
    readonly widen?: (credentials: EnvCredentials) => Promise<CredentialsProvider>;
  } = {},
): Promise<number> {
  const service = command.service ?? null;
  const demo = service?.builtInDemo ? new BuiltInDemo(demoDialectsFor(command.name)) : null;
  const credentials = await EnvCredentials.create(
    io.env,
    service?.baseUrl ?? null,
    service?.provider,
    demo ?? undefined,
  );
  const keyless = worksWithoutKey(service?.provider);
  if (needsKey && service !== null && demo === null && !credentials.hasKey && !keyless) {
    const hint = NO_KEY_HINT[command.name] ?? '';
    throw new UsageError(
      `Set SERVICE_API_KEY to your API key for the service (it is read from the environment only).${hint}`,
    );
  }
  const keys = widen ? await widen(credentials) : credentials;
  const { core, imageEngine } = await openCliCore(command.common, keys, io);
  const run: Run = {
    core,
    common: command.common,
    io,
    namedBaseUrl: credentials.namedBaseUrl,
    provider: credentials.provider,
    baseUrlTyped: service?.baseUrlTyped ?? false,
    builtInDemo: demo !== null,
  };
  try {
    if (demo !== null) {
      await demo.start({ images: imageEngine, history: core.history, env: io.env });
      io.stderr(demoStartedLine(Boolean(io.env.SERVICE_API_KEY?.trim())));
    }
    return await body(run, credentials);
  } finally {
    // The engine first (it polls the demo), then the demo (it draws with the image engine).
    await core.close();
    await demo?.close();
    await imageEngine.dispose();
  }
}

/**
 * The core a CLI command works on, over `credentials`, and the image engine it opened for it: the
 * caller closes the core, then disposes of the engine (this does when the core cannot open).
 */
export async function openCliCore(
  common: CommonOptions,
  credentials: CredentialsProvider,
  io: CliIo,
): Promise<{ core: PictorCore; imageEngine: ImageEngine }> {
  // Held open until the core closes: the app moves no library under a command's writes.
  const hold = await holdLibraryOpen(common.dataDir);
  const imageEngine = await (io.imageEngine ?? plainNodeImageEngine)().catch(
    async (error: unknown) => {
      await hold();
      throw error;
    },
  );
  try {
    const core = await openPictorCore({
      imageEngine,
      dataDir: common.dataDir,
      galleryDir: common.galleryDir,
      fetch: createNodeFetch(io.env),
      // As the app: this computer's plain-http servers through the core's judged transport.
      pinLocalServers: true,
      credentials,
      clock: systemClock,
      logger: cliLogger(common, io),
      engine: { pollIntervalMs: common.pollIntervalMs, watchTimeoutMs: common.timeoutMs },
      // A task's input images go as the app's settings say (its settings.json, core/settings).
      settingsStore: new JsonFileKv(common.dataDir, 'settings'),
      // No window waits on a command: a history worker's start would cost more than its write.
      historyPort: { inThread: true },
    });
    return { core: heldUntilClosed(core, hold), imageEngine };
  } catch (error) {
    await imageEngine.dispose();
    await hold();
    throw error;
  }
}

/** One command's run: the core, its options, and the service the user named. */
export interface Run {
  readonly core: PictorCore;
  readonly common: CommonOptions;
  readonly io: CliIo;
  /**
   * checkBaseUrl's spelling of --base-url (or --provider's own address), the only service a
   * printed command may name.
   */
  readonly namedBaseUrl: string | null;
  /** --provider: the kind of service SERVICE_API_KEY is for. */
  readonly provider: ProviderId;
  /** The user typed --base-url (a printed command repeats it). */
  readonly baseUrlTyped: boolean;
  /** --provider demo: this command runs the built-in demo (a printed command repeats it). */
  readonly builtInDemo: boolean;
}

/** A task's --json line (default: {@link jsonLine}'s). */
type JsonOf = (record: TaskRecord, resolvePath: (relative: string) => string) => string;

/**
 * Waits for `started` to settle (or Ctrl+C), shows their progress, then reports them as generate
 * does: each saved image's path, or with --json each task's line by `jsonOf`.
 */
export async function watch(
  run: Run,
  started: readonly TaskRecord[],
  jsonOf: JsonOf = jsonLine,
): Promise<number> {
  const { core, io } = run;
  const ids = started.map((record) => record.localId);
  const progress = new CliProgress(new Set(ids), io.stderr, () => systemClock.now());
  const progressShown = core.engine.onDidUpdate(progress.onUpdate);
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (io.interrupt.aborted) resolve('interrupted');
    io.interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const outcome = await Promise.race([core.engine.whenSettled(ids), interrupted]);
  progressShown.dispose();
  const records = ids
    .map((id) => core.engine.get(id))
    .filter((r): r is TaskRecord => r !== undefined);
  report(run, records, jsonOf);
  if (outcome === 'interrupted') {
    // The service named in this run, and no other, may be named again.
    const all = resumeAllCommand(resumeWhere(run));
    io.stderr(`Interrupted. Every task id is kept; continue with: ${all}\n`);
    return EXIT.interrupted;
  }
  return worstExitCode(records);
}

function report(run: Run, records: readonly TaskRecord[], jsonOf: JsonOf): void {
  const { core, common, io } = run;
  for (const record of records) {
    if (common.json) io.stdout(`${jsonOf(record, (relative) => core.gallery.resolve(relative))}\n`);
    else {
      for (const image of record.images)
        if (image.state === 'saved' && image.file)
          io.stdout(`${terminalSafe(core.gallery.resolve(image.file))}\n`);
    }
    const problem = problemLine(record, resumeLineFor(record, resumeWhere(run)));
    if (problem) io.stderr(`${problem}\n`);
  }
  const pending = records
    .flatMap((record) => record.images)
    .filter((image) => image.thumbnailPending);
  if (pending.length > 0) io.stderr(`${PENDING_THUMBNAILS(pending.length)}\n`);
}

/** Said once per command when images were saved with their thumbnails pending. */
const PENDING_THUMBNAILS = (count: number) =>
  `${count} image(s) saved without a thumbnail: no image decoder runs here, so each was checked ` +
  'from its header only. The Pictor app makes their thumbnails the next time it shows the gallery.';

/** Where this run's resume lines point: its folders, its program, its provider and base URL. */
export function resumeWhere(run: Run): ResumeWhere {
  const { io, common, namedBaseUrl, provider, baseUrlTyped, builtInDemo } = run;
  return {
    ...(io.program ? { program: io.program } : {}),
    dataDir: common.dataDir,
    galleryDir: common.galleryDir,
    namedBaseUrl,
    provider,
    baseUrlTyped,
    ...(builtInDemo ? { builtInDemo } : {}),
  };
}
