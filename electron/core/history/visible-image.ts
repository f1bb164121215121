/**
 * A shown image (alias `i`) as the history's own statements test it: the board counts of the
 * sidebar and the tags in use with their counts (history-triage.ts), the model filter's walk
 * (image-models.ts), and every image query asked for the visible states: the gallery's pages and
 * count (history-query.ts, {@link areVisibleStates}). Its state is one of
 * VISIBLE_STATES, the list the gallery's pages are asked with (shared/domain/task-record.ts), so a
 * state this version does not know (a newer Pictor's, in the same library) is counted and offered
 * nowhere, as those pages list it nowhere; `<> 'deleted'` counted it. `saved` is tested first:
 * nearly every image is, so the model walk's 2.5 million rows cost what `<> 'deleted'` did (an
 * `IN` list would build an ephemeral table at every read).
 */
import { VISIBLE_STATES, type ImageState } from '../../../shared/domain/task-record';
import { oneOf } from './history-statements';

export const VISIBLE_IMAGE = oneOf('i.state', [
  'saved',
  ...VISIBLE_STATES.filter((state) => state !== 'saved'),
]);

/**
 * Whether `states` (an image query's, in any order, repeats allowed) are the visible ones: the
 * gallery's pages, its count and the CLI's and MCP's image lists ask with VISIBLE_STATES, and
 * their filter is then {@link VISIBLE_IMAGE} (history-query.ts), not a list of parameters.
 */
export function areVisibleStates(states: readonly ImageState[]): boolean {
  const asked = new Set(states);
  return asked.size === VISIBLE_STATES.length && VISIBLE_STATES.every((state) => asked.has(state));
}
