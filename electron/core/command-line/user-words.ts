/**
 * How a message may repeat what someone typed. A word on a command line may be a key pasted in
 * the wrong place (`pictor sk-proj-…`, `--provider sk-…`, a key after a command), so every
 * message that quotes a typed word, value or path renders it here: a short word that looks like
 * language or a number is quoted; anything that could be a key (long, key-shaped, a key's usual
 * prefix) is named without being repeated, in any encoding.
 */
import { UserFacingError } from '../errors';
import { UsageError, nearestOption } from './command-line';

/**
 * One word a key could be: 20 or more characters of the kinds keys are made of (letters, digits,
 * `-_.:=+/`), with both letters and digits, and no `://` (an address is a word of a prompt);
 * or 32 or more of them at all (a long base64 or hex token). `sk-proj-…`, fal's `id:secret`,
 * Replicate's `r8_…`, BFL's UUIDs all are; words of language are not.
 */
export function looksLikeKey(word: string): boolean {
  if (!/^[A-Za-z0-9\-_.:=+/]+$/.test(word) || word.includes('://')) return false;
  if (word.length >= 32) return true;
  return word.length >= 20 && /[A-Za-z]/.test(word) && /\d/.test(word);
}

/** The way keys of the services Pictor speaks to (and most others) begin. */
const KEY_PREFIX = /^(?:sk|pk|rk|r8|fal|key|api|token|bearer)[-_]/i;

/** What a message says instead of a typed value it does not repeat. */
const UNREPEATED_VALUE = 'the value given';
/** What a message says instead of a typed path it does not repeat. */
const UNREPEATED_PATH = 'the path given';

/** A word too long, too wordy or too key-like to be repeated. */
function unrepeatable(word: string): boolean {
  const letters = word.replace(/[^\p{L}]/gu, '').length;
  return (
    word === '' ||
    word.length > 24 ||
    letters > 12 ||
    KEY_PREFIX.test(word) ||
    looksLikeKey(word) ||
    // Control characters and line breaks: not a word anyone means to see again.
    /[\p{Cc}\p{Cf}]/u.test(word)
  );
}

/**
 * `raw` as a message may quote it (`prefix` and `"genrate"`), or `fallback` when it is not
 * repeated: each sentence picks the words that read right both ways.
 */
export function quotedOr(raw: string, fallback: string, prefix = ''): string {
  return unrepeatable(raw) ? fallback : `${prefix}"${raw}"`;
}

/** `raw` as a message may quote it (`"genrate"`), or "the value given". */
export function quotedWord(raw: string): string {
  return quotedOr(raw, UNREPEATED_VALUE);
}

/** `path` as a message may name it, or "the path given" when any part of it could be a key. */
export function shownPath(path: string): string {
  const parts = path.split(/[\\/]/);
  const keyLike = parts.some(
    (part) => KEY_PREFIX.test(part) || looksLikeKey(part) || /[\p{Cc}\p{Cf}]/u.test(part),
  );
  return keyLike ? UNREPEATED_PATH : path;
}

/**
 * The sentence for a command that does not exist: the word quoted when it may be, the nearest
 * command when it is a near miss, and the commands there are.
 */
export function unknownCommandMessage(typed: string, commands: readonly string[]): string {
  const said = quotedWord(typed);
  const head =
    said === UNREPEATED_VALUE
      ? 'Unknown command (what was typed is not repeated: it could be a key).'
      : `Unknown command ${said}.`;
  const near = unrepeatable(typed) ? null : nearestOption(typed, commands);
  return `${head}${near ? ` Did you mean ${near}?` : ''} Commands: ${commands.join(', ')}.`;
}

/**
 * Runs `lookup` of the thing named `name` (a smart board, say); when the library has none, the
 * sentence says so without repeating a name that could be a key.
 * @throws UsageError for a `not_found` refusal; anything else as thrown.
 */
export function lookedUp<T>(kind: string, name: string, lookup: () => T): T {
  try {
    return lookup();
  } catch (error) {
    // The library's own sentence when the name may be repeated; another without it otherwise.
    const notFound = error instanceof UserFacingError && error.code === 'not_found';
    if (!notFound || !unrepeatable(name)) throw error;
    throw new UsageError(`There is no ${kind} ${quotedOr(name, 'by the name given')}.`);
  }
}

/** A task id the history at `dataDir` does not have, refused without repeating a key-like id. */
export function noSuchTask(typed: string, dataDir: string): UsageError {
  return new UsageError(
    `No task ${quotedOr(typed, 'with the id given')} in the history at ${dataDir}.`,
  );
}
