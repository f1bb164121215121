/**
 * How `pictor compare` and `compare show` print a compare: each task's row (its target's label,
 * its id as the other commands take it, the service's task id, status, time from submit to
 * saved, cost, the seed its service said), each saved image's path under it; with --json one
 * object. And the plan's notes in the CLI's words: a target left out for want of a key names
 * the variable that holds it (PICTOR_KEY_<PROVIDER>).
 */
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { formatMicros } from '../../shared/domain/task-cost';
import { englishText } from '../../shared/i18n/sentence';
import type { FanOutPlan, LeftOutTarget } from '../core/fan-out';
import type { PictorCore } from '../core/pictor-core';
import { exitCodeOf, worstExitCode } from './cli-report';
import type { CliIo } from './cli-io';
import { keyVariable } from './key-variables';
import { terminalSafe } from './terminal-text';

/** How many characters of a local id a row shows: as generate's progress shows it. */
const SHORT_ID = 8;

/**
 * Why a target was left out, in the CLI's words: for want of a key, the variable to set (the
 * core's sentence speaks of the window's Settings).
 * @param providers each target's provider, by slot (1 first)
 */
export function leftOutReason(left: LeftOutTarget, providers: readonly ProviderId[]): string {
  const provider = providers[left.slot - 1];
  if (left.reason.key === 'error.submit.noKeyThere' && provider !== undefined) {
    return `Nothing was sent: no key for ${PROVIDERS[provider].label}. Set ${keyVariable(provider)} to its key (it goes only to that service's address: its own, or --base-url ${provider}=ORIGIN).`;
  }
  return englishText(left.reason);
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

/** The rows of `records` (each with its images' paths under it), or with `json` one object. */
export function reportCompare(
  { core, io, json }: { core: PictorCore; io: CliIo; json: boolean },
  group: string,
  records: readonly TaskRecord[],
  left?: { readonly plan: FanOutPlan; readonly providers: readonly ProviderId[] },
): void {
  const rows = records.map((record) => rowOf(core, record));
  if (json) {
    // Each reason in English, as the lines say it.
    const leftOut = (left?.plan.leftOut ?? []).map((one) => ({
      ...one,
      reason: leftOutReason(one, left?.providers ?? []),
    }));
    const exitCode = worstExitCode(records);
    io.stdout(`${JSON.stringify({ group, tasks: rows, leftOut, exitCode })}\n`);
    return;
  }
  for (const row of rows) {
    const time = row.seconds === null ? '–' : `${row.seconds.toFixed(1)} s`;
    const seed = row.seed === null ? 'seed –' : `seed ${String(row.seed)}`;
    const id = `id ${row.localId.slice(0, SHORT_ID)}`;
    const taskId = `task ${row.taskId ?? '–'}`;
    const cells = [row.label, id, taskId, row.status, time, costText(row.cost), seed];
    // Each cell cleaned on its own (a tab would be shown escaped), then two spaces between.
    io.stdout(`${cells.map((cell) => terminalSafe(cell)).join('  ')}\n`);
    for (const path of row.images) io.stdout(`    ${terminalSafe(path)}\n`);
  }
}
