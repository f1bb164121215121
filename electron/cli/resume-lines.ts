/**
 * The lines that say how to go on with a task that did not end well: its problem in a sentence for
 * stderr and the command that resumes it, naming only the service this run named (cli-report.ts
 * keeps the lines of finished work, which `list` prints without loading the service's code).
 */
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  providerOf,
  type ProviderId,
} from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { isDemoEndpoint, serviceBaseUrl } from '../core/service';
import { isImportedLocal } from '../core/credentials';
import { commandHint, terminalSafe } from './terminal-text';
import { cliWording, DEV_PROGRAM } from './cli-report';
import { DEMO_OPTION } from './demo-choice';

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
 * The command that resumes a task, each value quoted for the user's shell (commandHint): an id
 * or path pasted from this line is one argument, never a command. On POSIX a value with a control
 * hands the line to `sh -c`, which every fish reads.
 */
export function resumeCommand(resume: ResumeTarget): string {
  const words = ['resume', resume.target === 'all' ? '--all' : resume.target];
  if (resume.provider !== undefined && resume.provider !== DEFAULT_PROVIDER)
    words.push('--provider', resume.provider);
  if (resume.baseUrl !== undefined) words.push('--base-url', resume.baseUrl);
  words.push('--data-dir', resume.dataDir, '--gallery-dir', resume.galleryDir);
  return commandHint(resume.program ?? DEV_PROGRAM, words, resume.platform);
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
