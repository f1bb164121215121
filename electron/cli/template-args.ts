/**
 * `pictor template …`'s command lines (template-commands.ts runs them): `ls`, `show NAME`,
 * `add NAME --body TEXT | --body-file F [--negative TEXT]`, `rm NAME`, `import FILE [--format F]`,
 * `export FILE [--format F] [NAME…]`, `lists`, `list-set NAME FILE` and `list-rm NAME`. A file's
 * format, when not given, is guessed from its name when the command runs (.csv: A1111's
 * styles.csv; .json: Pictor's own when it says so, else a Fooocus style list), and said.
 */
import { commandHelp } from './command-help';
import { resolve } from 'node:path';
import { UsageError } from '../core/command-line';
import type { TemplateFileFormat } from '../core/templates';
import type { CommonOptions } from './common-args';

export const TEMPLATE_HELP = {
  template: commandHelp(
    'template ls | show <name> | add <name> --body TEXT|--body-file F [--negative TEXT] |\n                                  rm <name> | import <file> [--format F] |\n                                  export <file> [--format F] [<name>...] | lists |\n                                  list-set <list> <file> | list-rm <list>   prompt templates and\n                                  word lists (F: pictor, fooocus, a1111, invokeai; guessed from\n                                  the file name when not given; export writes pictor, fooocus or\n                                  a1111); with --json, ls, show and lists write JSON',
    ['library'],
  ),
} as const;

const IMPORT_FORMATS: readonly TemplateFileFormat[] = ['pictor', 'fooocus', 'a1111', 'invokeai'];
const EXPORT_FORMATS = ['pictor', 'fooocus', 'a1111'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type TemplateAction =
  | { readonly kind: 'ls' | 'lists' }
  | { readonly kind: 'show' | 'rm' | 'list-rm'; readonly name: string }
  | {
      readonly kind: 'add';
      readonly name: string;
      readonly body: { readonly text: string } | { readonly file: string };
      readonly negative?: string;
    }
  | { readonly kind: 'import'; readonly file: string; readonly format: TemplateFileFormat | null }
  | {
      readonly kind: 'export';
      readonly file: string;
      readonly format: ExportFormat | null;
      readonly names: readonly string[];
    }
  | { readonly kind: 'list-set'; readonly name: string; readonly file: string };

export interface TemplateCommandLine {
  readonly name: 'template';
  readonly action: TemplateAction;
  readonly json: boolean;
  readonly common: CommonOptions;
}

interface TemplateValues {
  readonly json?: boolean;
  readonly body?: string;
  readonly 'body-file'?: string;
  readonly negative?: string;
  readonly format?: string;
}

function one(words: readonly string[], usage: string): string {
  const [word, ...rest] = words;
  if (word === undefined || word.trim() === '' || rest.length > 0) {
    throw new UsageError(`template ${usage}`);
  }
  return word;
}

function formatOf<T extends string>(raw: string | undefined, formats: readonly T[]): T | null {
  if (raw === undefined) return null;
  const found = formats.find((format) => format === raw.toLowerCase());
  if (!found) throw new UsageError(`--format takes ${formats.join(', ')}.`);
  return found;
}

function addAction(words: readonly string[], values: TemplateValues): TemplateAction {
  const name = one(words, 'add takes one template name (quote it for the shell).');
  const file = values['body-file'];
  if ((values.body === undefined) === (file === undefined)) {
    throw new UsageError('template add needs the body: --body TEXT or --body-file FILE (one).');
  }
  const body = file === undefined ? { text: values.body ?? '' } : { file: resolve(file) };
  return {
    kind: 'add',
    name,
    body,
    ...(values.negative === undefined ? {} : { negative: values.negative }),
  };
}

/** `template …` as parsed. */
export function parseTemplateCommand(
  words: readonly string[],
  values: TemplateValues,
  common: CommonOptions,
): TemplateCommandLine {
  const action = parseTemplateAction(words, values);
  return { name: 'template', action, json: values.json ?? false, common };
}

/** `template <action> …` as parsed; its options checked against the action. */
function parseTemplateAction(words: readonly string[], values: TemplateValues): TemplateAction {
  const [kind, ...rest] = words;
  if (kind !== 'add' && (values.body ?? values['body-file'] ?? values.negative) !== undefined) {
    throw new UsageError('--body, --body-file and --negative go with template add.');
  }
  if (kind !== 'import' && kind !== 'export' && values.format !== undefined) {
    throw new UsageError('--format goes with template import and template export.');
  }
  switch (kind) {
    case 'ls':
    case 'lists':
      if (rest.length > 0) throw new UsageError(`template ${kind} takes no argument.`);
      return { kind };
    case 'show':
    case 'rm':
    case 'list-rm':
      return { kind, name: one(rest, `${kind} takes one name (quote it for the shell).`) };
    case 'add':
      return addAction(rest, values);
    case 'import':
      return {
        kind,
        file: resolve(one(rest, 'import takes the file to read.')),
        format: formatOf(values.format, IMPORT_FORMATS),
      };
    case 'export': {
      const [file, ...names] = rest;
      if (file === undefined) throw new UsageError('template export takes the file to write.');
      return { kind, file: resolve(file), format: formatOf(values.format, EXPORT_FORMATS), names };
    }
    case 'list-set': {
      const [name, file, ...more] = rest;
      if (name === undefined || file === undefined || more.length > 0)
        throw new UsageError('template list-set takes the list name and a file of words.');
      return { kind, name, file: resolve(file) };
    }
    default:
      throw new UsageError(
        'template takes ls, show, add, rm, import, export, lists, list-set or list-rm.',
      );
  }
}
