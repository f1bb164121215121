/** The CLI's commands over one opened core. Each returns the process exit code. */
import type { TaskRecord } from '../../shared/domain/task-record';
import type { GenerationRequest } from '../../shared/service/wire';
import { plainNodeImageEngine } from '../adapters/image-engines/plain-node-engine';
import { createNodeFetch } from '../adapters/node-fetch';
import type { ImageEngine } from '../ports/image-engine';
import type { CredentialsProvider } from '../ports/credentials';
import { streamLogger } from '../adapters/stream-logger';
import { systemClock } from '../adapters/system-clock';
import { openPictorCore, type PictorCore } from '../core/pictor-core';
import type { Command, CommonOptions, ServiceChoice } from './cli-args';
import type { ProviderId } from '../../shared/domain/providers';
import { noSuchTask, UsageError } from '../core/command-line';
import { CliProgress } from './cli-progress';
import {
  DEV_PROGRAM,
  EXIT,
  cliWording,
  jsonLine,
  problemLine,
  resumeAllCommand,
  resumeLineFor,
  worstExitCode,
  type ResumeWhere,
} from './cli-report';
import { BuiltInDemo, demoDialectsFor } from './built-in-demo';
import { cancelCommand } from './cancel-command';
import { SAMPLE_PROMPT_LINE, demoCommandLine, demoNextLine, demoStartedLine } from './demo-choice';
import { EnvCredentials } from './env-credentials';
import { EditSettingsFile } from './edit-settings';
import { exportCommand, importCommand, rebuildCommand } from './library-commands';
import { listCommand } from './list-command';
import { resumeAll } from './resume-command';
import { findTask } from './task-ids';
import { listImages, triageCommand } from './triage-commands';
import { terminalSafe } from './terminal-text';
import { capRefusalText } from './cap-refusal-text';
import { templateCommand } from './template-commands';
import { generateFromTemplate, isDryRun } from './template-run-command';
import { englishText } from '../../shared/i18n/sentence';
import { SpendingCapError } from '../core/errors';
import type { SelfTestHost } from './self-test-command';

export interface CliIo extends SelfTestHost {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Aborted on Ctrl+C: stop watching, keep every id, exit 130. */
  readonly interrupt: AbortSignal;
  /** How the user runs the CLI, for the commands it prints; default `npm run -s cli --`. */
  readonly program?: string;
  /** Pictor's version, written into exported archives; default npm's, else `unknown`. */
  readonly version?: string;
}

type Runnable = Exclude<
  Command,
  { name: 'help' | 'self-test' | 'info' | 'costs' | 'caps' | 'prices' }
>;

/** Where a command needs a key it was not given: the way without one, if there is one. */
const NO_KEY_HINT: Partial<Record<Runnable['name'], string>> = {
  generate: ' To try Pictor with no key, use --provider demo: its built-in demo service.',
  resume: " The built-in demo's tasks resume with --provider demo, which needs no key.",
};

