/**
 * The triage commands' command lines (triage-commands.ts runs them): `rate`, `flag`, `tag`,
 * `board`, `purge-rejected` and `smart`, and the triage filters of `list`. An image-ref is a task
 * id (the service's id or Pictor's own: all its images) or `ID#N` (its Nth image, from 1); refs
 * are found in the history when the command runs.
 */
import { commandHelp } from './command-help';
import { quotedOr, UsageError } from '../core/command-line';
import type { RatingTest, TriageQuery } from '../core/history';
import type { CommonOptions } from './common-args';
import { rulesFromFilter, type SmartRules } from '../../shared/domain/smart-board';

export const TRIAGE_HELP = {
  rate: commandHelp(
    'rate <image-ref>... <0-5>         set the rating (0 clears it). An image-ref is a task id\n                                  (all its images) or ID#N (its Nth image, from 1)',
    ['library'],
  ),
  flag: commandHelp(
    'flag <image-ref>... pick|reject|none   set the flag (a pick is the favourite star)',
    ['library'],
  ),
  tag: commandHelp(
    'tag add|rm <tag> <image-ref>...  add or remove a tag (any case is the same tag)',
    ['library'],
  ),
  board: commandHelp(
    'board ls | create <path> | rm <path> | mv <path> <new-path> | add <path> <image-ref>... |\n                                  remove <path> <image-ref>...   boards (paths like Clients/Acme);\n                                  rm never deletes images',
    ['library'],
  ),
  'write-metadata': commandHelp(
    'write-metadata <image-ref>...     write rating and tags into the image files themselves\n                                  (never into one with Content Credentials: its .xmp has them)',
    ['library'],
  ),
  'purge-rejected': commandHelp(
    "purge-rejected [--board PATH] [--yes]   move every rejected image (of the board) to Pictor's\n                                  trash; without --yes, only say what would go",
    ['library'],
  ),
  smart: commandHelp(
    "smart ls | rm <name> | create <name> [--rating R] [--flag F] [--board PATH] [--tag T]...\n                                  [--unfiled] [--match all|any]   smart boards: saved filters,\n                                  one rule per option, all of them or any (list shows a smart\n                                  board's images)",
    ['library'],
  ),
} as const;

type TriageName = keyof typeof TRIAGE_HELP;

/** The triage commands, as parsed. */
export type TriageCommand =
  | { readonly name: 'rate'; readonly refs: string[]; readonly rating: number }
  | { readonly name: 'flag'; readonly refs: string[]; readonly flag: 'pick' | 'reject' | 'none' }
  | { readonly name: 'tag'; readonly add: boolean; readonly tag: string; readonly refs: string[] }
  | { readonly name: 'board'; readonly action: BoardAction }
  | { readonly name: 'write-metadata'; readonly refs: string[] }
  | { readonly name: 'purge-rejected'; readonly board: string | null; readonly yes: boolean }
  | { readonly name: 'smart'; readonly action: SmartAction };

export type SmartAction =
  | { readonly kind: 'ls' }
  | { readonly kind: 'rm'; readonly name: string }
  /** `rules` as the options made them, checked by the core (SmartBoards.create). */
  | { readonly kind: 'create'; readonly name: string; readonly rules: SmartRules };

export type BoardAction =
  | { readonly kind: 'ls' }
  | { readonly kind: 'create' | 'rm'; readonly path: string }
  | { readonly kind: 'mv'; readonly path: string; readonly to: string }
  | { readonly kind: 'add' | 'remove'; readonly path: string; readonly refs: string[] };

export type TriageCommandLine = TriageCommand & { readonly common: CommonOptions };

interface TriageValues {
  readonly rating?: string;
  readonly flag?: string;
  readonly board?: string;
  readonly tag?: string[];
  readonly unfiled?: boolean;
  readonly yes?: boolean;
  readonly match?: string;
}

