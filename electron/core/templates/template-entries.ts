/**
 * One entry of a template file, made a template: its name checked and made unique, its texts
 * bounded, the record checked by the schema every stored template passes. An entry that fails is
 * a problem with a sentence, never a template: the others still import.
 *
 * Names: an entry whose name is already taken (by a template the library has, or by an earlier
 * entry of the same file; whatever the case, shared/domain/triage.ts `foldName`) is imported
 * under the first free name of "Name (2)", "Name (3)"…, shortened to fit the name's limit, and
 * the rename is reported: nothing the user had is overwritten, and nothing in the file is lost.
 */
import { randomUUID } from 'node:crypto';
import {
  checkTemplateName,
  codePoints,
  MAX_TEMPLATE_NAME_CHARS,
  MAX_TEMPLATE_TEXT_CHARS,
  promptTemplateSchema,
  type PromptTemplate,
} from '../../../shared/domain/prompt-template';
import { foldName } from '../../../shared/domain/triage';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';

/**
 * Why a template's texts (its body, its negative) are refused for their length: the first one
 * past {@link MAX_TEMPLATE_TEXT_CHARS}, or null when none is.
 */
export function textTooLong(texts: readonly string[]): Sentence | null {
  for (const text of texts) {
    const count = codePoints(text);
    const max = MAX_TEMPLATE_TEXT_CHARS;
    if (count > max) return sentence('error.templateFile.textTooLong', { max, count });
  }
  return null;
}

/** Where an entry sits in its file: a CSV line (1-based), or a JSON list's index (0-based). */
export interface EntryPlace {
  readonly line?: number;
  readonly index?: number;
}

/** A problem of one entry of a file, with where it is. */
export interface TemplateImportProblem extends EntryPlace {
  readonly problem: Sentence;
}

/** An entry as a file's format gives it, its texts in Pictor's template language. */
export interface TemplateEntry {
  readonly place: EntryPlace;
  readonly name: string;
  readonly body: string;
  readonly negative?: string | undefined;
  readonly presets?: unknown;
  readonly createdAt?: number | undefined;
}

/** What an import is made with: the names the library has, the time, new ids. */
export interface TemplateImportOptions {
  readonly existingNames: readonly string[];
  readonly now: number;
  /** Default `crypto.randomUUID`. */
  readonly newId?: () => string;
}

/**
 * The first of "name (2)", "name (3)"… that no name in `taken` folds to, from `from` on (the
 * number after the last one this name was given: a file of 10,000 entries of one name costs one
 * try each, not 10,000).
 */
function freeName(name: string, taken: ReadonlySet<string>, from: number): [string, number] {
  for (let number = from; ; number += 1) {
    const suffix = ` (${number})`;
    const room = MAX_TEMPLATE_NAME_CHARS - suffix.length;
    const base = [...name].slice(0, room).join('').trimEnd();
    const candidate = `${base}${suffix}`;
    if (!taken.has(foldName(candidate))) return [candidate, number];
  }
}

/** Makes a file's entries templates, one at a time, in the file's order. */
export class TemplateEntries {
  readonly templates: PromptTemplate[] = [];
  readonly problems: TemplateImportProblem[] = [];
  private readonly taken: Set<string>;
  /** By a taken name's key, the number its next " (N)" starts trying from. */
  private readonly nextNumber = new Map<string, number>();
  private readonly newId: () => string;

  constructor(private readonly options: TemplateImportOptions) {
    this.taken = new Set(options.existingNames.map((name) => foldName(name)));
    this.newId = options.newId ?? randomUUID;
  }

  private renamed(name: string, key: string): string {
    const [free, number] = freeName(name, this.taken, this.nextNumber.get(key) ?? 2);
    this.nextNumber.set(key, number + 1);
    return free;
  }

  /** A problem of the entry at `place`; the entry is not imported. */
  report(place: EntryPlace, problem: Sentence): void {
    this.problems.push({ ...place, problem });
  }

  add(entry: TemplateEntry): void {
    const checked = checkTemplateName(entry.name);
    if (!checked.ok) return this.report(entry.place, checked.problem);
    const tooLong = textTooLong([entry.body, entry.negative ?? '']);
    if (tooLong) return this.report(entry.place, tooLong);
    const name = this.taken.has(checked.key)
      ? this.renamed(checked.name, checked.key)
      : checked.name;
    const parsed = promptTemplateSchema().safeParse({
      id: this.newId(),
      name,
      body: entry.body,
      ...(entry.negative === undefined ? {} : { negative: entry.negative }),
      ...(entry.presets === undefined ? {} : { presets: entry.presets }),
      version: 1,
      createdAt: entry.createdAt ?? this.options.now,
      updatedAt: this.options.now,
    });
    if (!parsed.success)
      return this.report(entry.place, sentence('error.templateFile.entryInvalid'));
    this.taken.add(foldName(name));
    this.templates.push(parsed.data);
    if (name !== checked.name) {
      const renamed = sentence('error.templateFile.renamed', { name: checked.name, renamed: name });
      this.report(entry.place, renamed);
    }
  }
}
