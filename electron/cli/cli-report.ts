/**
 * How the CLI reports finished work: exit codes, JSON lines, human lines. Every line carries
 * text from the service or a sidecar (ids, prompts, errors, URLs, paths), so each one leaves
 * through terminalSafe (or jsonSafe) whole: no escape sequence of theirs reaches the terminal.
 */
import { flagOf, ratingOf } from '../../shared/domain/triage';
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  providerOf,
  type ProviderId,
} from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { isDemoEndpoint, serviceBaseUrl } from '../core/service';
import { isImportedLocal } from '../core/credentials';
import { jsonSafe, shellQuote, terminalSafe } from './terminal-text';
import { costJson } from './cost-json';
import { DEMO_OPTION } from './demo-choice';
import { serviceIdOf } from '../../shared/domain/service-id';

/**
 * Core messages speak of the app's Settings; on the command line the same advice points at the
 * environment variable and flags instead.
 */
const CLI_WORDING: readonly [RegExp, string][] = [
  [/Check the key in Settings/g, 'Check SERVICE_API_KEY'],
  [/(Add (?:your key|one)|Paste the key again) in Settings/g, 'Set SERVICE_API_KEY'],
  [/until one is set in Settings/g, 'until SERVICE_API_KEY is set'],
  [/(Check the service URL|Fix it) in Settings/g, 'Check --base-url'],
  // The app can add a service's other address in Settings; the CLI sends the key to one only.
  [/; if \S+ really is .+?’s, add it as the service’s address in Settings\./g, '.'],
  [
    /The key for this address was entered for another kind of service/g,
    'SERVICE_API_KEY was given for another kind of service (--provider)',
  ],
  [/Raise or clear the cap in Settings/g, 'Raise or clear it with the caps command'],
  [/(Set a price for .+?) in Settings/g, '$1 with the prices command'],
  // A cap's sentence names the window's place (Settings › Costs); the CLI has a command for it.
  [/(Set a price in \S+ for .+?) in Settings › Costs/g, '$1 with the prices command'],
  // A task fal cannot be asked about without its model: track names it.
  [
    /(no model is named for this one, so Pictor cannot ask about it)\./g,
    '$1: track it again with --model and the model it was made with.',
  ],
  [/the port in the service URL in Settings/g, 'the port in --base-url'],
  [/ in Settings/g, ''],
];

export function cliWording(text: string): string {
  return CLI_WORDING.reduce(
    (result, [pattern, replacement]) => result.replace(pattern, replacement),
    text,
  );
}

/** Exit codes; with several tasks the highest wins. 2 means a mistake in the command line only. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  watching: 3,
  imagesMissing: 4,
  /**
   * The library cannot be used: its history could not be opened, read or written (never "busy":
   * processes share it), or its gallery's disk refused an import's write (full, read-only); or an
   * import's archive was refused as a whole (not a ZIP archive, a crafted one); or an export's archive, or a templates export's file, could not be written (its folder missing, the
   * disk full or read-only).
   */
  library: 5,
  /**
   * Nothing was sent: the service refused the request or could not be reached, or its address was
   * refused by the URL policy before any byte was written.
   */
  submitRefused: 6,
  /** The request may have reached the service; it is not sent again, so no task id is known. */
  submitUnknown: 7,
  unexpected: 70,
  interrupted: 130,
} as const;

export function exitCodeOf(record: TaskRecord): number {
  switch (record.status) {
    case 'completed':
      return record.images.length > 0 && record.images.every((image) => image.state === 'saved')
        ? EXIT.ok
        : EXIT.imagesMissing;
    case 'failed':
    case 'not_found':
      return EXIT.failed;
    case 'submit_failed':
      return EXIT.submitRefused;
    case 'submit_unknown':
      return EXIT.submitUnknown;
    default:
      return EXIT.watching;
  }
}

export function worstExitCode(records: readonly TaskRecord[]): number {
  return records.reduce<number>((worst, record) => Math.max(worst, exitCodeOf(record)), EXIT.ok);
}

