/**
 * Gallery and triage filters that name a smart board: the handlers of both families list by the
 * board's rules, so the step lives beside them rather than inside one of them.
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
