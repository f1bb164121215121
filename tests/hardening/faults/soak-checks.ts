/**
 * The soak's verdict, computed from the history, the gallery on disk and the demo service's own
 * view (its tasks and its request log). Every problem is listed by name so a failure says which
 * task broke which rule.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { DemoTaskSnapshot, RequestLogEntry } from '../../../electron/demo-service/types';
import {
  bump,
  groupBy,
  polledTaskId,
  problemWithSavedImage,
  recordsWithKey,
  type RunFacts,
} from './fault-harness';

/** What the checks need to know about the run. */
export interface SoakFacts extends RunFacts {
  readonly urlTtlMs: number;
}

/** The counted outcome; `problems` must be empty. */
export interface SoakVerdict {
  readonly problems: string[];
  readonly counts: Record<string, number>;
  lost: number;
  duplicated: number;
  leaked: number;
}

/** Submit kinds after which the service created the task but the app got no id. */
const ACCEPTED_UNANSWERED = new Set(['reset-after-accepting', 'truncate', 'delay']);

const is429 = (entry: RequestLogEntry): boolean => entry.fault === 'status' && entry.status === 429;

/** Submits seen by the service against the records, and the records against the service's tasks. */
function checkSubmits(facts: SoakFacts, verdict: SoakVerdict): void {
  const { records, log, tasks, problems, counts } = { ...facts, ...verdict };
  const submits = log.filter((entry) => entry.route === 'submit');
  const sent = submits.filter((entry) => !is429(entry));
  counts['submits seen by the service'] = submits.length;
  counts['submits refused with 429 (nothing created, retried)'] = submits.length - sent.length;
  if (records.length !== facts.expectedTasks)
    problems.push(`history holds ${records.length} records, ${facts.expectedTasks} submitted`);
  if (sent.length !== records.length)
    problems.push(`${sent.length} submits reached the service for ${records.length} records`);
  const answered = sent.filter((entry) => entry.fault === undefined).length;
  const unknownSent = sent.filter((e) => e.fault !== undefined && e.fault !== 'status').length;
  const acceptedUnanswered = sent.filter((e) => ACCEPTED_UNANSWERED.has(e.fault ?? '')).length;
  const withId = records.filter((record) => record.taskId !== null);
  const unknown = records.filter((record) => record.status === 'submit_unknown');
  counts['submit_unknown'] = unknown.length;
  counts['submit_failed'] = records.filter((r) => r.status === 'submit_failed').length;
  if (withId.length !== answered)
    problems.push(`${withId.length} records have an id, ${answered} submits were answered`);
  if (unknown.length !== unknownSent)
    problems.push(
      `${unknown.length} submit_unknown records, ${unknownSent} submits lost their answer`,
    );
  if (unknown.some((record) => record.taskId !== null || !record.error?.message))
    problems.push('a submit_unknown record has an id or no message');
  const ids = new Set(withId.map((record) => record.taskId));
  const unseen = tasks.filter((task) => !ids.has(task.id)).length;
  counts['service tasks the app never got an id for'] = unseen;
  if (tasks.length !== answered + acceptedUnanswered || unseen !== acceptedUnanswered)
    problems.push(
      `service created ${tasks.length} tasks (${unseen} unknown to the app); expected ${answered}+${acceptedUnanswered}`,
    );
}

/** Whether an expired image's URL had died before any request for it could have worked. */
function expiredFairly(path: string, expiresAt: number, downloads: readonly RequestLogEntry[]) {
  const forUrl = downloads.filter((entry) => entry.path === path);
  const beforeExpiry = forUrl.filter((entry) => entry.at < expiresAt);
  const allFaulted = beforeExpiry.every((entry) => entry.fault !== undefined);
  const saw403 = forUrl.some((entry) => entry.status === 403);
  return { fair: allFaulted && saw403, triedBefore: beforeExpiry.length };
}

/** Every task the service completed ends completed, each image saved on disk or fairly expired. */
async function checkImages(facts: SoakFacts, verdict: SoakVerdict): Promise<void> {
  const { problems, counts } = verdict;
  const taskById = new Map(facts.tasks.map((task) => [task.id, task]));
  const downloads = facts.log.filter((entry) => entry.route === 'image');
  for (const record of facts.records.filter((r) => r.taskId !== null)) {
    const task = taskById.get(record.taskId ?? '');
    if (!task) {
      problems.push(`${record.localId}: id ${record.taskId} unknown to the service`);
      verdict.lost += 1;
      continue;
    }
    if (task.status !== 'completed') continue;
    bump(counts, 'tasks the service completed');
    if (record.status !== 'completed' || record.images.length !== task.imageUrls.length) {
      problems.push(`${record.localId}: service completed it, history says ${record.status}`);
      verdict.lost += 1;
      continue;
    }
    bump(counts, 'completed');
    for (const image of record.images) await checkImage(image, task, downloads, facts, verdict);
  }
}

