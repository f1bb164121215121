/**
 * `pictor compare`: the plan's notes on stderr (targets left out, parameters adapted, soft caps),
 * the group id, then each target's task as it ends: label, task id, status, time from submit to
 * saved, cost (reported or estimated, said so), the seed its service said it used. Exit code: the
 * highest of its tasks'; a hard cap refuses it with exit 6 before anything is stored or sent.
 * `pictor compare show GROUP`: the same columns from the history.
 */
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { formatMicros } from '../../shared/domain/task-cost';
import { englishText } from '../../shared/i18n/sentence';
import { planCompare, CompareInputError, type ComparePlan } from '../core/compare/compare-plan';
import { cancelCompare, compareTasks, runCompare } from '../core/compare/compare-run';
import { TaskCancels } from '../core/batch/cancel-tasks';
import { systemClock } from '../adapters/system-clock';
import { SpendingCapError } from '../core/errors/spending-cap-error';
import type { PictorCore } from '../core/pictor-core';
import { DEV_PROGRAM, EXIT, cliWording, exitCodeOf, worstExitCode } from './cli-report';
import { capRefusalText } from './cap-refusal-text';
import { openCliCore, type CliIo } from './commands';
import type { CompareCommand } from './compare-args';
import { CompareCredentials } from './compare-credentials';
import { terminalSafe } from './terminal-text';

/**
 * The providers whose keys a command may use: a compare's targets'; for `compare cancel`, every
 * provider whose PICTOR_KEY_<PROVIDER> is set (the group's tasks may be on any of them), each key
 * bound to its --base-url or the provider's own address, so a task recorded elsewhere is not
 * stopped with it; `compare show` sends nothing.
 */
function keyedProviders(command: CompareCommand): readonly ProviderId[] {
  if (command.name === 'compare') return command.targets.map((target) => target.provider);
  return command.name === 'compare-cancel' ? PROVIDER_IDS : [];
}

export async function runCompareCommand(command: CompareCommand, io: CliIo): Promise<number> {
  const urls = command.name === 'compare-show' ? new Map() : command.baseUrls;
  const credentials = await CompareCredentials.create(io.env, keyedProviders(command), urls);
  const { core, imageEngine } = await openCliCore(command.common, credentials, io);
  try {
    if (command.name === 'compare-show') return show(core, command, io);
    if (command.name === 'compare-cancel') return await cancelAll(core, command, io);
    return await compare(core, command, credentials, io);
  } finally {
    await core.close();
    await imageEngine.dispose();
  }
}

const say = (io: CliIo, text: string) => io.stderr(`${terminalSafe(cliWording(text))}\n`);

async function compare(
  core: PictorCore,
  command: CompareCommand & { name: 'compare' },
  credentials: CompareCredentials,
  io: CliIo,
): Promise<number> {
  const plan = await planCompare(
    { credentials, costs: core.costs },
    { prompts: [...command.prompts], targets: [...command.targets] },
  );
  sayPlan(io, plan);
  if (plan.refusal !== undefined) {
    if (plan.capRefusal) io.stderr(capRefusalText(plan.capRefusal, '', io.program ?? DEV_PROGRAM));
    else say(io, englishText(plan.refusal));
    return plan.overCap ? EXIT.submitRefused : EXIT.usage;
  }
  core.engine.start({ resume: false });
  let started: TaskRecord[];
  try {
    started = await runCompare(core.engine, plan);
  } catch (error) {
    if (!(error instanceof SpendingCapError || error instanceof CompareInputError)) throw error;
    if (error instanceof SpendingCapError)
      io.stderr(
        capRefusalText(error.refusal, cliWording(error.message), io.program ?? DEV_PROGRAM),
      );
    else say(io, error.message);
    return EXIT.submitRefused;
  }
  if (!command.common.json) io.stdout(`Compare group ${plan.group}\n`);
  const ids = started.map((record) => record.localId);
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (io.interrupt.aborted) resolve('interrupted');
    io.interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const outcome = await Promise.race([core.engine.whenSettled(ids), interrupted]);
  const records = ids.map((id) => core.engine.get(id) ?? core.history.get(id));
  const done = records.filter((record): record is TaskRecord => record !== undefined);
  report({ core, io, json: command.common.json }, plan.group, done, plan);
  if (outcome === 'interrupted') {
    say(io, 'Interrupted. Every task id is kept; the tasks go on with pictor resume.');
    return EXIT.interrupted;
  }
  return worstExitCode(done);
}