/** `rate`, `flag`, `tag`, `board`, `purge-rejected` with their words after the name. */
export function parseTriageCommand(
  name: TriageName,
  words: readonly string[],
  values: TriageValues,
): TriageCommand {
  switch (name) {
    case 'rate': {
      const refs = atLeastOne(words.slice(0, -1), 'rate needs image-refs, then a rating 0-5.');
      const last = words.at(-1) ?? '';
      if (!/^[0-5]$/.test(last))
        throw new UsageError(
          `rate ends with a rating from 0 to 5; ${quotedOr(last, 'the last word')} is not one.`,
        );
      return { name, refs, rating: Number(last) };
    }
    case 'flag': {
      const refs = atLeastOne(
        words.slice(0, -1),
        'flag needs image-refs, then pick, reject or none.',
      );
      const flag = words.at(-1);
      if (flag !== 'pick' && flag !== 'reject' && flag !== 'none')
        throw new UsageError('flag ends with pick, reject or none.');
      return { name, refs, flag };
    }
    case 'tag': {
      const [action, tag, ...refs] = words;
      if ((action !== 'add' && action !== 'rm') || tag === undefined)
        throw new UsageError('tag takes add or rm, the tag, then image-refs.');
      return { name, add: action === 'add', tag, refs: atLeastOne(refs, 'tag needs image-refs.') };
    }
    case 'board':
      return { name, action: boardAction(words) };
    case 'write-metadata':
      return { name, refs: atLeastOne([...words], 'write-metadata needs image-refs.') };
    case 'purge-rejected':
      if (words.length > 0)
        throw new UsageError('purge-rejected takes no argument besides its options.');
      return { name, board: values.board ?? null, yes: values.yes ?? false };
    case 'smart':
      return { name, action: smartAction(words, values) };
  }
}

/** `smart ls`, `smart rm NAME`, `smart create NAME` with list's filters joined by --match. */
function smartAction(words: readonly string[], values: TriageValues): SmartAction {
  const [kind, name, ...rest] = words;
  if (kind === 'ls') {
    if (name !== undefined) throw new UsageError('smart ls takes no argument.');
    return { kind };
  }
  if (kind !== 'rm' && kind !== 'create') throw new UsageError('smart takes ls, rm or create.');
  if (name === undefined || rest.length > 0)
    throw new UsageError(`smart ${kind} takes one smart board name (quote it for the shell).`);
  if (kind === 'rm') return { kind, name };
  const match = values.match ?? 'all';
  if (match !== 'all' && match !== 'any') throw new UsageError('--match takes all or any.');
  const mode: 'all' | 'any' = match;
  const filter = listTriage(values);
  const tags = filter?.tags ? { tags: { mode, keys: filter.tags.keys } } : {};
  const rules = filter && rulesFromFilter({ ...filter, ...tags }, mode);
  if (!rules) {
    throw new UsageError(
      'smart create needs at least one rule: --rating, --flag, --board, --tag or --unfiled.',
    );
  }
  return { kind, name, rules };
}

function boardAction(words: readonly string[]): BoardAction {
  const [kind, path, ...rest] = words;
  const need = (ok: boolean, usage: string): void => {
    if (!ok) throw new UsageError(`board ${usage}`);
  };
  switch (kind) {
    case 'ls':
      need(path === undefined, 'ls takes no argument.');
      return { kind };
    case 'create':
    case 'rm':
      need(path !== undefined && rest.length === 0, `${kind} takes one board path.`);
      return { kind, path: path ?? '' };
    case 'mv':
      need(path !== undefined && rest.length === 1, 'mv takes the board path and its new path.');
      return { kind, path: path ?? '', to: rest[0] ?? '' };
    case 'add':
    case 'remove':
      need(path !== undefined, `${kind} takes the board path, then image-refs.`);
      return { kind, path: path ?? '', refs: atLeastOne(rest, `board ${kind} needs image-refs.`) };
    default:
      throw new UsageError('board takes ls, create, rm, mv, add or remove.');
  }
}

function atLeastOne(words: readonly string[], message: string): string[] {
  if (words.length === 0) throw new UsageError(message);
  return [...words];
}

/** `list`'s triage filters (--rating '>=4', --flag, --board, --tag…, --unfiled); null: none. */
export function listTriage(values: TriageValues): TriageQuery | null {
  const query: TriageQuery = {};
  if (values.rating !== undefined) query.rating = ratingTest(values.rating);
  if (values.flag !== undefined) {
    const flag = values.flag;
    if (flag !== 'pick' && flag !== 'reject' && flag !== 'none')
      throw new UsageError('--flag takes pick, reject or none.');
    query.flag = flag;
  }
  if (values.board !== undefined) query.board = values.board;
  if (values.tag !== undefined) query.tags = { mode: 'all', keys: values.tag };
  if (values.unfiled) query.unfiled = true;
  return Object.keys(query).length === 0 ? null : query;
}

function ratingTest(raw: string): RatingTest {
  const match = /^\s*(>=|<=|=)?\s*([0-5])\s*$/.exec(raw);
  if (!match)
    throw new UsageError('--rating takes a rating 0-5, or >=N or <=N (quote it for the shell).');
  const op = (match[1] ?? '=') as RatingTest['op'];
  return { op, value: Number(match[2]) };
}
