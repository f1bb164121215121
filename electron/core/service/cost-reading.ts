/**
 * The cost a service answer states, through its profile's reading (providers/provider-profile.ts
 * `cost.read`) and the one check every reported value passes (shared/domain/task-cost.ts). Only a
 * number and a known unit come out of it, so nothing the service wrote there reaches the record,
 * the screen or the log as text.
 */
import { checkReportedCost, type AnswerCost } from '../../../shared/domain/task-cost';
import type { ProviderProfile } from './providers/provider-profile';

/**
 * The cost `json` (the answer's body, as answer-parsing.ts already parsed it) and `headers`
 * state, checked.
 */
export function costOfAnswer(
  profile: ProviderProfile,
  json: unknown,
  headers: Pick<Headers, 'get'>,
): AnswerCost {
  const { read } = profile.cost;
  if (read === undefined) return {};
  const raw = read(json, (name) => headers.get(name));
  if (raw === undefined) return {};
  const checked = checkReportedCost(raw);
  return checked.ok
    ? { reportedCost: checked.cost }
    : { costRefused: { field: checked.field, problem: checked.problem } };
}
