/**
 * The cost a service answer states, through its profile's reading (providers/provider-profile.ts
 * `cost.read`) and the one check every reported value passes (shared/domain/task-cost.ts). Only a
 * number and a known unit come out of it, so nothing the service wrote there reaches the record,
 * the screen or the log as text.
 */
import { checkReportedCost, type AnswerCost } from '../../../shared/domain/task-cost';
import { parseJson } from './http-response';
import type { ProviderProfile } from './providers/provider-profile';

/** An answer a cost is read from: its body text and its headers. */
export interface CostSource {
  readonly text: string;
  readonly headers: Headers;
}

export function costOfAnswer(profile: ProviderProfile, answer: CostSource): AnswerCost {
  const { read } = profile.cost;
  if (read === undefined) return {};
  const json = parseJson(answer.text);
  const raw = read(json.ok ? json.value : undefined, (name) => answer.headers.get(name));
  if (raw === undefined) return {};
  const checked = checkReportedCost(raw);
  return checked.ok
    ? { reportedCost: checked.cost }
    : { costRefused: { field: checked.field, problem: checked.problem } };
}