/** The `--json` line of one task. */
export function jsonLine(record: TaskRecord, resolvePath: (relative: string) => string): string {
  return jsonSafe(
    JSON.stringify({
      localId: record.localId,
      taskId: record.taskId,
      // One name per service (service-id.ts): the built-in demo's tasks are `demo`.
      provider: serviceIdOf(record),
      status: record.status,
      hold: record.hold,
      error: record.error ? cliWording(record.error.message) : null,
      // `moderated`, `canceled`, `task_failed`, … : why a task ended as it did, for scripts.
      errorKind: record.error?.kind ?? null,
      exitCode: exitCodeOf(record),
      prompt: record.request.prompt,
      // What it cost and how Pictor knows (cost-commands.ts): amounts as exact decimal text.
      cost: costJson(record.cost),
      createdAt: new Date(record.createdAt).toISOString(),
      // "Generate into": the board the task's images join as they arrive (--board), or null.
      board: record.board ?? null,
      // The prompt template it was made from (generate --template): id, name, version, values.
      template: record.template ?? null,
      // The compare it was sent in (pictor compare): group, slot, label.
      compare: record.compare ?? null,
      // The seed the service said it made the images with (docs/SERVICE.md, "Seeds"), or null.
      seed: record.seed ?? null,
      images: record.images.map((image) => ({
        index: image.index,
        state: image.state,
        path: image.file ? resolvePath(image.file) : null,
        width: image.width ?? null,
        height: image.height ?? null,
        error: image.error ?? null,
        // The image's XMP when it is beside the image (a file with Content Credentials).
        xmpPath: image.xmpFile ? resolvePath(image.xmpFile) : null,
        contentCredentials: image.contentCredentials ?? null,
        // Triage (shared/domain/triage.ts): a pick is the favourite star.
        rating: ratingOf(image),
        flag: flagOf(image),
        tags: image.tags ?? [],
        boards: image.boards ?? [],
      })),
    }),
  );
}

/** Error kinds of a task the service itself stopped: said as such, not as a generation failure. */
const ENDED_BY_SERVICE: ReadonlySet<string> = new Set(['moderated', 'canceled']);

