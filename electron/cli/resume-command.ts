/**
 * What `pictor resume` continues: one task (by its id, or a short id), or every unfinished task;
 * with --provider only that provider's tasks (the built-in demo's with `--provider demo`). A task
 * of another service is then neither polled nor said: its record stays as it was.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { EngineInputError } from '../core/engine';
import type { PictorCore } from '../core/pictor-core';
import { serviceIdOf } from '../../shared/domain/service-id';
import { DEMO_OPTION } from './demo-choice';
import { noSuchTask } from '../core/command-line';
import { argumentsOf, required } from './cli-args';
import type { Command } from './cli-command';
import { declareLibraryCommand, type ReadLine } from './library-command';
import { RUN_OPTIONS, commandHelp } from './command-help';
import { common } from './common-args';
import { runOnService, watch, type Run } from './commands';
import { listedService, serviceChoice } from './service-args';
import { findTask } from './task-ids';

type Resume = Command & { name: 'resume' };

/** The tasks `resume --all` starts, and what it says when there are none. */
export interface ResumedTasks {
  readonly records: readonly TaskRecord[];
  /** Said on stderr when nothing is resumed. */
  readonly nothing?: string;
}

/** `--provider P` as a sentence names it. */
function serviceName(only: ProviderId | typeof DEMO_OPTION): string {
  const label = only === DEMO_OPTION ? "Pictor's built-in demo service" : PROVIDERS[only].label;
  return `${label} (--provider ${only})`;
}

/**
 * Starts the engine on every unfinished task, or, with `only`, on that service's alone.
 * @param only --provider as typed; null: every unfinished task
 */
function resumeAll(core: PictorCore, only: ProviderId | typeof DEMO_OPTION | null): ResumedTasks {
  if (only === null) {
    core.engine.start({ resume: true });
    const unfinished = core.history.unfinished();
    const records = unfinished.flatMap((record) => live(core, record.localId));
    return unfinished.length > 0
      ? { records }
      : { records, nothing: 'Nothing to resume: every task in the history is finished.' };
  }
  core.engine.start({ resume: false });
  const unfinished = core.history.unfinished();
  const mine = unfinished.filter((record) => serviceIdOf(record) === only);
  const records = mine.flatMap((record) => resumed(core, record.localId));
  if (records.length > 0) return { records };
  const others = unfinished.length - mine.length;
  const rest =
    others === 0
      ? 'every task in the history is finished'
      : `${others} unfinished task(s) of other services are left as they are (each resumes with its own --provider)`;
  return { records, nothing: `Nothing to resume of ${serviceName(only)}: ${rest}.` };
}

function live(core: PictorCore, localId: string): TaskRecord[] {
  const record = core.engine.get(localId);
  return record === undefined ? [] : [record];
}

/** The task continued; none when there is nothing of it to continue (sent or not, unknown). */
function resumed(core: PictorCore, localId: string): TaskRecord[] {
  try {
    return [core.engine.resumeTask(localId)];
  } catch (error) {
    if (error instanceof EngineInputError) return [];
    throw error;
  }
}

/** `resume ID|--all [--provider P]`: with --provider, only that service's tasks (demo: the demo's). */
function parseResume({ values, positionals }: ReadLine, env: NodeJS.ProcessEnv): Resume {
  const [id] = argumentsOf('resume', positionals, 1);
  const target = values.all ? 'all' : required(id, 'resume needs a task id, or --all.');
  const service = serviceChoice(values, 'resume');
  const only = values.provider === undefined ? null : listedService(service);
  return { name: 'resume', target, service, only, common: common(values, env) };
}

async function resumeTasks(run: Run, command: Resume): Promise<number> {
  const { core, common: options, io } = run;
  if (command.target === 'all') {
    const { records, nothing } = resumeAll(core, command.only);
    if (nothing !== undefined) io.stderr(`${nothing}\n`);
    return watch(run, records);
  }
  core.engine.start({ resume: false });
  const record = findTask(core.history, command.target);
  if (!record) throw noSuchTask(command.target, options.dataDir);
  return watch(run, [core.engine.resumeTask(record.localId)]);
}

const RESUME_HELP = commandHelp(
  `resume <task-id> | --all [--provider ID] [--base-url URL]   continue polling tasks in the
                                  history (never resubmits); --all with --provider: only that
                                  provider's tasks (demo: the built-in demo's), the others left
                                  as they are; only tasks of that provider on that service get
                                  the key`,
  RUN_OPTIONS,
);

export const resume = declareLibraryCommand({
  name: 'resume',
  help: RESUME_HELP,
  own: ['all'],
  parse: parseResume,
  run: (command: Resume, io) => runOnService(command, io, (run) => resumeTasks(run, command)),
});
