/**
 * What of a stored task is the user's, not the engine's: the task's star, each image's triage
 * (rating, flag, tags, boards) and an image moved to the trash. The one definition every engine
 * write goes through, so the engine's record of a task never carries an old copy of them back
 * over what the user did (in this process or another).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { withTriageOf } from '../../../shared/domain/triage-edits';

/** `ours` with the user's edits of `stored`; the same object when they already agree. */
export function withUserEditsOf(ours: TaskRecord, stored: TaskRecord): TaskRecord {
  const images = ours.images.map((image) => {
    const theirs = stored.images.find((other) => other.index === image.index);
    if (!theirs) return image;
    const deleted = theirs.state === 'deleted' && image.state === 'saved';
    const triaged = withTriageOf(image, theirs);
    return deleted ? { ...triaged, state: theirs.state } : triaged;
  });
  const changed =
    ours.favourite !== stored.favourite || images.some((image, n) => image !== ours.images[n]);
  return changed ? { ...ours, favourite: stored.favourite, images } : ours;
}
