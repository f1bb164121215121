/**
 * Whether the page can read a task record: one outside the record limits (a compromised main
 * process or an old build could send one past the contract) is held in the records table all the
 * same, and each view shows it as one unreadable row or tile, never by throwing for the others.
 *
 * A record of the common shape is checked without zod (shared/domain/record-check.ts, as the
 * history checks what it reads): building the task schema and its first parse were about 9 ms of
 * the first frame that draws task rows. Anything that check is not sure of goes to the schema,
 * which also says what is wrong.
 */
import { plainTaskRecord } from '../../shared/domain/record-check';
import { taskRecordSchema } from '../../shared/domain/task-record';
import { t } from '../i18n';

/** Checked once per record object: views re-render far more often than records change. */
const checked = new WeakMap<object, string | null>();

/** Why `record` cannot be shown (the first schema issue), or null when it is fine. */
export function recordProblem(record: unknown): string | null {
  if (typeof record !== 'object' || record === null) return t('tasks.unreadable.notRecord');
  const known = checked.get(record);
  if (known !== undefined) return known;
  const problem = plainTaskRecord(record) === undefined ? schemaProblem(record) : null;
  checked.set(record, problem);
  return problem;
}

/** The schema's first issue with `record`, or null when it parses. */
function schemaProblem(record: object): string | null {
  const parsed = taskRecordSchema().safeParse(record);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `${issue?.path.join('.') || t('tasks.unreadable.wholeRecord')}: ${issue?.message ?? t('tasks.unreadable.notValid')}`;
}
