/**
 * The prompt history (prompt-history-schema.ts): the distinct prompts the user sent, newest
 * first, pinned ones first and kept beyond the {@link PROMPT_HISTORY_KEEP} others. Every front's
 * submit notes the prompts it sent (TaskEngine.submit); a rebuild or an import notes the prompts of the
 * tasks it adds. Nothing that removes tasks or images touches it: the user forgets a prompt here.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentence } from '../../../shared/i18n/sentence';
import type { HistoryAccess } from './history-access';
import { HistoryError } from './history-error';
import { NOW_MS, PROMPT_HISTORY_KEEP, PROMPT_PINS_MAX } from './prompt-history-schema';

/** One remembered prompt. */
export interface PromptEntry {
  readonly prompt: string;
  readonly lastUsedAt: number;
  readonly uses: number;
  readonly pinned: boolean;
}

const UPSERT = `
  INSERT INTO prompt_history (prompt, last_used_at, uses, pinned) VALUES (?, ?, 1, 0)
  ON CONFLICT (prompt) DO UPDATE SET
    last_used_at = max(last_used_at, excluded.last_used_at), uses = uses + 1`;
/**
 * {@link UPSERT} for a task from outside the library (a rebuild, an import): its time is the
 * record's, which a crafted sidecar or archive writes, so it is taken no later than now. A
 * prompt dated 2199 would otherwise outrank every prompt sent from then on and push it out.
 */
const UPSERT_FOUND = UPSERT.replace('VALUES (?, ?, 1, 0)', `VALUES (?, min(?, ${NOW_MS}), 1, 0)`);
/**
 * The first unpinned prompt past the newest {@link PROMPT_HISTORY_KEEP} (newest first, then by
 * text: the index's order, so no sort), and those from it on, by the same index: the prune in
 * two statements, so no ephemeral table. One DELETE holding the list as `prompt IN (SELECT …
 * LIMIT -1 OFFSET …)` built two at every run, the list's and its keys', each with its own page
 * cache: at every submit, pin and import.
 */
const PRUNE_FROM = `SELECT last_used_at, prompt FROM prompt_history WHERE pinned = 0
  ORDER BY last_used_at DESC, prompt LIMIT 1 OFFSET ${PROMPT_HISTORY_KEEP}`;
const PRUNE = `DELETE FROM prompt_history WHERE pinned = 0 AND last_used_at <= ?1
  AND (last_used_at < ?1 OR prompt >= ?2)`;
const ALL = `SELECT prompt, last_used_at, uses, pinned FROM prompt_history
  ORDER BY pinned DESC, last_used_at DESC, prompt`;

/** Whether `prompt` holds `query`, any case (a blank query holds everything). */
function promptMatches(prompt: string, query: string): boolean {
  if (query.trim() === '') return true;
  return prompt.toLowerCase().includes(query.toLowerCase());
}

export class PromptHistory {
  constructor(
    private readonly access: HistoryAccess,
    /** False on a file of an older schema (a test's): nothing is kept, nothing listed. */
    private readonly enabled: boolean,
  ) {}

  /**
   * The prompts one submit sent at `at` (a batch of one prompt names it as often as it has
   * tasks): each distinct one moves to the top, one use more. In one write, in order.
   */
  note(prompts: readonly string[], at: number): void {
    const sent = [...new Set(prompts)].filter((prompt) => prompt.trim() !== '');
    if (!this.enabled || sent.length === 0) return;
    this.access.writeTransaction(() => {
      for (const prompt of sent) this.access.connection.run(UPSERT, [prompt, at]);
      this.prune();
    });
  }

  /** Tasks that joined the library (a rebuild, an import): their typed prompts, at their times. */
  noteTasks(records: readonly TaskRecord[]): void {
    const typed = records.filter((r) => r.origin === 'submitted' && r.request.prompt.trim() !== '');
    if (!this.enabled || typed.length === 0) return;
    this.access.writeTransaction(() => {
      for (const record of typed) {
        this.access.connection.run(UPSERT_FOUND, [record.request.prompt, record.createdAt]);
      }
      this.prune();
    });
  }

  /** Pinned first, then newest first; those holding `query` (any case), at most `limit`. */
  list(query: string, limit: number): PromptEntry[] {
    if (!this.enabled) return [];
    // At most KEEP + PINS_MAX rows: matched here, where any letter's case is known (SQLite's
    // LIKE folds ASCII alone) and no character of the query is a pattern.
    const entries: PromptEntry[] = [];
    for (const row of this.access.rows(ALL, [])) {
      const prompt = String(row['prompt']);
      if (!promptMatches(prompt, query)) continue;
      entries.push({
        prompt,
        lastUsedAt: Number(row['last_used_at']),
        uses: Number(row['uses']),
        pinned: Number(row['pinned']) === 1,
      });
      if (entries.length >= limit) break;
    }
    return entries;
  }

  /**
   * Pins or unpins a remembered prompt; false when it is not in the history (forgotten
   * meanwhile) or already so.
   * @throws HistoryError with a sentence past {@link PROMPT_PINS_MAX} pins.
   */
  pin(prompt: string, pinned: boolean): boolean {
    if (!this.enabled) return false;
    const { connection } = this.access;
    return this.access.writeTransaction(() => {
      const row = connection.get('SELECT pinned FROM prompt_history WHERE prompt = ?', [prompt]);
      if (!row || (Number(row['pinned']) === 1) === pinned) return false;
      if (pinned && this.pinCount() >= PROMPT_PINS_MAX) {
        throw new HistoryError(sentence('error.prompts.tooManyPins', { max: PROMPT_PINS_MAX }), {
          code: 'bad_input',
        });
      }
      connection.run('UPDATE prompt_history SET pinned = ? WHERE prompt = ?', [+pinned, prompt]);
      // An unpinned prompt joins the others, and the oldest past the limit goes.
      if (!pinned) this.prune();
      return true;
    });
  }

  /** Removes the prompt from the history, pinned or not; false when it was not there. */
  forget(prompt: string): boolean {
    if (!this.enabled) return false;
    return this.access.writeTransaction(
      () =>
        this.access.connection.run('DELETE FROM prompt_history WHERE prompt = ?', [prompt])
          .changes > 0,
    );
  }

  /** Removes every unpinned prompt ("Clear history": pins stay); how many went. */
  clear(): number {
    if (!this.enabled) return 0;
    return this.access.writeTransaction(
      () => this.access.connection.run('DELETE FROM prompt_history WHERE pinned = 0').changes,
    );
  }

  /** Inside a write: the unpinned prompts past the newest {@link PROMPT_HISTORY_KEEP} go. */
  private prune(): void {
    const { connection } = this.access;
    const first = connection.get(PRUNE_FROM, []);
    if (first) connection.run(PRUNE, [first['last_used_at'] ?? null, first['prompt'] ?? null]);
  }

  private pinCount(): number {
    const sql = 'SELECT count(*) AS n FROM prompt_history WHERE pinned = 1';
    return Number(this.access.connection.get(sql, [])?.['n'] ?? 0);
  }
}
