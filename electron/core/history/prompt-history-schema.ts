/**
 * v11 of the history's schema: the prompt history (prompt-history.ts). One row per distinct
 * prompt, keyed by its exact text (no case folding, no trimming past what the request schema
 * did), with when it was last sent, how many times, and whether the user pinned it. It is its
 * own table, not a view of `tasks`: removing tasks or deleting images tidies the history of
 * tasks and leaves what was typed (the user forgets a prompt in the picker instead).
 *
 * The migration fills it from the tasks already there: the newest {@link PROMPT_HISTORY_KEEP}
 * distinct prompts of tasks the user submitted (a tracked task's prompt is a placeholder).
 */
import type { DatabaseSync } from 'node:sqlite';

/** Unpinned prompts kept; the oldest beyond are pruned on every write. */
export const PROMPT_HISTORY_KEEP = 500;

/** Pinned prompts at most (kept beyond {@link PROMPT_HISTORY_KEEP}). */
export const PROMPT_PINS_MAX = 100;

/**
 * The SQL test of a task row whose prompt the user typed (not a tracked task's placeholder). A
 * record that is not JSON (damaged) is read as typed: the upgrade never fails on one row.
 */
const TYPED_PROMPT_ROW = `trim(prompt) <> '' AND
  (CASE WHEN json_valid(record) THEN json_extract(record, '$.origin') END) IS NOT 'tracked'`;

/** Now in ms since the epoch, as SQLite reads its clock: a stored time is taken no later. */
export const NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

export function addPromptHistoryV11(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE prompt_history (
      prompt TEXT PRIMARY KEY,
      last_used_at INTEGER NOT NULL,
      uses INTEGER NOT NULL,
      pinned INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX prompt_history_newest ON prompt_history (pinned DESC, last_used_at DESC);

    INSERT INTO prompt_history (prompt, last_used_at, uses, pinned)
    SELECT prompt, min(max(created_at), ${NOW_MS}) AS last_used, count(*), 0 FROM tasks
    WHERE ${TYPED_PROMPT_ROW}
    GROUP BY prompt ORDER BY last_used DESC LIMIT ${PROMPT_HISTORY_KEEP};
  `);
}
