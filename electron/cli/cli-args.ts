/**
 * The options of the commands over a library (generate, list, the triage and cost commands…),
 * read by one parser before anything touches the network or disk; each command's declaration
 * (command-table.ts) checks the values it takes. compare, edit, upscale and models read their own.
 */
import { UsageError, parseCommandLine } from '../core/command-line';
import { COST_OPTIONS } from './cost-args';
import { TRIAGE_OPTIONS } from './triage-args';
import { TEMPLATE_OPTIONS } from './template-args';
import { TEMPLATE_RUN_OPTIONS } from './template-run-args';
import { PARAM_OPTIONS } from './param-args';

export const LIBRARY_OPTIONS = {
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  prompt: { type: 'string' },
  model: { type: 'string' },
  size: { type: 'string' },
  quality: { type: 'string' },
  count: { type: 'string' },
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  template: { type: 'string' },
  all: { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  task: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  compare: { type: 'string' },
  ...COST_OPTIONS,
  ...TRIAGE_OPTIONS,
  ...TEMPLATE_OPTIONS,
  ...TEMPLATE_RUN_OPTIONS,
  ...PARAM_OPTIONS,
  verbose: { type: 'boolean' },
} as const;

/** The words after a library command's name, read: its option values and its arguments. */
export function readOptions(args: readonly string[]) {
  return parseCommandLine(args, LIBRARY_OPTIONS, true);
}

export type Values = ReturnType<typeof readOptions>['values'];

/** `value`, or a UsageError saying `message` when it is missing or blank. */
export function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(message);
  return value;
}

/**
 * The words after `name` (its arguments besides its options), at most `allowed` of them.
 * @throws UsageError counting them (never repeating one: it may be the key pasted in the wrong place).
 */
export function argumentsOf(name: string, words: readonly string[], allowed: number): string[] {
  if (words.length > allowed) {
    throw new UsageError(
      `${name} takes ${allowed === 0 ? 'no argument' : 'one argument'} besides its options; there were ${words.length}.`,
    );
  }
  return [...words];
}
