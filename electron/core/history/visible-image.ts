/**
 * A shown image (alias `i`) as the history's own statements test it: the board counts of the
 * sidebar and the tags in use with their counts (history-triage.ts), and the model filter's walk
 * (image-models.ts). Its state is one of
 * VISIBLE_STATES, the list the gallery's pages are asked with (shared/domain/task-record.ts), so a
 * state this version does not know (a newer Pictor's, in the same library) is counted and offered
 * nowhere, as those pages list it nowhere; `<> 'deleted'` counted it. `saved` is tested first:
 * nearly every image is, so the model walk's 2.5 million rows cost what `<> 'deleted'` did (an
 * `IN` list would build an ephemeral table at every read).
 */
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { oneOf } from './history-statements';

export const VISIBLE_IMAGE = oneOf('i.state', [
  'saved',
  ...VISIBLE_STATES.filter((state) => state !== 'saved'),
]);