/** One `list` line for people. */
export function listLine(record: TaskRecord): string {
  const saved = record.images.filter((image) => image.state === 'saved').length;
  const when = new Date(record.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const state = record.hold
    ? `${record.status} (${record.hold.replace('_', ' ')})`
    : record.status === 'failed' && record.error && ENDED_BY_SERVICE.has(record.error.kind)
      ? `${record.status} (${record.error.kind})`
      : record.status;
  const prompt =
    record.request.prompt.length > 60
      ? `${record.request.prompt.slice(0, 59)}…`
      : record.request.prompt;
  return terminalSafe(
    `${when}  ${serviceIdOf(record).padEnd(9)} ${state.padEnd(26)} ${(record.taskId ?? '-').padEnd(32)} ${saved}/${record.images.length}  ${prompt}`,
  );
}

/** How the CLI is run from a source checkout. */
export const DEV_PROGRAM = 'npm run -s cli --';

/** What the "Resume with:" command continues, and where. */
export interface ResumeTarget {
  /** A task id (or local id), or `all`. */
  readonly target: string;
  readonly dataDir: string;
  readonly galleryDir: string;
  /**
   * The service for --base-url: only ever the one the user named with --base-url in this run
   * (see resumeLineFor), never an address a task record gave.
   */
  readonly baseUrl?: string;
  /**
   * The task's provider, or the built-in demo; absent or `pictor`: no --provider (today's
   * contract is the default).
   */
  readonly provider?: ProviderId | typeof DEMO_OPTION;
  readonly platform?: NodeJS.Platform;
  /** How the user runs the CLI: `pictor` (the installed app) or `npm run -s cli --` (a checkout). */
  readonly program?: string;
}

/**
 * The command that resumes a task, each value quoted for the user's shell (see shellQuote): an id
 * or path pasted from this line is one argument, never a command.
 */
export function resumeCommand(resume: ResumeTarget): string {
  const quote = (value: string) => shellQuote(value, resume.platform ?? process.platform);
  const what = resume.target === 'all' ? '--all' : quote(resume.target);
  const provider =
    resume.provider === undefined || resume.provider === DEFAULT_PROVIDER
      ? ''
      : ` --provider ${resume.provider}`;
  const service = resume.baseUrl === undefined ? '' : ` --base-url ${quote(resume.baseUrl)}`;
  return `${resume.program ?? DEV_PROGRAM} resume ${what}${provider}${service} --data-dir ${quote(resume.dataDir)} --gallery-dir ${quote(resume.galleryDir)}`;
}

/** Where a resume line points: the folders, and the service named in this run. */
export type ResumeWhere = Omit<ResumeTarget, 'target' | 'baseUrl' | 'provider'> & {
  /**
   * checkBaseUrl's spelling of the base URL the key is for in this run (--base-url's, or
   * --provider's own address); null when there is none.
   */
  readonly namedBaseUrl: string | null;
  /** This run's --provider; absent: today's contract. */
  readonly provider?: ProviderId;
  /**
   * The user typed --base-url in this run. False: namedBaseUrl is --provider's own address, and
   * a command repeats it only where the task's --provider alone would not lead there. Default true.
   */
  readonly baseUrlTyped?: boolean;
  /** This run is on the built-in demo (--provider demo): its commands say so again. */
  readonly builtInDemo?: boolean;
};

/** The command that continues every task of this run, as Ctrl+C prints it. */
export function resumeAllCommand(where: ResumeWhere): string {
  const { namedBaseUrl, provider, baseUrlTyped = true, builtInDemo, ...folders } = where;
  if (builtInDemo) return resumeCommand({ ...folders, target: 'all', provider: DEMO_OPTION });
  return resumeCommand({
    ...folders,
    target: 'all',
    ...(provider === undefined ? {} : { provider }),
    ...(namedBaseUrl !== null && baseUrlTyped ? { baseUrl: namedBaseUrl } : {}),
  });
}

/** The command that resumes one task, and whether it names the task's service. */
export interface ResumeLine {
  readonly command: string;
  /**
   * False when the task's service is not the one the user named with --base-url in this run. The
   * command then carries no --base-url: an address from a record (an imported archive's, a
   * crafted sidecar's) is never printed as a command, since pasting it with SERVICE_API_KEY set
   * would send the key there. The line asks the user to add the address themselves.
   */
  readonly serviceNamed: boolean;
  /** The provider SERVICE_API_KEY is for in this run (--provider); absent: today's contract. */
  readonly keyProvider?: ProviderId;
}

/**
 * The resume line of `record`: --base-url only when it is the one named in this run, and then
 * the task's --provider (an id, never an address; without the service named, none: the key
 * would go to that provider's own address, which the user did not name).
 */
export function resumeLineFor(
  record: Pick<TaskRecord, 'taskId' | 'localId' | 'endpoint' | 'provider'>,
  where: ResumeWhere,
): ResumeLine {
  const { namedBaseUrl, provider: keyProvider = DEFAULT_PROVIDER, ...rest } = where;
  // Whether this run is on the demo says nothing of the task's own service: not passed on.
  const { baseUrlTyped = true, builtInDemo: _demoRun, ...folders } = rest;
  const target = record.taskId ?? record.localId;
  // The built-in demo's task resumes on the demo (any run may print it): no address, no key.
  if (isDemoEndpoint(record.endpoint)) {
    const command = resumeCommand({ ...folders, target, provider: DEMO_OPTION });
    return { command, serviceNamed: true, keyProvider };
  }
  const onNamed = namedBaseUrl !== null && serviceBaseUrl(record.endpoint) === namedBaseUrl;
  const provider = providerOf(record);
  const ownAddress = PROVIDERS[provider].defaultBaseUrl;
  // Without --base-url the command would reach the provider's own address: enough only when
  // that is the named one.
  const repeatBaseUrl =
    baseUrlTyped || ownAddress === null || serviceBaseUrl(ownAddress) !== namedBaseUrl;
  return {
    command: resumeCommand({
      ...folders,
      target,
      ...(onNamed ? { provider } : {}),
      ...(onNamed && repeatBaseUrl ? { baseUrl: namedBaseUrl } : {}),
    }),
    serviceNamed: onNamed,
    keyProvider,
  };
}

/** A sentence for stderr about a task that did not end well, with what to do next. */
export function problemLine(record: TaskRecord, resume: ResumeLine): string | null {
  const line = problemText(record, resume);
  return line === null ? null : terminalSafe(line);
}

/** `fal.ai (--provider fal)`: a provider as the CLI names it. */
function providerName(provider: ProviderId): string {
  return `${PROVIDERS[provider].label} (--provider ${provider})`;
}

/**
 * Why a task waits for a key. The core's sentence for a key of another kind of service speaks
 * of Settings; here the two providers are named, and the option that picks the task's.
 */
function awaitingKeyText(record: TaskRecord, resume: ResumeLine): string {
  if (record.error?.sentence?.key === 'error.service.wrongProviderKey') {
    const provider = providerOf(record);
    return `is a task of ${providerName(provider)}, but SERVICE_API_KEY was given for ${providerName(resume.keyProvider ?? DEFAULT_PROVIDER)}, so Pictor does not send it with this task; resume it with --provider ${provider} and a key of that service`;
  }
  // Not a question of whose key: the task cannot be reached as its record stands (an address
  // the service gave where the key may not go, a file's task on this computer), or it waits for
  // the built-in demo, which needs none.
  if (record.error?.kind === 'config' || isDemoEndpoint(record.endpoint)) {
    return `is waiting: ${cliWording(record.error?.message ?? 'it needs the built-in demo service')}`;
  }
  return `is waiting for a key of the account that created it${record.error ? ` (${cliWording(record.error.message)})` : ''}`;
}

/** How a task the service stopped ended, in words that say who stopped it. */
function endedText(record: TaskRecord): string | null {
  const { error } = record;
  if (record.status !== 'failed' || !error) return null;
  const said = `${cliWording(error.message)}${error.detail ? ` [${error.detail}]` : ''}`;
  const service = PROVIDERS[providerOf(record)].label;
  if (error.kind === 'moderated')
    return `was stopped by the content rules of ${service} (moderated): ${said}`;
  if (error.kind === 'canceled') return `was canceled on ${service}: ${said}`;
  return null;
}

function problemText(record: TaskRecord, resume: ResumeLine): string | null {
  const id = record.taskId ?? record.localId;
  if (record.status === 'processing') {
    const said =
      record.hold === 'awaiting_key'
        ? awaitingKeyText(record, resume)
        : record.hold === 'key_rejected'
          ? `is paused: ${cliWording(record.error?.message ?? 'the service refused the key')}`
          : 'is still processing; Pictor stopped watching it (watch timeout)';
    // A sentence of the service's or the core's ends with its own full stop.
    const why = said.replace(/\.$/, '');
    // A task from a file that names this computer is never contacted, and one that needs its
    // model is tracked again (its sentence says so): nothing to resume with.
    const needsModel = record.error?.sentence?.key === 'error.service.taskNeedsModel';
    if (isImportedLocal(record) || needsModel) return `Task ${id} ${why}. The id is kept.`;
    const next = resume.serviceNamed
      ? `Resume with: ${resume.command}`
      : `To resume it, add --base-url and its service's address, typed by you (Pictor never prints one a task record gave${providerOf(record) === DEFAULT_PROVIDER ? '' : `; add --provider ${providerOf(record)} too`}): ${resume.command}`;
    return `Task ${id} ${why}. The id is kept. ${next}`;
  }
  const ended = endedText(record);
  if (ended) return `Task ${id} ${ended}`;
  if (record.error)
    return `Task ${id}: ${cliWording(record.error.message)}${record.error.detail ? ` [${record.error.detail}]` : ''}`;
  const missing = record.images.filter((image) => image.state !== 'saved');
  if (missing.length > 0) {
    return `Task ${id}: ${missing.length} image(s) not saved: ${missing.map((image) => `#${image.index + 1} ${image.state}${image.error ? ` (${image.error})` : ''}`).join('; ')}`;
  }
  return null;
}
