/**
 * Template files: Pictor's own, and the style files of Fooocus, AUTOMATIC1111 and InvokeAI, read
 * into templates and written from them. Pure functions over bytes and text, and a thin read and
 * write of the file itself.
 *
 * - Pictor: `{ "format": "pictor-templates", "schemaVersion": 1, "templates": [...] }`, written
 *   pretty. A file of a newer schema version is refused with a sentence.
 * - Fooocus (sdxl_styles/*.json): `[{ "name", "prompt", "negative_prompt" }]`.
 * - A1111 (styles.csv): the columns `name`, `prompt` (`text` in old files) and `negative_prompt`,
 *   read as csv-rows.ts says; other columns are ignored. A cell that starts with apostrophes and
 *   then `=`, `+`, `-`, `@`, a tab or a CR loses one apostrophe: the one Pictor's export adds so
 *   that a spreadsheet does not run it (core/base/csv-cell.ts).
 * - InvokeAI: its import takes a JSON list of `{ name, prompt | positive_prompt, negative_prompt }`
 *   or a CSV of those columns, and its export is that CSV (`StylePresetImportRow`,
 *   `parse_presets_from_file` in invokeai/app/services/style_preset_records/
 *   style_preset_records_common.py; `export_style_presets` in invokeai/app/api/routers/
 *   style_presets.py); its own default presets are `{ name, preset_data: { positive_prompt,
 *   negative_prompt } }`, read too. The CSV header is A1111's, so the format is the caller's
 *   choice, never a guess: `[prompt]` is InvokeAI's placeholder, `{prompt}` A1111's.
 *
 * Foreign prompts are converted as foreign-text.ts says. Limits, structural before any parse: a
 * file of at most {@link MAX_TEMPLATE_FILE_BYTES} (refused before more is read), at most
 * {@link MAX_TEMPLATES_PER_FILE} entries. What fails the whole file throws a user-facing error
 * (`bad_input`) with a sentence; a bad entry is reported with its place (a CSV line, or a JSON
 * list's index) and skipped, the good ones import. Nothing read is evaluated: JSON is parsed as
 * data and each entry picked apart by a schema into new objects, so a `__proto__` key is a key.
 */
import { constants, open } from 'node:fs/promises';
import { z } from 'zod';
import { type PromptTemplate } from '../../../shared/domain/prompt-template';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';
import { readAtMostOneMore, replaceFileBeside } from '../fs';
import { readCsvCell } from '../base';
import { readCsv, type CsvRecord } from './csv-rows';
import {
  A1111,
  bodyFromForeign,
  FOOOCUS,
  INVOKEAI,
  negativeFromForeign,
  type ForeignDialect,
} from './foreign-text';
import { PICTOR_TEMPLATES_FORMAT, TEMPLATES_SCHEMA_VERSION } from './template-export';
import {
  TemplateEntries,
  type TemplateImportOptions,
  type TemplateImportProblem,
} from './template-entries';

export const MAX_TEMPLATE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_TEMPLATES_PER_FILE = 10_000;

/** The formats a template file may be in. */
export type TemplateFileFormat = 'pictor' | 'fooocus' | 'a1111' | 'invokeai';

/**
 * How a template file is read: in a format, or `json`, a JSON file of either kind: Pictor's when
 * its head names Pictor's format, else a Fooocus style list (a `.json` file given no format). The
 * kind is told from the one parse the import makes.
 */
export type TemplateFileReading = TemplateFileFormat | 'json';

/**
 * What an import gives: the templates to keep, each entry's problem (skipped or renamed), and the
 * format the file was read as.
 */
export interface TemplateImport {
  readonly templates: PromptTemplate[];
  readonly problems: TemplateImportProblem[];
  readonly format: TemplateFileFormat;
}

function refuse(problem: Sentence, detail?: string): UserFacingError {
  return new UserFacingError(problem, { code: 'bad_input', ...(detail ? { detail } : {}) });
}

function decode(bytes: Uint8Array): string {
  if (bytes.length > MAX_TEMPLATE_FILE_BYTES) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse(sentence('error.templateFile.notUtf8'));
  }
  if (text.trim() === '') throw refuse(sentence('error.templateFile.empty'));
  return text;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw refuse(sentence('error.templateFile.notJson'), String(error));
  }
}

