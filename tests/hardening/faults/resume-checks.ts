/**
 * After a sleep or a network outage: did every task resume promptly, without a burst of polls,
 * and end completed with its images, each submitted once? Counted from the service's log.
 */
import {
  maxInWindow,
  groupBy,
  polledTaskId,
  problemWithSavedImage,
  type RunFacts,
} from './fault-harness';

export interface ResumeFacts extends RunFacts {
  /** Service time when the machine woke / the network returned. */
  readonly backAt: number;
  /** First successful poll per task must come by `backAt + boundMs`. */
  readonly boundMs: number;
}

export interface ResumeVerdict {
  readonly problems: string[];
  readonly counts: Record<string, number>;
  lost: number;
  duplicated: number;
}

/** Each task's first successful poll after `backAt` comes within the bound. */
function checkPrompt(facts: ResumeFacts, verdict: ResumeVerdict): void {
  const after = facts.log.filter((e) => e.route === 'poll' && e.at >= facts.backAt);
  const polls = groupBy(after, polledTaskId);
  let slowest = 0;
  let resumed = 0;
  for (const record of facts.records) {
    const first = polls.get(record.taskId ?? '')?.find((entry) => entry.status === 200);
    if (!first) continue; // completed before the break and already downloaded: nothing to resume
    resumed += 1;
    slowest = Math.max(slowest, first.at - facts.backAt);
    if (first.at - facts.backAt > facts.boundMs)
      verdict.problems.push(`${record.taskId}: first poll ${first.at - facts.backAt} ms after`);
  }
  verdict.counts['tasks polled after the break'] = resumed;
  verdict.counts['slowest first successful poll after the break (ms)'] = slowest;
}

/**
 * No window of a third of an interval (1 s at the real 3 s) holds more polls than
 * 1.5 × the steady rate: tasks / interval × window × 1.5 = tasks / 2.
 */
function checkBurst(facts: ResumeFacts, verdict: ResumeVerdict): void {
  const after = facts.log.filter((e) => e.at >= facts.backAt);
  const window = facts.intervalMs / 3;
  const limit = Math.ceil((facts.expectedTasks / facts.intervalMs) * window * 1.5);
  const polls = maxInWindow(
    after.filter((e) => e.route === 'poll').map((e) => e.at),
    window,
  );
  verdict.counts['busiest window of polls after the break'] = polls;
  verdict.counts['allowed per window'] = limit;
  verdict.counts['busiest window of all requests after the break'] = maxInWindow(
    after.map((e) => e.at),
    window,
  );
  if (polls > limit) verdict.problems.push(`${polls} polls in ${window} ms (limit ${limit})`);
}

/** Every task completed with every image saved; one submit per record; no id twice. */
async function checkOutcome(facts: ResumeFacts, verdict: ResumeVerdict): Promise<void> {
  const submits = facts.log.filter((e) => e.route === 'submit').length;
  const ids = facts.records.map((record) => record.taskId);
  verdict.duplicated = ids.length - new Set(ids).size + Math.max(0, submits - facts.records.length);
  verdict.lost = Math.max(0, facts.expectedTasks - facts.records.length);
  verdict.counts['submits seen by the service'] = submits;
  verdict.counts['service tasks'] = facts.tasks.length;
  if (submits !== facts.expectedTasks || facts.tasks.length !== facts.expectedTasks)
    verdict.problems.push(`${submits} submits, ${facts.tasks.length} service tasks`);
  for (const record of facts.records) {
    const saved = record.images.filter((image) => image.state === 'saved');
    if (
      record.status !== 'completed' ||
      saved.length === 0 ||
      saved.length !== record.images.length
    ) {
      verdict.problems.push(`${record.localId}: ${record.status}, ${saved.length} saved`);
      verdict.lost += 1;
      continue;
    }
    for (const image of saved) {
      const problem = await problemWithSavedImage(facts.core, image);
      if (problem) verdict.problems.push(`${record.localId}#${image.index}: ${problem}`);
    }
    verdict.counts['completed'] = (verdict.counts['completed'] ?? 0) + 1;
    verdict.counts['images saved'] = (verdict.counts['images saved'] ?? 0) + saved.length;
  }
  if (verdict.duplicated > 0) verdict.problems.push(`${verdict.duplicated} duplicates`);
}

export async function judgeResume(facts: ResumeFacts): Promise<ResumeVerdict> {
  const verdict: ResumeVerdict = { problems: [], counts: {}, lost: 0, duplicated: 0 };
  checkPrompt(facts, verdict);
  checkBurst(facts, verdict);
  await checkOutcome(facts, verdict);
  return verdict;
}
