/**
 * Whether the page can read a task record: one outside the record limits (a compromised main
 * process or an old build could send one past the contract) is held in the records table all the
 * same, and each view shows it as one unreadable row or tile, never by throwing for the others.
 */
import { taskRecordSchema } from '../../shared/domain/task-record';
import { t } from '../i18n';

/** Checked once per record object: views re-render far more often than records change. */
const checked = new WeakMap<object, string | null>();

/** Why `record` cannot be shown (the first schema issue), or null when it is fine. */
export function recordProblem(record: unknown): string | null {
  if (typeof record !== 'object' || record === null) return t('tasks.unreadable.notRecord');
  const known = checked.get(record);
  if (known !== undefined) return known;
  const parsed = taskRecordSchema().safeParse(record);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const problem = parsed.success
    ? null
    : `${issue?.path.join('.') || t('tasks.unreadable.wholeRecord')}: ${issue?.message ?? t('tasks.unreadable.notValid')}`;
  checked.set(record, problem);
  return problem;
}