function tooMany(): UserFacingError {
  return refuse(sentence('error.templateFile.tooMany', { max: MAX_TEMPLATES_PER_FILE }));
}

const text = z.string();
const pictorHead = z.object({
  format: z.literal(PICTOR_TEMPLATES_FORMAT),
  schemaVersion: z.number().int().min(1),
  templates: z.array(z.unknown()),
});
const pictorEntry = z.object({
  name: text,
  body: text,
  negative: text.optional(),
  presets: z.unknown().optional(),
  createdAt: z.number().optional().catch(undefined),
});

function readPictor(value: unknown, entries: TemplateEntries): void {
  const head = pictorHead.safeParse(value);
  if (!head.success) throw refuse(sentence('error.templateFile.notPictor'));
  const { schemaVersion, templates } = head.data;
  if (schemaVersion > TEMPLATES_SCHEMA_VERSION) {
    throw refuse(sentence('error.templateFile.newerVersion', { version: schemaVersion }));
  }
  if (templates.length > MAX_TEMPLATES_PER_FILE) throw tooMany();
  templates.forEach((raw, index) => {
    const entry = pictorEntry.safeParse(raw);
    if (!entry.success)
      return entries.report({ index }, sentence('error.templateFile.entryInvalid'));
    entries.add({ place: { index }, ...entry.data });
  });
}

const styleEntry = z.object({
  name: text,
  prompt: text.optional(),
  positive_prompt: text.optional(),
  negative_prompt: text.optional(),
  preset_data: z.object({ positive_prompt: text, negative_prompt: text.optional() }).optional(),
});

/** A foreign style, its prompts converted from `dialect`. */
function addStyle(
  entries: TemplateEntries,
  style: { name: string; prompt: string; negative: string },
  place: { line?: number; index?: number },
  dialect: ForeignDialect,
): void {
  entries.add({
    place,
    name: style.name,
    body: bodyFromForeign(style.prompt, dialect),
    negative: negativeFromForeign(style.negative, dialect),
  });
}

function readStyleList(value: unknown, entries: TemplateEntries, dialect: ForeignDialect): void {
  if (!Array.isArray(value)) throw refuse(sentence('error.templateFile.notList'));
  if (value.length > MAX_TEMPLATES_PER_FILE) throw tooMany();
  value.forEach((raw: unknown, index) => {
    const parsed = styleEntry.safeParse(raw);
    if (!parsed.success)
      return entries.report({ index }, sentence('error.templateFile.entryInvalid'));
    const style = parsed.data;
    const data = dialect === INVOKEAI ? style.preset_data : undefined;
    const prompt = style.prompt ?? (dialect === INVOKEAI ? style.positive_prompt : undefined);
    const negative = data?.negative_prompt ?? style.negative_prompt ?? '';
    addStyle(
      entries,
      { name: style.name, prompt: prompt ?? data?.positive_prompt ?? '', negative },
      { index },
      dialect,
    );
  });
}

/** The index of the first of `names` among the header's columns (trimmed, any case), or -1. */
function column(header: readonly string[], names: readonly string[]): number {
  const folded = header.map((name) => name.trim().toLowerCase());
  const found = names.map((name) => folded.indexOf(name)).find((at) => at >= 0);
  return found ?? -1;
}

/** Where a CSV's styles are: the columns of its name, prompt and negative prompt (-1: none). */
function styleColumns(header: CsvRecord | undefined, dialect: ForeignDialect) {
  const promptNames = dialect === INVOKEAI ? ['prompt', 'positive_prompt'] : ['prompt', 'text'];
  const fields = header?.fields ?? [];
  const columns = {
    name: column(fields, ['name']),
    prompt: column(fields, promptNames),
    negative: column(fields, ['negative_prompt']),
  };
  if (columns.name < 0 || columns.prompt < 0) {
    throw refuse(sentence('error.templateFile.csvHeader'));
  }
  return columns;
}

