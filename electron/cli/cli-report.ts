/**
 * How the CLI reports finished work: exit codes, JSON lines, human lines. Every line carries
 * text from the service or a sidecar (ids, prompts, errors, URLs, paths), so each one leaves
 * through terminalSafe (or jsonSafe) whole: no escape sequence of theirs reaches the terminal.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { DEMO_ENDPOINT } from '../core/credentials/demo-endpoint';
import { serviceBaseUrl } from '../core/credentials/key-binding';
import { isImportedLocal } from '../core/credentials/record-credentials';
import { jsonSafe, shellQuote, terminalSafe } from './terminal-text';

/**
 * Core messages speak of the app's Settings; on the command line the same advice points at the
 * environment variable and flags instead.
 */
const CLI_WORDING: readonly [RegExp, string][] = [
  [/Check the key in Settings/g, 'Check SERVICE_API_KEY'],
  [/(Add (?:your key|one)|Paste the key again) in Settings/g, 'Set SERVICE_API_KEY'],
  [/until one is set in Settings/g, 'until SERVICE_API_KEY is set'],
  [/(Check the service URL|Fix it) in Settings/g, 'Check --base-url'],
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
  /** The history could not be opened, read or written (never "busy": processes share it). */
  library: 5,
  /** The service refused the request or could not be reached: nothing was submitted. */
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
      status: record.status,
      hold: record.hold,
      error: record.error ? cliWording(record.error.message) : null,
      exitCode: exitCodeOf(record),
      prompt: record.request.prompt,
      createdAt: new Date(record.createdAt).toISOString(),
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
      })),
    }),
  );
}

/** One `list` line for people. */
export function listLine(record: TaskRecord): string {
  const saved = record.images.filter((image) => image.state === 'saved').length;
  const when = new Date(record.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const state = record.hold ? `${record.status} (${record.hold.replace('_', ' ')})` : record.status;
  const prompt =
    record.request.prompt.length > 60
      ? `${record.request.prompt.slice(0, 59)}…`
      : record.request.prompt;
  return terminalSafe(
    `${when}  ${state.padEnd(26)} ${(record.taskId ?? '-').padEnd(32)} ${saved}/${record.images.length}  ${prompt}`,
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
  const service = resume.baseUrl === undefined ? '' : ` --base-url ${quote(resume.baseUrl)}`;
  return `${resume.program ?? DEV_PROGRAM} resume ${what}${service} --data-dir ${quote(resume.dataDir)} --gallery-dir ${quote(resume.galleryDir)}`;
}

/** Where a resume line points: the folders, and the base URL named with --base-url in this run. */
export type ResumeWhere = Omit<ResumeTarget, 'target' | 'baseUrl'> & {
  /** checkBaseUrl's spelling of this run's --base-url; null when none was given. */
  readonly namedBaseUrl: string | null;
};

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
}

/** The resume line of `record`: --base-url only when it is the one named in this run. */
export function resumeLineFor(
  record: Pick<TaskRecord, 'taskId' | 'localId' | 'endpoint'>,
  where: ResumeWhere,
): ResumeLine {
  const { namedBaseUrl, ...folders } = where;
  const onNamed = namedBaseUrl !== null && serviceBaseUrl(record.endpoint) === namedBaseUrl;
  return {
    command: resumeCommand({
      ...folders,
      target: record.taskId ?? record.localId,
      ...(onNamed ? { baseUrl: namedBaseUrl } : {}),
    }),
    // The built-in demo needs no --base-url (the command line does not reach it anyway).
    serviceNamed: onNamed || record.endpoint === DEMO_ENDPOINT,
  };
}

/** A sentence for stderr about a task that did not end well, with what to do next. */
export function problemLine(record: TaskRecord, resume: ResumeLine): string | null {
  const line = problemText(record, resume);
  return line === null ? null : terminalSafe(line);
}

function problemText(record: TaskRecord, resume: ResumeLine): string | null {
  const id = record.taskId ?? record.localId;
  if (record.status === 'processing') {
    const why =
      record.hold === 'awaiting_key'
        ? `is waiting for a key of the account that created it${record.error ? ` (${cliWording(record.error.message)})` : ''}`
        : record.hold === 'key_rejected'
          ? `is paused: ${cliWording(record.error?.message ?? 'the service refused the key')}`
          : 'is still processing; Pictor stopped watching it (watch timeout)';
    // A task from a file that names this computer is never contacted: nothing to resume with.
    if (isImportedLocal(record)) return `Task ${id} ${why}. The id is kept.`;
    const next = resume.serviceNamed
      ? `Resume with: ${resume.command}`
      : `To resume it, add --base-url and its service's address, typed by you (Pictor never prints one a task record gave): ${resume.command}`;
    return `Task ${id} ${why}. The id is kept. ${next}`;
  }
  if (record.error)
    return `Task ${id}: ${cliWording(record.error.message)}${record.error.detail ? ` [${record.error.detail}]` : ''}`;
  const missing = record.images.filter((image) => image.state !== 'saved');
  if (missing.length > 0) {
    return `Task ${id}: ${missing.length} image(s) not saved: ${missing.map((image) => `#${image.index + 1} ${image.state}${image.error ? ` (${image.error})` : ''}`).join('; ')}`;
  }
  return null;
}