function sayPlan(io: CliIo, plan: ComparePlan): void {
  for (const left of plan.leftOut)
    say(io, `Left out ${left.label} (target ${left.slot}): ${englishText(left.reason)}`);
  for (const target of plan.targets)
    for (const note of target.notes) say(io, `${target.label}: ${englishText(note)}`);
  for (const warning of plan.warnings) say(io, englishText(warning));
}

/**
 * "Cancel all": every unfinished task of the group is asked to stop where its service can
 * (cancel-tasks.ts); each line says what came of it. Exit 0 when every one ended canceled.
 */
async function cancelAll(
  core: PictorCore,
  command: CompareCommand & { name: 'compare-cancel' },
  io: CliIo,
): Promise<number> {
  core.engine.start({ resume: false });
  const cancels = new TaskCancels(core.engine, systemClock);
  const outcomes = await cancelCompare(core.history, cancels, command.group);
  if (outcomes.length === 0) say(io, 'No task of this compare is still running.');
  for (const outcome of outcomes) {
    const label = outcome.record?.compare?.label ?? '';
    io.stdout(`${[label, outcome.localId, outcome.kind].map((c) => terminalSafe(c)).join('  ')}\n`);
    if (outcome.reason) say(io, `${label}: ${outcome.reason.message}`);
  }
  return outcomes.every((outcome) => outcome.kind === 'canceled') ? EXIT.ok : EXIT.failed;
}

function show(core: PictorCore, command: CompareCommand & { name: 'compare-show' }, io: CliIo) {
  const records = compareTasks(core.history, command.group);
  if (records.length === 0) {
    say(io, `No compare ${command.group} in the history at ${command.common.dataDir}.`);
    return EXIT.usage;
  }
  report({ core, io, json: command.common.json }, command.group, records);
  return worstExitCode(records);
}

/** A task's row as `compare` and `compare show` print it, and its JSON. */
function rowOf(core: PictorCore, record: TaskRecord) {
  const saved = record.images.flatMap((image) =>
    image.savedAt === undefined ? [] : [image.savedAt],
  );
  const end = saved.length > 0 ? Math.max(...saved) : null;
  const seconds =
    record.submittedAt !== null && end !== null ? (end - record.submittedAt) / 1_000 : null;
  return {
    slot: record.compare?.slot ?? null,
    label: record.compare?.label ?? '',
    localId: record.localId,
    taskId: record.taskId,
    status: record.status,
    seconds,
    cost: record.cost ?? { source: 'unknown' as const },
    // The seed the service said it made the images with (docs/SERVICE.md, "Seeds"), or null.
    seed: record.seed ?? null,
    images: record.images
      .filter((image) => image.state === 'saved' && image.file)
      .map((image) => core.gallery.resolve(image.file ?? '')),
    exitCode: exitCodeOf(record),
  };
}

function costText(cost: TaskRecord['cost']): string {
  if (cost === undefined || cost.source === 'unknown') return 'cost unknown';
  if (cost.source === 'free') return 'free';
  if (cost.source === 'not_billed') return 'not billed';
  return `${formatMicros(cost.micros)} ${cost.unit} ${cost.source}`;
}

function report(
  { core, io, json }: { core: PictorCore; io: CliIo; json: boolean },
  group: string,
  records: readonly TaskRecord[],
  plan?: ComparePlan,
): void {
  const rows = records.map((record) => rowOf(core, record));
  if (json) {
    // Each reason in English, as the lines say it.
    const leftOut = (plan?.leftOut ?? []).map((left) => ({
      ...left,
      reason: englishText(left.reason),
    }));
    const exitCode = worstExitCode(records);
    io.stdout(`${JSON.stringify({ group, tasks: rows, leftOut, exitCode })}\n`);
    return;
  }
  for (const row of rows) {
    const time = row.seconds === null ? '–' : `${row.seconds.toFixed(1)} s`;
    const seed = row.seed === null ? 'seed –' : `seed ${String(row.seed)}`;
    const cost = costText(row.cost);
    const cells = [row.label, row.localId, row.taskId ?? '–', row.status, time, cost, seed];
    // Each cell cleaned on its own (a tab would be shown escaped), then two spaces between.
    io.stdout(`${cells.map((cell) => terminalSafe(cell)).join('  ')}\n`);
  }
}
