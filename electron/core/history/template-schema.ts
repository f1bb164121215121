/**
 * The history's prompt templates (shared/domain/prompt-template.ts) and the word lists their
 * bodies name (`__name__`, shared/domain/template-language.ts), appended after the schema's
 * earlier versions.
 *
 * - `templates`: one row per template, the whole record as JSON (`record`, the truth, checked
 *   again on every read: template-rows.ts), with what a lookup needs beside it: the name as
 *   stored and its folded key (`name_key`, unique: one name per library whatever its case), the
 *   version a save compares, and when it last changed.
 * - `word_lists`: one row per list, by its folded key, with its name as written and its words as
 *   a JSON list.
 */
import type { DatabaseSync } from 'node:sqlite';

export function addTemplates(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE templates (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL UNIQUE,
      record TEXT NOT NULL,
      version INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE word_lists (
      name_key TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      words TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}
