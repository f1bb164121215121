/**
 * The history's `smart_boards` table (triage-schema.ts): each smart board's id, name, rules (as
 * JSON) and creation time. The rules are stored as the core checked them and read back as text:
 * the core checks them again (shared/domain/smart-board.ts), so a row someone edited by hand is
 * a sentence, never a query.
 *
 * Smart boards live here alone: no sidecar or archive carries them, so a library rebuilt from
 * its folder, or imported into another, has none (its boards and triage come back; the saved
 * filters do not).
 *
 * A change is checked and written in one write transaction ({@link SmartBoardRows.change}): two
 * processes creating the same name one after the other, the second one sees the first's.
 */
import { boardKey } from '../../../shared/domain/triage';
import {
  isGroup,
  smartRulesSchema,
  type SmartRule,
  type SmartRules,
} from '../../../shared/domain/smart-board';
import type { HistoryAccess } from './history-access';

/** A smart board as stored (its rules unchecked). */
export interface SmartBoardRow {
  readonly id: string;
  readonly name: string;
  /** The rules' JSON as stored. */
  readonly rules: string;
  readonly createdAt: number;
}

/** What a change does, decided on the rows as they are inside the write. */
export type SmartBoardEdit =
  | { readonly kind: 'insert'; readonly row: SmartBoardRow }
  | { readonly kind: 'update'; readonly id: string; readonly name: string; readonly rules: string }
  | { readonly kind: 'delete'; readonly id: string };

const SELECT = 'SELECT id, name, rules, created_at FROM smart_boards ORDER BY name, id';

export class SmartBoardRows {
  constructor(private readonly access: HistoryAccess) {}

  /** Every smart board, by name. */
  list(): SmartBoardRow[] {
    return this.access.rows(SELECT, []).map((row) => ({
      id: String(row['id']),
      name: String(row['name']),
      rules: String(row['rules']),
      createdAt: Number(row['created_at']),
    }));
  }

  /**
   * `decide` sees every smart board as the write finds it and says what to change (or throws:
   * nothing is written); returns what it decided.
   */
  change(decide: (rows: SmartBoardRow[]) => SmartBoardEdit): SmartBoardEdit {
    return this.access.writeTransaction(() => {
      const edit = decide(this.list());
      const { connection } = this.access;
      switch (edit.kind) {
        case 'insert':
          connection.run(
            'INSERT INTO smart_boards (id, name, rules, created_at) VALUES (?, ?, ?, ?)',
            [edit.row.id, edit.row.name, edit.row.rules, edit.row.createdAt],
          );
          break;
        case 'update':
          connection.run('UPDATE smart_boards SET name = ?, rules = ? WHERE id = ?', [
            edit.name,
            edit.rules,
            edit.id,
          ]);
          break;
        case 'delete':
          connection.run('DELETE FROM smart_boards WHERE id = ?', [edit.id]);
          break;
      }
      return edit;
    });
  }

  /**
   * Inside a write (a board's move: triage/boards.ts): board rules naming a moved board name it
   * at its new path. `moved` maps a board's key to its new path (undefined: not moved). Rows
   * that do not parse are left as they are.
   */
  followBoards(moved: (key: string) => string | undefined): void {
    for (const row of this.list()) {
      const rules = parsed(row.rules);
      if (rules === null) continue;
      let changed = false;
      const follow = (rule: SmartRule): SmartRule => {
        if (rule.kind !== 'board') return rule;
        const path = moved(boardKey(rule.board));
        if (path === undefined) return rule;
        changed = true;
        return { ...rule, board: path };
      };
      const items = rules.items.map((item) =>
        isGroup(item) ? { ...item, rules: item.rules.map(follow) } : follow(item),
      );
      if (!changed) continue;
      this.access.connection.run('UPDATE smart_boards SET rules = ? WHERE id = ?', [
        JSON.stringify({ ...rules, items }),
        row.id,
      ]);
    }
  }
}

function parsed(text: string): SmartRules | null {
  try {
    const result = smartRulesSchema().safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
