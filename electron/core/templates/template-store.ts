/**
 * The library's prompt templates and word lists, for every front (the window over IPC, the CLI):
 * each change checked here and written in one history transaction (history/template-rows.ts), in
 * which the rows are read under the write lock, so two processes never make two templates of one
 * name, and a save that names the version it edited is refused when someone else saved since:
 * two windows, or a window and the CLI, never overwrite each other's change in silence.
 *
 * A template's body must parse (shared/domain/template-language.ts: the parser's sentence names
 * its line and column). What the history holds is checked again on every read: a row edited by
 * hand is listed with a sentence, never used. Names are unique whatever their case (`foldName`);
 * a word list is found by its name as written (`__Name__` in a body), and no two lists' names
 * differ only by case. Limits: {@link MAX_LIBRARY_TEMPLATES} templates, and the word lists'
 * (shared/domain/word-lists.ts).
 *
 * After every change the whole set is copied into the library folder (template-backup.ts), which
 * a rebuild of the history restores from ({@link TemplateStore.restoreBackup}).
 */
import { randomUUID } from 'node:crypto';
import {
  checkTemplateName,
  MAX_TEMPLATE_NAME_CHARS,
  promptTemplateSchema,
  type PromptTemplate,
} from '../../../shared/domain/prompt-template';
import {
  MAX_LIBRARY_TEMPLATES,
  type StoredTemplate,
} from '../../../shared/domain/template-library';
import { parseTemplate } from '../../../shared/domain/template-language';
import { cleanName } from '../../../shared/text/shown-name';
import { foldName, type NameCheck } from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import type { TemplateRow, TemplateRows, TemplateWrite } from '../history';
import type { ClosingGate } from '../base';
import type { TemplateBackup, TemplateSet } from './template-backup';
import { TemplateStoreError } from './template-error';
import { WordLists } from './word-list-store';
import { checkWordList, type WordList } from '../../../shared/domain/word-lists';
import type { Sentence } from '../../../shared/i18n/sentence';
import {
  importTemplates,
  readTemplateFile,
  writeTemplateFile,
  type TemplateFileFormat,
  type TemplateFileReading,
} from './template-files';
import {
  exportTemplates,
  type TemplateExportFormat,
  type TemplateExportProblem,
} from './template-export';
import { textTooLong, type TemplateImportProblem } from './template-entries';

/** A template as a front asks to save it. With `id`, that template is changed; without, one is made. */
export interface TemplateInput {
  readonly name: string;
  readonly body: string;
  readonly negative?: string | undefined;
  readonly presets?: unknown;
  readonly id?: string | undefined;
  /** The version the front edited: refused when the stored one is another. */
  readonly version?: number | undefined;
}

/**
 * What an import did: how many templates it added, each entry it skipped or renamed, and the
 * format the file was read as.
 */
export interface TemplateImportSummary {
  readonly imported: number;
  readonly format: TemplateFileFormat;
  readonly problems: readonly (
    TemplateImportProblem | { readonly name: string; readonly problem: Sentence }
  )[];
}

/** What an export wrote, and each template the format could not hold whole. */
export interface TemplateExportSummary {
  readonly count: number;
  readonly problems: readonly TemplateExportProblem[];
}

export interface TemplateStoreDeps {
  readonly rows: TemplateRows;
  readonly now: () => number;
  /** A new template's id; default a random UUID. */
  readonly newId?: () => string;
  /** The copy in the library folder; none in tests that do not need one. */
  readonly backup?: TemplateBackup;
  /**
   * The core's closing gate: a template or word list saved, deleted, imported or exported once
   * the close has begun is refused with its sentence, nothing written; absent: never refused.
   */
  readonly gate?: Pick<ClosingGate, 'ask' | 'askNow'>;
  /** Called inside an import's transaction before each template is written (tests' faults). */
  readonly beforeImportRow?: (index: number) => void;
}