export async function runCommand(command: Runnable, io: CliIo): Promise<number> {
  // `pictor demo` says what it is before the demo starts.
  if (command.name === 'generate' && command.explain) explainDemo(io, command.explain);
  const needsKey = !isDryRun(command);
  return runOnService(command, io, (run, keys) => runOn(run, command, keys), { needsKey });
}

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
  { needsKey = true }: { readonly needsKey?: boolean } = {},
): Promise<number> {
  const service = command.service ?? null;
  const demo = service?.builtInDemo ? new BuiltInDemo(demoDialectsFor(command.name)) : null;
  const credentials = await EnvCredentials.create(
    io.env,
    service?.baseUrl ?? null,
    service?.provider,
    demo ?? undefined,
  );
  if (needsKey && service !== null && demo === null && !credentials.hasKey) {
    const hint = NO_KEY_HINT[command.name as Runnable['name']] ?? '';
    throw new UsageError(
      `Set SERVICE_API_KEY to your API key for the service (it is read from the environment only).${hint}`,
    );
  }
  const { core, imageEngine } = await openCliCore(command.common, credentials, io);
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

/** Runs `command` on its opened core. */
async function runOn(run: Run, command: Runnable, credentials: EnvCredentials): Promise<number> {
  const { core, io } = run;
  switch (command.name) {
    case 'generate':
      return await generate(run, command);
    case 'track':
      core.engine.start({ resume: false });
      return await watch(run, [await track(core, command, credentials.currentEndpoint())]);
    case 'resume':
      return await resume(run, command);
    case 'cancel':
      return await cancelCommand({ ...run, where: resumeWhere(run) }, command.targets);
    case 'list':
      return command.triage === null && command.smart === null
        ? listCommand(core, command.common, io, command)
        : listImages(core, command.common, io, command);
    case 'rate':
    case 'flag':
    case 'tag':
    case 'board':
    case 'write-metadata':
    case 'purge-rejected':
    case 'smart':
      return await triageCommand(core, command, io);
    case 'rebuild':
      return await rebuildCommand(core, io);
    case 'export':
      return await exportCommand(core, command.file, command.taskIds, io);
    case 'import':
      return await importCommand(core, command.source, io);
    case 'template':
      return await templateCommand(core, command, io);
  }
}

/**
 * Submits and watches. A soft spending cap the submit passes is said first; a hard one stops it
 * before anything is stored or sent: its sentence, exit 6.
 */
async function generate(run: Run, command: Runnable & { name: 'generate' }): Promise<number> {
  const { core, io } = run;
  if (command.template) {
    const templated = { ...command, template: command.template };
    return generateFromTemplate(core, templated, io, (records) => watch(run, records));
  }
  const request = requestOf(command);
  // The service the command names (--provider, --base-url: the one SERVICE_API_KEY is for), or
  // the built-in demo (`demo:`, free).
  const { target } = command;
  const { warnings } = core.costs.preview(target, request, command.count);
  for (const warning of warnings) io.stderr(`${terminalSafe(cliWording(englishText(warning)))}\n`);
  core.engine.start({ resume: false });
  let records: TaskRecord[];
  try {
    records = await core.engine.submit(request, target, command.count, command.board);
  } catch (error) {
    if (!(error instanceof SpendingCapError)) throw error;
    io.stderr(capRefusalText(error.refusal, cliWording(error.message), io.program ?? DEV_PROGRAM));
    return EXIT.submitRefused;
  }
  const code = await watch(run, records);
  if (command.explain) io.stderr(demoNextLine(io.program ?? DEV_PROGRAM));
  return code;
}

/** `pictor demo` says what it is before it starts (and that the prompt is the sample one). */
function explainDemo(io: CliIo, explain: { readonly samplePrompt: boolean }): void {
  io.stderr(demoCommandLine(io.program ?? DEV_PROGRAM));
  if (explain.samplePrompt) io.stderr(SAMPLE_PROMPT_LINE);
}

/**
 * Follows a task by its id. A task the history has already is resumed; when its record names no
 * model and --model does, the record learns it first (fal finds a request under its model only).
 */
async function track(
  core: PictorCore,
  command: Runnable & { name: 'track' },
  endpoint: string,
): Promise<TaskRecord> {
  const { model, prompt } = command;
  const known = core.history.getByTaskId(endpoint, command.taskId.trim());
  if (known && model && !known.request.model?.trim()) {
    core.engine.edit(known.localId, (record) => ({
      ...record,
      request: { ...record.request, model },
    }));
  }
  return core.engine.track(command.taskId, {
    endpoint,
    ...(prompt ? { prompt } : {}),
    ...(model ? { model } : {}),
  });
}

function requestOf(command: Runnable & { name: 'generate' }): GenerationRequest {
  const { prompt, model, size, quality } = command;
  return { prompt, model, size, quality };
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
  const imageEngine = await (io.imageEngine ?? plainNodeImageEngine)();
  try {
    const core = await openPictorCore({
      imageEngine,
      dataDir: common.dataDir,
      galleryDir: common.galleryDir,
      fetch: createNodeFetch(io.env),
      credentials,
      clock: systemClock,
      // Log fields can hold text from the service or a sidecar: shown, never interpreted.
      logger: streamLogger(
        (line) => io.stderr(`${terminalSafe(line.trimEnd())}\n`),
        common.verbose ? 'info' : 'error',
      ),
      engine: { pollIntervalMs: common.pollIntervalMs, watchTimeoutMs: common.timeoutMs },
      // A task's input images go as the app's settings say, read at each send (edit-settings.ts).
      inputSettings: () => new EditSettingsFile(common.dataDir).now(),
    });
    return { core, imageEngine };
  } catch (error) {
    await imageEngine.dispose();
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

async function resume(run: Run, command: Runnable & { name: 'resume' }): Promise<number> {
  const { core, common, io } = run;
  if (command.target === 'all') {
    const { records, nothing } = resumeAll(core, command.only);
    if (nothing !== undefined) io.stderr(`${nothing}\n`);
    return watch(run, records);
  }
  core.engine.start({ resume: false });
  const record = findTask(core.history, command.target);
  if (!record) throw noSuchTask(command.target, common.dataDir);
  return watch(run, [core.engine.resumeTask(record.localId)]);
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
function resumeWhere(run: Run): ResumeWhere {
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
