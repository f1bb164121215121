/**
 * `pictor template …` (template-args.ts parses it) on the core's templates and word lists
 * (electron/core/templates/template-store.ts): the same checks and sentences as the window's. A
 * refusal (a bad body names its line and column, a taken name, a file that is not a template
 * file) is said on stderr with exit 2; an import's problems are said one per line with the line
 * (CSV) or entry (JSON list, from 1) they come from. An export file that cannot be written (its
 * folder missing, the disk full or read-only) is the core's sentence naming it and why, exit 5 (a
 * disk refused the write), as `pictor export` says of its archive. Everything printed is
 * terminal-safe.
 */
import { extname } from 'node:path';
import type { StoredTemplate } from '../../shared/domain/template-library';
import {
  parseTemplate,
  templateLists,
  templateVariables,
} from '../../shared/domain/template-language';
import { englishText, type Sentence } from '../../shared/i18n/sentence';
import { messageOf, UserFacingError } from '../core/errors';
import { ChosenFileNotSavedError } from '../core/fs';
import type { PictorCore } from '../core/pictor-core';
import {
  readTemplateFile,
  type TemplateFileFormat,
  type TemplateFileReading,
} from '../core/templates';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import type { ExportFormat, TemplateAction, TemplateCommandLine } from './template-args';
import { jsonSafe, terminalSafe } from './terminal-text';
import { quotedOr } from '../core/command-line';

/** Fields made terminal-safe each, then joined by tabs. */
const say = (io: CliIo, ...fields: string[]) =>
  io.stdout(`${fields.map((field) => terminalSafe(field)).join('\t')}\n`);
const json = (io: CliIo, value: unknown) => io.stdout(`${jsonSafe(JSON.stringify(value))}\n`);

/**
 * Runs the action: exit 0, 2 with the sentence of what was refused, or 5 with the sentence of an
 * export file that could not be written.
 */
export async function templateCommand(
  core: PictorCore,
  command: TemplateCommandLine,
  io: CliIo,
): Promise<number> {
  try {
    return await run(core, command.action, io, command.json);
  } catch (error) {
    if (error instanceof ChosenFileNotSavedError) {
      io.stderr(`${terminalSafe(error.message)}\n`);
      return EXIT.library;
    }
    if (error instanceof UserFacingError && error.code !== 'failed') {
      io.stderr(`${terminalSafe(error.message)}\n`);
      return EXIT.usage;
    }
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (!/^E[A-Z]+$/.test(code)) throw error;
    io.stderr(`${terminalSafe(`Cannot use that file: ${messageOf(error)}`)}\n`);
    return EXIT.usage;
  }
}

async function run(
  core: PictorCore,
  action: TemplateAction,
  io: CliIo,
  asJson: boolean,
): Promise<number> {
  const { templates } = core;
  switch (action.kind) {
    case 'ls':
      for (const stored of templates.list()) {
        if (asJson) json(io, jsonOf(stored));
        else say(io, ...lineOf(stored));
      }
      return EXIT.ok;
    case 'show':
      return show(core, action.name, io, asJson);
    case 'add':
      return add(core, action, io);
    case 'rm': {
      const stored = templates.byName(action.name);
      if (!stored)
        return refused(io, `There is no template ${quotedOr(action.name, 'by the name given')}.`);
      await templates.remove(stored.id);
      say(io, `Deleted the template ${nameOf(stored)}.`);
      return EXIT.ok;
    }
    case 'import':
      return importFile(core, action, io);
    case 'export':
      return exportFile(core, action, io);
    case 'lists':
      for (const [name, words] of templates.wordLists()) {
        if (asJson) json(io, { name, words });
        else say(io, name, `${words.length} word(s)`);
      }
      return EXIT.ok;
    case 'list-set': {
      const words = decodeText(await readTemplateFile(action.file)).split(/\r?\n/);
      const list = await templates.saveWordList(action.name, words);
      say(io, `Saved the word list ${list.name}: ${list.words.length} word(s).`);
      return EXIT.ok;
    }
    case 'list-rm':
      await templates.removeWordList(action.name);
      say(io, `Deleted the word list ${action.name}.`);
      return EXIT.ok;
  }
}

function refused(io: CliIo, text: string): number {
  io.stderr(`${terminalSafe(text)}\n`);
  return EXIT.usage;
}

function nameOf(stored: StoredTemplate): string {
  return stored.template ? stored.template.name : stored.name;
}

function lineOf(stored: StoredTemplate): string[] {
  if (!stored.template) return [stored.name, `(cannot be read: ${englishText(stored.problem)})`];
  const { name, version, body } = stored.template;
  const oneLine = body.replace(/\s+/g, ' ');
  const shown = oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
  return [name, `v${version}`, shown];
}