/** A row read back and checked again (see the file's comment). */
function storedOf(row: TemplateRow): StoredTemplate {
  let raw: unknown = null;
  try {
    raw = JSON.parse(row.record);
  } catch {
    // Read as damaged below.
  }
  const parsed = promptTemplateSchema().safeParse(raw);
  const record = parsed.success ? parsed.data : null;
  const same = record?.id === row.id && record.name === row.name && record.version === row.version;
  if (record && same && parseTemplate(record.body).ok) return { id: row.id, template: record };
  // The row's name as read: its control, format and bidi characters taken out as every name read
  // back is (a hand-edited row is shown in the window and the terminal), else its id.
  const name = cleanName(row.name, MAX_TEMPLATE_NAME_CHARS) ?? row.id;
  const problem = sentence('error.templateStore.damaged', { name });
  return { id: row.id, name, template: null, problem };
}

function templateNotFound(name: string): TemplateStoreError {
  return new TemplateStoreError(sentence('error.templateStore.notFound', { name }), 'not_found');
}

export class TemplateStore {
  private readonly lists: WordLists;

  constructor(private readonly deps: TemplateStoreDeps) {
    this.lists = new WordLists(deps.rows, deps.now);
  }

  /** Every template, by name; a row that cannot be read with its sentence. */
  list(): StoredTemplate[] {
    return this.deps.rows.list().map(storedOf);
  }

  /** The template named `name`, whatever its case, or null. */
  byName(name: string): StoredTemplate | null {
    const row = this.deps.rows.byKey(foldName(name.normalize('NFC').trim()));
    return row ? storedOf(row) : null;
  }

  byId(id: string): StoredTemplate | null {
    const row = this.deps.rows.byId(id);
    return row ? storedOf(row) : null;
  }

  /**
   * Makes a template (version 1) or changes the one `input.id` names (its version one more).
   * @throws TemplateStoreError for a bad name, body or text, a name taken, a stale version, no
   * such template, or too many templates.
   */
  async save(input: TemplateInput): Promise<PromptTemplate> {
    const named = this.checkedName(input);
    checkTexts(input);
    const saved = this.change((write) => {
      const rows = write.templates();
      const stored = input.id === undefined ? null : this.edited(rows, input);
      if (!stored && rows.length >= MAX_LIBRARY_TEMPLATES) throw tooMany();
      const taken = rows.find((row) => row.id !== stored?.id && foldName(row.name) === named.key);
      if (taken)
        throw new TemplateStoreError(sentence('error.templateStore.exists', { name: taken.name }));
      const record = this.record({ ...input, name: named.name }, stored);
      write.put(rowOf(record), named.key);
      return record;
    });
    await this.backedUp();
    return saved;
  }

  /**
   * `input`'s name checked as given, unless it is the name the template `input.id` is stored
   * with: one from before the rule of what draws nothing (prompt-template.ts) is kept on a save.
   * @throws TemplateStoreError for a bad name.
   */
  private checkedName(input: TemplateInput): Extract<NameCheck, { ok: true }> {
    const read = checkTemplateName(input.name, false);
    const own = input.id === undefined ? undefined : this.deps.rows.byId(input.id)?.name;
    const named = read.ok && read.name === own ? read : checkTemplateName(input.name);
    if (!named.ok) throw new TemplateStoreError(named.problem);
    return named;
  }

  /** Renames the template `id`. @throws TemplateStoreError as {@link save} does. */
  async rename(id: string, name: string, version?: number): Promise<PromptTemplate> {
    const stored = this.byId(id);
    if (!stored?.template) throw templateNotFound(stored ? stored.name : id);
    const { body, negative, presets } = stored.template;
    return this.save({
      id,
      name,
      body,
      negative,
      presets,
      version: version ?? stored.template.version,
    });
  }

  /** Deletes the template `id`. @throws TemplateStoreError when there is none. */
  async remove(id: string): Promise<void> {
    this.change((write) => {
      if (!write.templates().some((row) => row.id === id)) throw templateNotFound(id);
      write.remove(id);
    });
    await this.backedUp();
  }

