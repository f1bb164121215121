/**
 * The command line of `cancel <task-id>…`: the tasks to cancel (local ids or the services' ids),
 * each named once, and the service SERVICE_API_KEY is for (--provider, --base-url).
 */
import { MAX_IDS_PER_BATCH } from '../../shared/domain/limits';
import { UsageError } from '../core/command-line';
import type { CommonOptions, ServiceChoice } from './cli-args';

export interface CancelCommand {
  readonly name: 'cancel';
  /** As typed (trimmed), each once, in their first order. */
  readonly targets: readonly string[];
  /** The service SERVICE_API_KEY is for: sent with the tasks that live there only. */
  readonly service: ServiceChoice;
  readonly common: CommonOptions;
}

/** `cancel`'s command, from the words after it and the options every service command takes. */
export function parseCancel(
  rest: readonly string[],
  service: ServiceChoice,
  common: CommonOptions,
): CancelCommand {
  return { name: 'cancel', targets: cancelTargets(rest), service, common };
}

/** The task ids after `cancel`: at least one, none empty, at most a selection's worth. */
function cancelTargets(rest: readonly string[]): readonly string[] {
  if (rest.length === 0) throw new UsageError('cancel needs the id of each task to cancel.');
  const targets = rest.map((id) => id.trim());
  // Not repeated: a stray value may be the key pasted in the wrong place.
  if (targets.some((id) => id === '')) throw new UsageError('cancel takes no empty task id.');
  const distinct = [...new Set(targets)];
  if (distinct.length > MAX_IDS_PER_BATCH) {
    throw new UsageError(`cancel takes at most ${MAX_IDS_PER_BATCH} task ids at once.`);
  }
  return distinct;
}
