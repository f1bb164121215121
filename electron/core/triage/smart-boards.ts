/**
 * Smart boards: saved filters, by name (shared/domain/smart-board.ts for the rules). Names and
 * rules are checked here for every front, each refusal a sentence (a {@link TriageError}); the
 * check of a name against the others and the write are one transaction (smart-board-rows.ts), so
 * two processes cannot make two boards of one name.
 *
 * A smart board whose rules name a tag or board that is gone still opens: {@link SmartBoards.list}
 * and {@link SmartBoards.get} say which rules (`report`), and the query matches what those rules
 * match, nothing. A stored row whose rules cannot be read is listed with a sentence and matches
 * nothing. Smart boards are kept in the history alone (no sidecar, no archive carries them).
 */
import {
  checkSmartRules,
  isGroup,
  MAX_SMART_BOARDS,
  reportRules,
  type NamesInUse,
  type SmartBoardEntry,
  type SmartRule,
  type SmartRules,
} from '../../../shared/domain/smart-board';
import { boardKey, checkSmartBoardName, foldName } from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import type { HistoryTriage, SmartBoardRow } from '../history';
import type { ClosingGate } from '../base';
import { TriageError } from './triage-error';

export interface SmartBoardsDeps {
  readonly triage: HistoryTriage;
  readonly now: () => number;
  /** A new board's id; default a random UUID. */
  readonly newId?: () => string;
  /**
   * The core's closing gate: a smart board saved, renamed, changed or deleted once the close has
   * begun is refused with its sentence, nothing written; absent: never refused.
   */
  readonly gate?: Pick<ClosingGate, 'askNow'>;
}

/** A new board's id (node:crypto loaded when a board is made, not when this is). */
const newBoardId = (): string => process.getBuiltinModule('node:crypto').randomUUID();

/** Rules that match nothing: what a smart board whose stored rules cannot be read runs. */
const NOTHING: SmartRules = { match: 'any', items: [] };

export class SmartBoards {
  constructor(private readonly deps: SmartBoardsDeps) {}

  /** Every smart board, by name, each rule with what it names that is gone. */
  list(): SmartBoardEntry[] {
    const names = this.namesInUse();
    return this.deps.triage.smart.list().map((row) => entryOf(row, names));
  }

  /** The smart board named `name` (any case). @throws TriageError when there is none. */
  get(name: string): SmartBoardEntry {
    return entryOf(this.existing(name), this.namesInUse());
  }

  /**
   * The rules to list the board's images with (`ImageQuery.smart`): rules that match nothing when
   * its stored ones cannot be read. @throws TriageError when there is no such board.
   */
  rulesOf(name: string): SmartRules {
    return this.get(name).rules ?? NOTHING;
  }

  /**
   * Saves `rules` (from any front: checked here) as a new smart board.
   * @throws TriageError for a bad name or rules, a name taken, or too many smart boards.
   */
  create(name: string, rules: unknown): SmartBoardEntry {
    const named = this.checkedName(name);
    const checked = this.checkedRules(rules);
    const row: SmartBoardRow = {
      id: (this.deps.newId ?? newBoardId)(),
      name: named.name,
      rules: JSON.stringify(checked),
      createdAt: this.deps.now(),
    };
    this.change((rows) => {
      if (rows.length >= MAX_SMART_BOARDS) {
        throw new TriageError(
          sentence('error.triage.tooManySmartBoards', { max: MAX_SMART_BOARDS }),
        );
      }
      refuseTaken(rows, named.key, null);
      return { kind: 'insert', row };
    });
    return entryOf(row, this.namesInUse());
  }

  /** Renames a smart board. @throws TriageError for no such board, a bad name or a name taken. */
  rename(name: string, newName: string): SmartBoardEntry {
    const named = this.checkedName(newName);
    return this.edit(name, (row, rows) => {
      refuseTaken(rows, named.key, row.id);
      return { ...row, name: named.name };
    });
  }

  /** Replaces a smart board's rules. @throws TriageError for no such board or bad rules. */
  update(name: string, rules: unknown): SmartBoardEntry {
    const text = JSON.stringify(this.checkedRules(rules));
    return this.edit(name, (row) => ({ ...row, rules: text }));
  }