  /** Every good word list by its name: what a template expands with. */
  wordLists(): ReadonlyMap<string, readonly string[]> {
    return new Map(this.lists.list().map((list) => [list.name, list.words]));
  }

  /** Makes or replaces the word list `name`. @throws TemplateStoreError (word-lists.ts's rules). */
  async saveWordList(name: string, words: readonly string[]): Promise<WordList> {
    const list = this.asked(() => this.lists.save(name, words));
    await this.backedUp();
    return list;
  }

  /** Deletes the word list `name` (any case). @throws TemplateStoreError when there is none. */
  async removeWordList(name: string): Promise<void> {
    this.asked(() => this.lists.remove(name));
    await this.backedUp();
  }

  /**
   * Imports the template file at `path` (a path main chose) in `format` (or `json`: either JSON
   * kind, told by its head), read once: its templates named apart from the library's and from one
   * another, all written in one transaction or none; an entry
   * that cannot be read, or whose body does not parse, is reported and skipped.
   * @throws UserFacingError when the file as a whole cannot be read, or too many templates.
   */
  async importFile(path: string, format: TemplateFileReading): Promise<TemplateImportSummary> {
    const bytes = await readTemplateFile(path);
    const summary = this.change((write) => {
      const existingNames = write.templates().map((row) => row.name);
      const options = { existingNames, now: this.deps.now(), newId: this.newId() };
      const read = importTemplates(bytes, format, options);
      const problems: TemplateImportSummary['problems'][number][] = [...read.problems];
      const good = read.templates.filter((template) => {
        const parsed = parseTemplate(template.body);
        if (!parsed.ok) problems.push({ name: template.name, problem: parsed.error.sentence });
        return parsed.ok;
      });
      this.writeAll(good, write);
      return { imported: good.length, format: read.format, problems };
    });
    if (summary.imported > 0) await this.backedUp();
    return summary;
  }

  /**
   * Writes the templates (all, or those of `ids`, in the library's order) to `path` in `format`:
   * refused once the core's close has begun, nothing written; one asked before is waited for.
   * @throws TemplateStoreError for an id the library lacks; a file system error; the gate's
   *   refusal.
   */
  exportFile(
    path: string,
    format: TemplateExportFormat,
    ids?: readonly string[],
  ): Promise<TemplateExportSummary> {
    const run = () => this.exported(path, format, ids);
    return this.deps.gate ? this.deps.gate.ask(run) : run();
  }

  /** {@link exportFile}, let in by the gate. */
  private async exported(
    path: string,
    format: TemplateExportFormat,
    ids?: readonly string[],
  ): Promise<TemplateExportSummary> {
    const { templates } = this.snapshot();
    const wanted = ids === undefined ? null : new Set(ids);
    for (const id of wanted ?? []) {
      if (!templates.some((template) => template.id === id)) throw templateNotFound(id);
    }
    const chosen = wanted ? templates.filter((template) => wanted.has(template.id)) : templates;
    const made = exportTemplates(chosen, format);
    await writeTemplateFile(path, made.text);
    return { count: made.count, problems: made.problems };
  }

  /**
   * After a rebuild: adds what the library folder's copy holds and the history lacks (templates
   * whose id and name it has not, lists whose name it has not), in one transaction.
   */
  async restoreBackup(): Promise<{ templates: number; wordLists: number }> {
    const set = await this.deps.backup?.read();
    if (!set) return { templates: 0, wordLists: 0 };
    return this.deps.rows.change((write) => {
      const rows = write.templates();
      const ids = new Set(rows.map((row) => row.id));
      const keys = new Set(rows.map((row) => foldName(row.name)));
      const templates = set.templates.filter((template) => {
        const fresh = !ids.has(template.id) && !keys.has(foldName(template.name));
        keys.add(foldName(template.name));
        return fresh && parseTemplate(template.body).ok;
      });
      // Within the library's limit: what is past it is neither written nor counted.
      const kept = templates.slice(0, Math.max(0, MAX_LIBRARY_TEMPLATES - rows.length));
      this.writeAll(kept, write);
      const listKeys = new Set(write.wordLists().map((row) => row.key));
      let wordLists = 0;
      for (const stored of set.wordLists) {
        const checked = checkWordList(stored.name, stored.words);
        if (!checked.ok || listKeys.has(checked.key)) continue;
        listKeys.add(checked.key);
        this.lists.put(write, checked.list, checked.key);
        wordLists += 1;
      }
      return { templates: kept.length, wordLists };
    });
  }

