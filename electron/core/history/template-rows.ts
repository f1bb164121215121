/**
 * The history's `templates` and `word_lists` tables (template-schema.ts). A template is stored as
 * the core checked it (its whole record as JSON) and read back as text: the core checks it again
 * (electron/core/templates/template-store.ts), so a row someone edited by hand is a sentence,
 * never a template. Word lists the same: their words are read back as text.
 *
 * Every change runs in one write transaction ({@link TemplateRows.change}), in which the rows are
 * read under the write lock: two processes saving one template one after the other, the second
 * one sees the first's version.
 */
import type { HistoryAccess } from './history-access';
import type { Row } from './sqlite-connection';

/** A template as stored (its record unchecked). */
export interface TemplateRow {
  readonly id: string;
  readonly name: string;
  /** The record's JSON as stored. */
  readonly record: string;
  readonly version: number;
  readonly updatedAt: number;
}

/** A word list as stored (its words' JSON unchecked). */
export interface WordListRow {
  readonly key: string;
  readonly name: string;
  readonly words: string;
  readonly updatedAt: number;
}

/** What a change may do to the rows, inside its write. */
export interface TemplateWrite {
  readonly templates: () => TemplateRow[];
  readonly wordLists: () => WordListRow[];
  /** Inserts or replaces the template whose id is `row.id`; `key` is its name folded. */
  readonly put: (row: TemplateRow, key: string) => void;
  readonly remove: (id: string) => void;
  readonly putList: (row: WordListRow) => void;
  readonly removeList: (key: string) => void;
}

const TEMPLATE_COLUMNS = 'SELECT id, name, record, version, updated_at FROM templates';
const TEMPLATES = `${TEMPLATE_COLUMNS} ORDER BY name, id`;
const TEMPLATE_BY_ID = `${TEMPLATE_COLUMNS} WHERE id = ?`;
const TEMPLATE_BY_KEY = `${TEMPLATE_COLUMNS} WHERE name_key = ?`;
const LISTS = 'SELECT name_key, name, words, updated_at FROM word_lists ORDER BY name_key';

function templateRow(row: Row): TemplateRow {
  return {
    id: String(row['id']),
    name: String(row['name']),
    record: String(row['record']),
    version: Number(row['version']),
    updatedAt: Number(row['updated_at']),
  };
}

export class TemplateRows {
  constructor(private readonly access: HistoryAccess) {}

  /** Every template, by name. */
  list(): TemplateRow[] {
    return this.access.rows(TEMPLATES, []).map(templateRow);
  }

  /** The template `id`, or null: one row read, not the library. */
  byId(id: string): TemplateRow | null {
    const row = this.access.row(TEMPLATE_BY_ID, [id]);
    return row ? templateRow(row) : null;
  }

  /** The template whose name folds to `key` (as {@link TemplateWrite.put} stored it), or null. */
  byKey(key: string): TemplateRow | null {
    const row = this.access.row(TEMPLATE_BY_KEY, [key]);
    return row ? templateRow(row) : null;
  }

  /** Every word list, by key. */
  wordLists(): WordListRow[] {
    return this.access.rows(LISTS, []).map((row) => ({
      key: String(row['name_key']),
      name: String(row['name']),
      words: String(row['words']),
      updatedAt: Number(row['updated_at']),
    }));
  }

  /** Runs `work` in one write transaction: what it throws leaves nothing written. */
  change<T>(work: (write: TemplateWrite) => T): T {
    return this.access.writeTransaction(() => work(this.writer()));
  }

  private writer(): TemplateWrite {
    const { connection } = this.access;
    return {
      templates: () => this.list(),
      wordLists: () => this.wordLists(),
      put: (row, key) => {
        connection.run(
          `INSERT INTO templates (id, name, name_key, record, version, updated_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
             record = excluded.record, version = excluded.version, updated_at = excluded.updated_at`,
          [row.id, row.name, key, row.record, row.version, row.updatedAt],
        );
      },
      remove: (id) => connection.run('DELETE FROM templates WHERE id = ?', [id]),
      putList: (row) => {
        connection.run(
          `INSERT INTO word_lists (name_key, name, words, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, words = excluded.words,
             updated_at = excluded.updated_at`,
          [row.key, row.name, row.words, row.updatedAt],
        );
      },
      removeList: (key) => connection.run('DELETE FROM word_lists WHERE name_key = ?', [key]),
    };
  }
}
