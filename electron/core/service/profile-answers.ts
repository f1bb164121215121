/**
 * A 2xx answer read through its provider's profile (answer-parsing.ts checks it), with the cost
 * it states (cost-reading.ts) beside what it says of the task.
 */
import type { AnswerCost } from '../../../shared/domain/task-cost';
import type { ServiceTask } from '../../../shared/service/wire';
import { parseSubmitAnswer, parseTaskAnswer } from './answer-parsing';
import type { Reading, SubmitAnswer } from './answer-parsing';
import { costOfAnswer, type CostSource } from './cost-reading';
import type { ProviderProfile } from './providers/provider-profile';

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
  answer: CostSource,
  key: string,
): SubmitAnswer & AnswerCost {
  const read = parseSubmitAnswer(answer.text, key, submitReading(profile));
  return { ...read, ...costOfAnswer(profile, answer) };
}

/**
 * A task answer (a poll's, or a result's as `read` takes it), with its cost; images it carries
 * inline are decoded up to `maxInlineBytes` each.
 */
export function taskAnswerOf(
  profile: ProviderProfile,
  answer: CostSource,
  read: Reading,
  secrets: { readonly key: string; readonly maxInlineBytes?: number },
): ServiceTask & AnswerCost {
  const task = parseTaskAnswer(answer.text, secrets.key, read, secrets.maxInlineBytes);
  return { ...task, ...costOfAnswer(profile, answer) };
}