function jsonOf(stored: StoredTemplate) {
  if (!stored.template) {
    return { id: stored.id, name: stored.name, problem: englishText(stored.problem) };
  }
  const { id, name, version, body, negative, createdAt, updatedAt } = stored.template;
  return { id, name, version, body, negative: negative ?? null, createdAt, updatedAt };
}

function show(core: PictorCore, name: string, io: CliIo, asJson: boolean): number {
  const stored = core.templates.byName(name);
  if (!stored) return refused(io, `There is no template ${quotedOr(name, 'by the name given')}.`);
  if (!stored.template) return refused(io, englishText(stored.problem));
  const parsed = parseTemplate(stored.template.body);
  const variables = parsed.ok ? templateVariables(parsed.template) : [];
  const lists = parsed.ok ? templateLists(parsed.template) : [];
  if (asJson) {
    json(io, { ...jsonOf(stored), variables, lists });
    return EXIT.ok;
  }
  const { template } = stored;
  say(io, `Name: ${template.name} (version ${template.version})`);
  say(io, `Id: ${template.id}`);
  say(io, `Body: ${template.body}`);
  if (template.negative) say(io, `Negative: ${template.negative}`);
  for (const variable of variables) {
    const fallback =
      variable.defaultValue === undefined ? '' : ` (default: ${variable.defaultValue})`;
    say(io, `Variable: ${variable.name}${fallback}`);
  }
  for (const list of lists) say(io, `Word list: ${list}`);
  return EXIT.ok;
}

async function add(
  core: PictorCore,
  action: TemplateAction & { kind: 'add' },
  io: CliIo,
): Promise<number> {
  const body =
    'text' in action.body
      ? action.body.text
      : decodeText(await readTemplateFile(action.body.file)).replace(/\r?\n$/, '');
  const existing = core.templates.byName(action.name);
  const saved = await core.templates.save({
    name: existing?.template?.name ?? action.name,
    body,
    negative: action.negative ?? existing?.template?.negative,
    presets: existing?.template?.presets,
    ...(existing ? { id: existing.id } : {}),
  });
  const what = saved.version === 1 ? 'Added' : `Updated (version ${saved.version})`;
  say(io, `${what} the template ${saved.name}.`);
  return EXIT.ok;
}

function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserFacingError('The file is not UTF-8 text. Save it as UTF-8 and try again.', {
      code: 'bad_input',
    });
  }
}

/**
 * How an import reads its file: the format given, or guessed from the file's name (a `.json`
 * file's kind is told by its head, on the import's one read: template-files.ts).
 */
function importReading(file: string, given: TemplateFileFormat | null): TemplateFileReading {
  if (given) return given;
  const extension = extname(file).toLowerCase();
  if (extension === '.csv') return 'a1111';
  if (extension === '.json') return 'json';
  throw unguessed();
}

function unguessed(): UserFacingError {
  return new UserFacingError(
    'Pictor cannot tell the file’s format from its name: give --format pictor, fooocus, a1111 or invokeai.',
    { code: 'bad_input' },
  );
}

function where(problem: { line?: number; index?: number; name?: string }): string {
  if (problem.line !== undefined) return `line ${problem.line}`;
  if (problem.index !== undefined) return `entry ${problem.index + 1}`;
  return problem.name ?? '';
}

async function importFile(
  core: PictorCore,
  action: TemplateAction & { kind: 'import' },
  io: CliIo,
): Promise<number> {
  const summary = await core.templates.importFile(
    action.file,
    importReading(action.file, action.format),
  );
  if (!action.format) {
    io.stderr(`Read the file as ${summary.format} (guessed from its name; --format to choose).\n`);
  }
  for (const problem of summary.problems) {
    io.stderr(
      `${terminalSafe(`${where(problem)}: ${englishText(problem.problem as Sentence)}`)}\n`,
    );
  }
  say(io, `Imported ${summary.imported} template(s).`);
  return EXIT.ok;
}

async function exportFile(
  core: PictorCore,
  action: TemplateAction & { kind: 'export' },
  io: CliIo,
): Promise<number> {
  const extension = extname(action.file).toLowerCase();
  const format: ExportFormat = action.format ?? (extension === '.csv' ? 'a1111' : 'pictor');
  if (!action.format)
    io.stderr(`Writing the file as ${format} (guessed from its name; --format to choose).\n`);
  const ids: string[] = [];
  for (const name of action.names) {
    const stored = core.templates.byName(name);
    if (!stored) return refused(io, `There is no template ${quotedOr(name, 'by the name given')}.`);
    ids.push(stored.id);
  }
  const summary = await core.templates.exportFile(
    action.file,
    format,
    action.names.length > 0 ? ids : undefined,
  );
  for (const problem of summary.problems)
    io.stderr(`${terminalSafe(englishText(problem.problem))}\n`);
  say(io, `Wrote ${summary.count} template(s) to the file.`);
  return EXIT.ok;
}
