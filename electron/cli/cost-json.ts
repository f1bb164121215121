/** A task's cost in the CLI's JSON (`list --json`, `costs --json`). */
import {
  UNKNOWN_COST,
  countedCost,
  formatMicros,
  type TaskCost,
} from '../../shared/domain/task-cost';

/** A cost as `list --json` and `costs --json` give it: amounts as exact decimal text. */
export function costJson(cost: TaskCost | undefined): Record<string, string | null> {
  const said = cost ?? UNKNOWN_COST;
  const counted = countedCost(said);
  return {
    source: said.source,
    amount: counted ? formatMicros(counted.micros) : null,
    unit: counted?.unit ?? null,
    // Where the service said it (a field or header), or the basis of the user's price.
    detail:
      said.source === 'reported' ? said.field : said.source === 'estimated' ? said.basis : null,
  };
}
