/**
 * Sending stored tasks again, the one way: a task's "Submit again" and "Rerun", a batch's Rerun
 * and the selection's "Submit again" all come here (the window's `tasks:resend`). Each is a new
 * submit of the stored requests, on each task's own service and address, into its board, with its
 * template kept: new local ids and new service tasks, the stored tasks left as they are (Pictor
 * never sends a stored task twice). `each` makes every task its own new task (one refused, as a
 * service without a key now, is skipped: the others may still go); `batch` makes one batch's tasks
 * one new batch. The caps judge all of them at once, as a template run from the form is judged
 * (template-runs.ts): priced by the cost book, and over a hard cap main asks in its own dialog
 * (over-cap.ts); without a yes, or where nobody can be asked, it is refused with the cap's
 * sentence before anything is stored or sent. Each request goes as it ran: a ComfyUI task with the
 * graph it kept, never the workflow imported under its model's name now (one that kept none is
 * refused: engine ranRequestOf); "Vary" (`newSeed`) sends it with a seed main draws.
 */
import { recordTarget } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { OverCapPrompts } from '../../ports/user-prompts';
import type { CostBook } from '../costs';
import { drawSeed } from '../../../shared/service/service-seed';
import { ranRequestOf, type HardCapConsent, type TaskEngine } from '../engine';
import { consentOverCaps, hardCapBreach } from './over-cap';
import { resendRecords, type ResendChoice, type ResendRecords } from './resend-records';

export interface ResendDeps {
  readonly engine: Pick<TaskEngine, 'get' | 'submitBatch'>;
  readonly costs: Pick<CostBook, 'previewGroup'>;
}

export interface ResendOptions extends ResendChoice {
  /** Main's own question before a hard cap is passed; absent (the harnesses): refused. */
  readonly prompts?: OverCapPrompts | undefined;
  /** A task's "Vary": each request with a new seed, drawn here. */
  readonly newSeed?: boolean | undefined;
}

type Engine = ResendDeps['engine'];

/** `records` (at least one) as one new batch on the first one's service. */
function sendBatch(engine: Engine, records: readonly TaskRecord[], consent: HardCapConsent | null) {
  const [first] = records as [TaskRecord, ...TaskRecord[]];
  const requests = records.map(ranRequestOf);
  const batch = { requests, count: 1, board: first.board, template: first.template };
  return engine.submitBatch({ ...batch, overHardCaps: consent }, recordTarget(first));
}

/** Every record as its own new task; those refused are skipped, the first refusal thrown if all are. */
async function sendEach(engine: Engine, chosen: ResendRecords, consent: HardCapConsent | null) {
  const records: TaskRecord[] = [];
  const refusals: unknown[] = [];
  for (const record of chosen.records) {
    try {
      records.push(...(await sendBatch(engine, [record], consent)));
    } catch (error) {
      refusals.push(error);
    }
  }
  if (records.length === 0 && refusals.length > 0) throw refusals[0];
  return { records, skipped: chosen.skipped + chosen.records.length - records.length };
}

/** `record` as "Vary" sends it again: its request with a new seed. */
function reseeded(record: TaskRecord): TaskRecord {
  return { ...record, request: { ...record.request, seed: drawSeed() } };
}

/**
 * The tasks `localIds` name, sent again as `options.as` says (see the file comment). Returns the
 * new tasks as stored, in order, and how many named ids made none.
 * @throws EngineInputError (resend-records.ts; the engine's refusals of a request, a target or a
 *   board: for `each`, only when every task was refused); SpendingCapError when a hard cap refuses
 *   them and the user did not agree.
 */
export async function resend(
  deps: ResendDeps,
  localIds: readonly string[],
  options: ResendOptions,
): Promise<ResendRecords> {
  const named = resendRecords(deps.engine, localIds, options);
  if (named.records.length === 0) return named;
  const chosen = options.newSeed ? { ...named, records: named.records.map(reseeded) } : named;
  const priced = chosen.records.map((record) => ({
    target: recordTarget(record),
    request: record.request,
    count: 1,
  }));
  const breach = hardCapBreach(deps.costs.previewGroup(priced));
  const consent = await consentOverCaps(breach, chosen.records.length, options.prompts);
  if (options.as === 'batch') {
    return { records: await sendBatch(deps.engine, chosen.records, consent), skipped: 0 };
  }
  return sendEach(deps.engine, chosen, consent);
}
