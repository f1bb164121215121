/**
 * How the CLI reports finished work: exit codes, JSON lines, human lines (resume-lines.ts: what
 * to do next with a task that did not end well). Every line carries
 * text from the service or a sidecar (ids, prompts, errors, URLs, paths), so each one leaves
 * through terminalSafe (or jsonSafe) whole: no escape sequence of theirs reaches the terminal.
 */
import { flagOf, ratingOf } from '../../shared/domain/triage';
import type { TaskRecord } from '../../shared/domain/task-record';
import { jsonSafe, terminalSafe } from './terminal-text';
import { costJson } from './cost-json';
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
   * disk full or read-only); or the app's settings file, which a send of input images reads, is
   * damaged (nothing was sent); or an imported workflow could not be written (its disk full or
   * read-only).
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
        // What Pictor left out of its metadata for a held key: metadata, credentials, or null.
        keyRemoved: image.keyRemoved ?? null,
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
