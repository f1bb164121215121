/**
 * The one way every command finds the task or compare an id names: the whole local id, the whole
 * id its service gave, or the start of either as the command line shows it short (`[4b211e38]`
 * in generate's progress, a gallery folder's `_4b211e38`). A start that fits several is refused
 * with a sentence (exit 2), never guessed; one shorter than {@link MIN_ID_PREFIX} is no start.
 * No sentence repeats what was typed: a stray argument may be a key pasted in the wrong place.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { compareGroupSchema } from '../../shared/domain/compare';
import { UsageError } from '../core/command-line';
import type { IdPrefixes } from '../core/history';

/** The fewest characters a short id has: generate shows 8, fewer would name tasks by chance. */
export const MIN_ID_PREFIX = 4;

/** What the lookup reads of the history. */
export interface IdHistory {
  get(localId: string): TaskRecord | undefined;
  findByTaskId(taskId: string): TaskRecord | undefined;
  readonly ids: Pick<IdPrefixes, 'tasks' | 'groups'>;
}

/**
 * The task `text` names, or undefined when the history has none.
 * @throws UsageError when `text` is the start of several tasks' ids.
 */
export function findTask(history: IdHistory, text: string): TaskRecord | undefined {
  const id = text.trim();
  if (id === '') return undefined;
  const exact = history.get(id) ?? history.findByTaskId(id);
  if (exact !== undefined || id.length < MIN_ID_PREFIX) return exact;
  const [first, second] = history.ids.tasks(id, 2);
  if (second !== undefined) {
    throw new UsageError(
      'That id is the start of more than one task in the history: give more of it (list shows each task’s id).',
    );
  }
  return first === undefined ? undefined : history.get(first);
}

/**
 * The compare group `text` names (its id, or the start of it), or undefined when the history has
 * none.
 * @throws UsageError when `text` is the start of several groups' ids.
 */
export function findCompareGroup(history: IdHistory, text: string): string | undefined {
  const id = text.trim().toLowerCase();
  if (id.length < MIN_ID_PREFIX) return undefined;
  const [first, second] = history.ids.groups(id, 2);
  if (second !== undefined) {
    throw new UsageError(
      'That id is the start of more than one compare in the history: give more of it (compare prints each group’s id).',
    );
  }
  return first;
}

/**
 * A compare group id as typed (checked before anything opens): the whole UUID, or its start.
 * @throws UsageError for anything else.
 */
export function compareIdText(text: string, option: string): string {
  const id = text.trim().toLowerCase();
  if (compareGroupSchema().safeParse(id).success) return id;
  if (id.length >= MIN_ID_PREFIX && /^[0-9a-f-]+$/.test(id)) return id;
  throw new UsageError(
    `${option} takes a compare group id as compare printed it (a UUID, or its first ${MIN_ID_PREFIX} or more characters).`,
  );
}

/** `list --compare GROUP`: the group id (or its start) checked; null when not given. */
export function compareGroupOption(raw: string | undefined): string | null {
  return raw === undefined ? null : compareIdText(raw, '--compare');
}