function readStyleCsv(source: string, entries: TemplateEntries, dialect: ForeignDialect): void {
  const read = readCsv(source, MAX_TEMPLATES_PER_FILE + 1);
  if (read.overflow) throw tooMany();
  const [header, ...rows] = read.records;
  const columns = styleColumns(header, dialect);
  // The apostrophe Pictor's export puts before a cell a spreadsheet would run as a formula is
  // taken off again (csv-cell.ts), so an exported style imports as it was.
  const pick = (fields: readonly string[], at: number) =>
    at < 0 ? '' : readCsvCell(fields[at] ?? '');
  const damaged = new Set(read.afterQuote);
  const lines = [...rows.map((row) => row.line), ...read.afterQuote].sort((a, b) => a - b);
  const byLine = new Map(rows.map((row) => [row.line, row.fields]));
  for (const line of lines) {
    const fields = byLine.get(line);
    if (damaged.has(line) || !fields) {
      entries.report({ line }, sentence('error.templateFile.csvAfterQuote'));
      continue;
    }
    const name = pick(fields, columns.name);
    const style = {
      name,
      prompt: pick(fields, columns.prompt),
      negative: pick(fields, columns.negative),
    };
    addStyle(entries, style, { line }, dialect);
  }
  if (read.unclosedQuoteAt !== undefined) {
    const line = read.unclosedQuoteAt;
    entries.report({ line }, sentence('error.templateFile.csvQuote', { line }));
  }
}

/**
 * The templates of a file's `bytes` in `format` (see the file's comment), named apart from
 * `options.existingNames` and from one another.
 * @throws UserFacingError (`bad_input`) when the file as a whole cannot be read.
 */
export function importTemplates(
  bytes: Uint8Array,
  format: TemplateFileReading,
  options: TemplateImportOptions,
): TemplateImport {
  const entries = new TemplateEntries(options);
  const source = decode(bytes);
  const imported = (read: TemplateFileFormat): TemplateImport => ({
    templates: entries.templates,
    problems: entries.problems,
    format: read,
  });
  if (format !== 'json') {
    READERS[format](source, entries);
    return imported(format);
  }
  // The one parse tells the kind and is read.
  const value = parseJson(source);
  const pictor =
    typeof value === 'object' &&
    value !== null &&
    'format' in value &&
    value.format === PICTOR_TEMPLATES_FORMAT;
  if (pictor) readPictor(value, entries);
  else readStyleList(value, entries, FOOOCUS);
  return imported(pictor ? 'pictor' : 'fooocus');
}

/** How each format's text is read into entries. */
const READERS: Readonly<
  Record<TemplateFileFormat, (source: string, into: TemplateEntries) => void>
> = {
  pictor: (source, into) => readPictor(parseJson(source), into),
  fooocus: (source, into) => readStyleList(parseJson(source), into, FOOOCUS),
  a1111: (source, into) => readStyleCsv(source, into, A1111),
  // InvokeAI writes its styles as JSON or as CSV.
  invokeai: (source, into) =>
    /^\s*[[{]/.test(source)
      ? readStyleList(parseJson(source), into, INVOKEAI)
      : readStyleCsv(source, into, INVOKEAI),
};

function tooLarge(): UserFacingError {
  const max = MAX_TEMPLATE_FILE_BYTES / (1024 * 1024);
  return refuse(sentence('error.templateFile.tooLarge', { max }));
}

/**
 * The bytes of the template file at `path` (a path main chose, from its own dialog or the
 * command line): only a regular file, refused when larger than {@link MAX_TEMPLATE_FILE_BYTES}
 * before anything is read, and never more than one byte past the limit read, whatever the file
 * does meanwhile. Opened non-blocking, so a FIFO is refused, not waited on.
 * @throws UserFacingError when it is not a file or too large; a file system error.
 */
export async function readTemplateFile(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw refuse(sentence('error.templateFile.notAFile'));
    if (stats.size > MAX_TEMPLATE_FILE_BYTES) throw tooLarge();
    const bytes = await readAtMostOneMore(handle, MAX_TEMPLATE_FILE_BYTES);
    if (bytes.length > MAX_TEMPLATE_FILE_BYTES) throw tooLarge();
    return bytes;
  } finally {
    await handle.close();
  }
}

/** Writes an export's text to `path`, replacing what was there only once it is whole. */
export async function writeTemplateFile(path: string, contents: string): Promise<void> {
  await replaceFileBeside(path, contents);
}
