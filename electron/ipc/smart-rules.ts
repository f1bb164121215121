/**
 * A gallery filter as the page sends it (a smart board by name) made into the history's query
 * (the board's rules in its place), for every handler that lists, counts or selects images and
 * for the open gallery view (open-views.ts).
 */
import type { SmartRules } from '../../shared/domain/smart-board';
import type { SmartBoards } from '../core/triage';

/**
 * A filter naming a smart board, with the board's rules in its place (core/triage/smart-boards.ts).
 * @throws TriageError when there is no smart board of that name.
 */
export function withSmartRules<Q extends { smart?: string }>(
  boards: Pick<SmartBoards, 'rulesOf'>,
  query: Q,
): Omit<Q, 'smart'> & { smart?: SmartRules } {
  const { smart, ...rest } = query;
  return smart === undefined ? rest : { ...rest, smart: boards.rulesOf(smart) };
}