  /** The whole set as the folder's copy holds it (damaged rows left out). */
  private snapshot(): TemplateSet {
    const templates = this.list().flatMap((stored) => (stored.template ? [stored.template] : []));
    return { templates, wordLists: this.lists.list() };
  }

  /** A user's change, unless the core's close has begun: then the gate's refusal, nothing run. */
  private asked<T>(change: () => T): T {
    return this.deps.gate ? this.deps.gate.askNow(change) : change();
  }

  /** A user's change of the rows in one transaction, through {@link asked}. */
  private change<T>(work: (write: TemplateWrite) => T): T {
    return this.asked(() => this.deps.rows.change(work));
  }

  private async backedUp(): Promise<void> {
    await this.deps.backup?.write(() => this.snapshot());
  }

  private newId(): () => string {
    return this.deps.newId ?? randomUUID;
  }

  /** Writes `templates` inside `write`: all of them, or (a limit, a fault) none. */
  private writeAll(templates: readonly PromptTemplate[], write: TemplateWrite): void {
    if (write.templates().length + templates.length > MAX_LIBRARY_TEMPLATES) throw tooMany();
    templates.forEach((template, index) => {
      this.deps.beforeImportRow?.(index);
      write.put(rowOf(template), foldName(template.name));
    });
  }

  /** The stored row `input.id` names, its version checked. */
  private edited(rows: readonly TemplateRow[], input: TemplateInput): TemplateRow {
    const row = rows.find((candidate) => candidate.id === input.id);
    if (!row) throw templateNotFound(input.name);
    if (input.version !== undefined && input.version !== row.version) {
      const params = { name: row.name, version: row.version };
      throw new TemplateStoreError(sentence('error.templateStore.stale', params));
    }
    return row;
  }

  private record(input: TemplateInput, stored: TemplateRow | null): PromptTemplate {
    const now = this.deps.now();
    const before = stored ? storedOf(stored).template : null;
    const parsed = promptTemplateSchema().safeParse({
      id: stored?.id ?? this.newId()(),
      name: input.name,
      body: input.body,
      ...(input.negative === undefined || input.negative === ''
        ? {}
        : { negative: input.negative }),
      ...(input.presets === undefined ? {} : { presets: input.presets }),
      version: stored ? stored.version + 1 : 1,
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    });
    if (!parsed.success) throw new TemplateStoreError(sentence('error.templateFile.entryInvalid'));
    return parsed.data;
  }
}

/** @throws TemplateStoreError for a text too long or a body that does not parse. */
function checkTexts(input: TemplateInput): void {
  const tooLong = textTooLong([input.body, input.negative ?? '']);
  if (tooLong) throw new TemplateStoreError(tooLong);
  const parsed = parseTemplate(input.body);
  if (!parsed.ok) throw new TemplateStoreError(parsed.error.sentence);
}

function tooMany(): TemplateStoreError {
  const max = MAX_LIBRARY_TEMPLATES;
  return new TemplateStoreError(sentence('error.templateStore.tooMany', { max }));
}

function rowOf(template: PromptTemplate): TemplateRow {
  return {
    id: template.id,
    name: template.name,
    record: JSON.stringify(template),
    version: template.version,
    updatedAt: template.updatedAt,
  };
}
