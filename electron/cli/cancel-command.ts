/**
 * `cancel <task-id>…`: asks each task's service to cancel it (core/batch/cancel-tasks.ts, one task
 * at a time, the key only with the tasks of the service it is for), follows what the services
 * still work on to its end (a task the service finished first has its images saved here), and
 * says how each went: a line per task, or with --json one JSON object per task.
 *
 * Exit: 0 every task ended canceled; 1 a service refused, cannot cancel, or finished the task
 * first, or it was not running; 2 Pictor could not ask (no key for the task's service); 3 the
 * service took the cancel but the task had not ended when the watch did; 130 interrupted. With
 * several tasks, the highest.
 */
import type { CancelOutcomeKind } from '../../shared/domain/cancel-outcome';
import { PROVIDERS, PROVIDER_IDS, providerOf } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { CancelOutcome } from '../core/batch';
import type { PictorCore } from '../core/pictor-core';
import type { CommonOptions } from './common-args';
import { EXIT, cliWording, jsonLine } from './cli-report';
import { resumeLineFor, type ResumeWhere } from './resume-lines';
import type { CliIo } from './cli-io';
import { jsonSafe, terminalSafe } from './terminal-text';
import { findTask } from './task-ids';
import { noSuchTask } from '../core/command-line';
import { parseCancel, type CancelCommand } from './cancel-args';
import { commandHelp } from './command-help';
import { declareLibraryCommand } from './library-command';
import { common } from './common-args';
import { resumeWhere, runOnService } from './commands';
import { serviceChoice } from './service-args';

/** What the command works with: the core, the streams, its options and where resumes point. */
export interface CancelRun {
  readonly core: PictorCore;
  readonly io: CliIo;
  readonly common: CommonOptions;
  readonly where: ResumeWhere;
}

const EXIT_OF: Readonly<Record<CancelOutcomeKind, number>> = {
  canceled: EXIT.ok,
  finished: EXIT.failed,
  refused: EXIT.failed,
  unsupported: EXIT.failed,
  not_running: EXIT.failed,
  not_asked: EXIT.usage,
  stopping: EXIT.watching,
};

async function cancelCommand(run: CancelRun, targets: readonly string[]): Promise<number> {
  const { core, io } = run;
  // Every id is found first: a mistyped one is a usage error before any service is asked.
  const records = targets.map((target) => taskOf(run, target));
  core.engine.start({ resume: false });
  const { cancels } = core;
  const asked = await untilInterrupted(io, cancels.cancel(records.map((record) => record.localId)));
  if (asked === 'interrupted') return interrupted(io);
  // A task still stopping, or finished with images to save: followed until it needs nothing more.
  const working = asked.filter(
    (outcome) => outcome.kind === 'stopping' || outcome.kind === 'finished',
  );
  const settled = await untilInterrupted(
    io,
    core.engine.whenSettled(working.map((outcome) => outcome.localId)),
  );
  if (settled === 'interrupted') return interrupted(io);
  let code: number = EXIT.ok;
  for (const outcome of asked) {
    const final = afterWatch(outcome, core.engine.get(outcome.localId));
    report(run, final);
    code = Math.max(code, EXIT_OF[final.kind]);
  }
  return code;
}

/** The task of a local id or a service's id, from the history; a usage error when it has none. */
function taskOf({ core, common }: CancelRun, target: string): TaskRecord {
  const record = findTask(core.history, target);
  if (!record) throw noSuchTask(target, common.dataDir);
  return record;
}

/** How a task's cancel ended once the engine followed it: a stopping task may have ended since. */
function afterWatch(outcome: CancelOutcome, record: TaskRecord | undefined): CancelOutcome {
  if (outcome.kind !== 'stopping' || !record) return record ? { ...outcome, record } : outcome;
  if (record.status === 'failed' && record.error?.kind === 'canceled') {
    return { ...outcome, kind: 'canceled', record };
  }
  return record.status === 'processing'
    ? { ...outcome, record }
    : { ...outcome, kind: 'finished', record };
}

