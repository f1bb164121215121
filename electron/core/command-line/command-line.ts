/**
 * How Pictor's two command lines (`pictor` and the demo service) read their arguments: one
 * parser over node:util's `parseArgs`, one error, one way of saying what went wrong.
 *
 * A stray argument may be a key pasted in the wrong place (`--key alice sk-alice`, or a key after
 * `generate`), so no message repeats an argument's text: an unknown option is named only when it
 * is a near miss of a real one, and then the real one is suggested.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { messageOf, systemErrorCode, UserFacingError } from '../errors';

/** A command line that cannot run, in a sentence that says what to type instead. */
export class UsageError extends UserFacingError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message, { code: 'bad_input' });
  }
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] ?? 0;
}

/** The known option closest to `typed` (`--promt` → `prompt`), if it is a near miss. */
export function nearestOption(typed: string, known: readonly string[]): string | null {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  if (name === '') return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const option of known) {
    const distance = editDistance(name.toLowerCase(), option);
    if (distance < bestDistance) [best, bestDistance] = [option, distance];
  }
  // One edit for short names, two for longer ones: closer than any key could come by chance.
  return best !== null && bestDistance <= (name.length > 5 ? 2 : 1) ? best : null;
}

function describeParseError(error: unknown, known: readonly string[]): string {
  const code = systemErrorCode(error);
  const message = messageOf(error);
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return 'Unexpected argument: every value belongs to an option (as in --name value) or to the command.';
  }
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const typed = /'(-[^']*)'/.exec(message)?.[1] ?? '';
    const nearest = nearestOption(typed, known);
    return nearest ? `Unknown option. Did you mean --${nearest}?` : 'Unknown option.';
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = known.find(
      (name) => message.includes(`'--${name}'`) || message.includes(`'--${name} <value>'`),
    );
    if (option && message.includes('argument missing')) return `--${option} needs a value.`;
    if (option) return `--${option} takes no value.`;
  }
  return 'The command line could not be read.';
}

/** A negative number (`-1`, `-.5`, `-0,5`): no option's name starts with a digit or a point. */
const NEGATIVE_NUMBER = /^-[.,]?\d/;

/**
 * `--amount -1` as `--amount=-1`: parseArgs calls a value that starts with a dash ambiguous, and
 * the command then said "--amount takes no value" instead of checking the number it was given.
 */
function joinNegativeValues(argv: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const next = argv[index + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    const takesValue =
      name !== null && Object.hasOwn(options, name) && options[name]?.type === 'string';
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

/**
 * `parseArgs` in strict mode; any problem becomes a {@link UsageError} whose sentence never
 * repeats what was typed (see the module's comment). A negative number is an option's value.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  argv: readonly string[],
  options: T,
  allowPositionals: boolean,
) {
  try {
    const args = joinNegativeValues(argv, options);
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, Object.keys(options)));
  }
}
