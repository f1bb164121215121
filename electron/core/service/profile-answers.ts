/**
 * A 2xx answer read through its provider's profile (answer-parsing.ts checks it), with the cost
 * it states (cost-reading.ts) beside what it says of the task.
 */
import type { AnswerCost } from '../../../shared/domain/task-cost';
import type { ServiceTask } from '../../../shared/service/wire';
import { readSubmitAnswer, readTaskAnswer } from './answer-parsing';
import type { SubmitAnswer } from './answer-parsing';
import type { Reading } from './reading';
import { costOfAnswer } from './cost-reading';
import type { ProviderProfile } from './providers/provider-profile';
import type { TakenPayloads } from './inline-taken';
import type { SecretKeys } from '../secrets';

/** A 2xx answer as it came: its body text (parsed once, here) and its headers. */
export interface AnswerSource {
  readonly text: string;
  readonly headers: Pick<Headers, 'get'>;
}

/** A profile's submit reading flattened for answer-parsing's schema. */
function submitReading(profile: ProviderProfile): Reading {
  return (json) => {
    const read = profile.readSubmit(json);
    return {
      ...(typeof json === 'object' && json !== null ? json : {}),
      id: read.id,
      model: read.model,
      poll: read.handles.poll,
      result: read.handles.result,
      cancel: read.handles.cancel,
    };
  };
}

/** A submit's answer: the checked id, the task's addresses, the model and the cost. */
export function submitAnswerOf(
  profile: ProviderProfile,
  answer: AnswerSource,
  keys: SecretKeys,
): SubmitAnswer & AnswerCost {
  const read = readSubmitAnswer(answer.text, keys, submitReading(profile));
  return { ...read.answer, ...costOfAnswer(profile, read.json, answer.headers) };
}

/**
 * A task answer (a poll's, or a result's as `read` takes it), with its cost; images it carries
 * inline are decoded up to `maxInlineBytes` each.
 */
export function taskAnswerOf(
  profile: ProviderProfile,
  answer: AnswerSource,
  read: Reading,
  secrets: {
    readonly keys: SecretKeys;
    readonly maxInlineBytes?: number;
    /** The inline payloads the answer's reader took out of `answer.text` (answer-scan.ts). */
    readonly taken?: TakenPayloads;
    /** The part of the answer about the task read (failure-reason.ts); the whole one if absent. */
    readonly ownAnswer?: Reading | undefined;
  },
): ServiceTask & AnswerCost {
  const { maxInlineBytes: maxBytes, taken, ownAnswer } = secrets;
  const inline = { maxBytes, taken, ownAnswer, maxEntries: profile.listEntries };
  const { task, json } = readTaskAnswer(answer.text, secrets.keys, read, inline);
  return { ...task, ...costOfAnswer(profile, json, answer.headers) };
}