function untilInterrupted<T>(io: CliIo, work: Promise<T>): Promise<T | 'interrupted'> {
  const interrupt = new Promise<'interrupted'>((resolve) => {
    if (io.interrupt.aborted) resolve('interrupted');
    io.interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  return Promise.race([work, interrupt]);
}

function interrupted(io: CliIo): number {
  io.stderr('Interrupted. Every task id is kept; what was asked of a service stands.\n');
  return EXIT.interrupted;
}

function report(run: CancelRun, outcome: CancelOutcome): void {
  const { core, io, common } = run;
  const { record } = outcome;
  const resolve = (relative: string) => core.gallery.resolve(relative);
  if (common.json) {
    io.stdout(`${cancelJson(outcome, resolve)}\n`);
    return;
  }
  for (const image of record?.images ?? []) {
    if (image.state === 'saved' && image.file) io.stdout(`${terminalSafe(resolve(image.file))}\n`);
  }
  const line = terminalSafe(sentenceOf(run, outcome));
  if (outcome.kind === 'canceled') io.stdout(`${line}\n`);
  else io.stderr(`${line}\n`);
}

/** The task's JSON line (as every command prints it) with how its cancel went. */
function cancelJson(outcome: CancelOutcome, resolve: (relative: string) => string): string {
  const reason = outcome.reason ? cliWording(outcome.reason.message) : null;
  const task = outcome.record ? (JSON.parse(jsonLine(outcome.record, resolve)) as object) : {};
  return jsonSafe(
    JSON.stringify({
      localId: outcome.localId,
      ...task,
      // This command's verdict on the task, not the task's own (a canceled task "failed").
      exitCode: EXIT_OF[outcome.kind],
      cancel: outcome.kind,
      cancelReason: reason,
    }),
  );
}

/** What a person reads about one task's cancel. */
function sentenceOf(run: CancelRun, outcome: CancelOutcome): string {
  const { record, reason } = outcome;
  const id = record?.taskId ?? outcome.localId;
  const service = record ? PROVIDERS[providerOf(record)].label : 'the service';
  const why = reason ? cliWording(reason.message).replace(/\.$/, '') : '';
  switch (outcome.kind) {
    case 'canceled':
      return `Task ${id} was canceled on ${service}${record?.cost?.source === 'not_billed' ? '; it is not billed' : ''}.`;
    case 'finished':
      return record?.status === 'completed'
        ? `Task ${id} was finished by ${service} before it could be canceled; its images are kept.`
        : `Task ${id} ended on ${service} before it could be canceled: ${cliWording(record?.error?.message ?? record?.status ?? '')}`;
    case 'stopping': {
      const resume = record ? ` Resume with: ${resumeLineFor(record, run.where).command}` : '';
      return `${service} took the cancel of task ${id}, but the task had not ended when Pictor stopped watching. The id is kept.${resume}`;
    }
    case 'unsupported':
      return `Task ${id} was not canceled: ${why}. It runs on to its end there, and the id is kept: resume it later to save its images.`;
    default:
      return `Task ${id} was not canceled: ${why}.`;
  }
}

/** The providers that can cancel a task and those that cannot, as the help names them. */
const CANCEL_PROVIDERS = PROVIDER_IDS.filter((id) => PROVIDERS[id].canCancel).join(', ');
const NO_CANCEL_PROVIDERS = PROVIDER_IDS.filter((id) => !PROVIDERS[id].canCancel).join(' and ');

export const cancel = declareLibraryCommand({
  name: 'cancel',
  help: commandHelp(
    `cancel <task-id>... [--provider ID] [--base-url URL]
                                  ask each task's service to cancel it (${CANCEL_PROVIDERS};
                                  ${NO_CANCEL_PROVIDERS} cannot): exit 0 when every one ended
                                  canceled, 1 when a service refused or finished it first (its
                                  images are saved), 2 when it could not be asked`,
    ['service', 'library', 'json', 'verbose'],
  ),
  parse: ({ values, positionals }, env) => {
    return parseCancel(positionals, serviceChoice(values, 'cancel'), common(values, env));
  },
  run: (command: CancelCommand, io) =>
    runOnService(command, io, (run) =>
      cancelCommand({ ...run, where: resumeWhere(run) }, command.targets),
    ),
});