async function checkImage(
  image: TaskRecord['images'][number],
  task: DemoTaskSnapshot,
  downloads: readonly RequestLogEntry[],
  facts: SoakFacts,
  verdict: SoakVerdict,
): Promise<void> {
  const path = new URL(image.url ?? 'http://x/none').pathname;
  if (image.state === 'saved') {
    const problem = await problemWithSavedImage(facts.core, image);
    const served = downloads.some((entry) => entry.path === path && entry.status === 200);
    if (problem || !served) {
      verdict.problems.push(`${task.id}#${image.index}: ${problem ?? 'saved but never served'}`);
      verdict.lost += 1;
    } else bump(verdict.counts, 'images saved');
    return;
  }
  if (image.state === 'expired') {
    const { fair, triedBefore } = expiredFairly(path, task.completesAt + facts.urlTtlMs, downloads);
    if (!fair) {
      verdict.problems.push(`${task.id}#${image.index}: expired, but a download could have worked`);
      verdict.lost += 1;
    } else
      bump(
        verdict.counts,
        triedBefore === 0
          ? 'expired (URL dead before the first try)'
          : 'expired (every try before expiry faulted)',
      );
    return;
  }
  verdict.problems.push(`${task.id}#${image.index}: ended ${image.state}`);
  verdict.lost += 1;
}

/** Polls per task ≤ ceil(duration / interval) + 1 + 2 + the polls the faults spoiled. */
function checkPolls(facts: SoakFacts, verdict: SoakVerdict): void {
  const polls = groupBy(
    facts.log.filter((entry) => entry.route === 'poll'),
    polledTaskId,
  );
  let worstMargin = Number.NEGATIVE_INFINITY;
  let unforced = 0;
  for (const task of facts.tasks) {
    const mine = polls.get(task.id) ?? [];
    if (mine.length === 0) continue;
    const spoiled = mine.filter((entry) => entry.fault !== undefined || entry.status !== 200);
    unforced += spoiled.filter((entry) => entry.fault === undefined).length;
    const minimum = Math.ceil((task.completesAt - task.createdAt) / facts.intervalMs) + 1;
    const bound = minimum + 2 + spoiled.length;
    worstMargin = Math.max(worstMargin, mine.length - spoiled.length - minimum);
    if (mine.length > bound)
      verdict.problems.push(
        `${task.id}: ${mine.length} polls, bound ${bound} (${spoiled.length} spoiled)`,
      );
    bump(verdict.counts, 'polls', mine.length);
    bump(verdict.counts, 'polls spoiled by faults', spoiled.length);
  }
  verdict.counts['most unfaulted polls above the minimum for one task'] = worstMargin;
  verdict.counts['failed polls without a fault (should be 0)'] = unforced;
}

/** Runs every check. */
export async function judgeSoak(facts: SoakFacts): Promise<SoakVerdict> {
  const verdict: SoakVerdict = { problems: [], counts: {}, lost: 0, duplicated: 0, leaked: 0 };
  checkSubmits(facts, verdict);
  const ids = facts.records.flatMap((record) => (record.taskId ? [record.taskId] : []));
  verdict.duplicated =
    ids.length -
    new Set(ids).size +
    Math.max(
      0,
      facts.log.filter((e) => e.route === 'submit' && !is429(e)).length - facts.records.length,
    );
  if (verdict.duplicated > 0) verdict.problems.push(`${verdict.duplicated} duplicates`);
  verdict.lost += Math.max(0, facts.expectedTasks - facts.records.length);
  await checkImages(facts, verdict);
  checkPolls(facts, verdict);
  const keyed = facts.log.filter((e) => e.route === 'image' && 'authorization' in e.headers);
  verdict.leaked = recordsWithKey(facts.records) + keyed.length;
  if (verdict.leaked > 0) verdict.problems.push(`the key leaked ${verdict.leaked} times`);
  return verdict;
}