  /** Deletes a smart board (no image changes). @throws TriageError when there is none. */
  delete(name: string): void {
    this.change((rows) => ({ kind: 'delete', id: found(rows, name).id }));
  }

  /** The one write of every change (HistoryTriage's), refused once the core's close has begun. */
  private change(...change: Parameters<HistoryTriage['smart']['change']>): void {
    const write = () => this.deps.triage.smart.change(...change);
    if (this.deps.gate) this.deps.gate.askNow(write);
    else write();
  }

  /** The row named `name` changed by `change`, in one write. */
  private edit(
    name: string,
    change: (row: SmartBoardRow, rows: readonly SmartBoardRow[]) => SmartBoardRow,
  ): SmartBoardEntry {
    let changed: SmartBoardRow | undefined;
    this.change((rows) => {
      changed = change(found(rows, name), rows);
      return { kind: 'update', id: changed.id, name: changed.name, rules: changed.rules };
    });
    return entryOf(changed as SmartBoardRow, this.namesInUse());
  }

  private existing(name: string): SmartBoardRow {
    return found(this.deps.triage.smart.list(), name);
  }

  private checkedName(raw: string) {
    const checked = checkSmartBoardName(raw);
    if (!checked.ok) throw new TriageError(checked.problem);
    return checked;
  }

  /** The rules checked; a board rule names an existing board by its path as stored. */
  private checkedRules(raw: unknown): SmartRules {
    const checked = checkSmartRules(raw);
    if (!checked.ok) throw new TriageError(checked.problem);
    const { triage } = this.deps;
    const stored = (rule: SmartRule): SmartRule =>
      rule.kind === 'board'
        ? { ...rule, board: triage.boardPath(boardKey(rule.board)) ?? rule.board }
        : rule;
    const items = checked.rules.items.map((item) =>
      isGroup(item) ? { ...item, rules: item.rules.map(stored) } : stored(item),
    );
    return { ...checked.rules, items };
  }

  /** The library's boards and tags as the rules' report asks about them (each looked up once). */
  private namesInUse(): NamesInUse {
    const { triage } = this.deps;
    const boards = new Map<string, boolean>();
    const tags = new Map<string, boolean>();
    const once = (cache: Map<string, boolean>, key: string, look: () => boolean): boolean => {
      const known = cache.get(key);
      if (known !== undefined) return known;
      const value = look();
      cache.set(key, value);
      return value;
    };
    return {
      board: (path) =>
        once(boards, boardKey(path), () => triage.boardPath(boardKey(path)) !== null),
      tag: (tag) => once(tags, foldName(tag), () => triage.hasTag(foldName(tag))),
    };
  }
}

/** The row named `name` (any case). @throws TriageError when there is none. */
function found(rows: readonly SmartBoardRow[], name: string): SmartBoardRow {
  const key = foldName(name.normalize('NFC').trim());
  const row = rows.find((candidate) => foldName(candidate.name) === key);
  if (!row) throw new TriageError(sentence('error.triage.smartNotFound', { name }), 'not_found');
  return row;
}

/** @throws TriageError when a smart board other than `self` has the name whose key is `key`. */
function refuseTaken(rows: readonly SmartBoardRow[], key: string, self: string | null): void {
  const taken = rows.find((row) => row.id !== self && foldName(row.name) === key);
  if (taken) throw new TriageError(sentence('error.triage.smartExists', { name: taken.name }));
}

/** A stored row as listed: its rules checked again, and reported against the library's names. */
function entryOf(row: SmartBoardRow, names: NamesInUse): SmartBoardEntry {
  const base = { id: row.id, name: row.name, createdAt: row.createdAt };
  let raw: unknown;
  try {
    raw = JSON.parse(row.rules);
  } catch {
    raw = null;
  }
  const checked = checkSmartRules(raw);
  if (!checked.ok) {
    const problem = sentence('error.triage.smartRulesDamaged', { name: row.name });
    return { ...base, rules: null, report: null, problem };
  }
  return { ...base, rules: checked.rules, report: reportRules(checked.rules, names) };
}
