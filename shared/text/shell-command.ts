/**
 * A request as a command line that reproduces it: the `pictor generate …` line ("Copy as
 * command" on a task and on the compose form) and a cURL line of the body a dialect sends. The
 * key is never in either: the line reads `$SERVICE_API_KEY` from the shell, as the CLI does.
 * Every word the user or a service wrote is quoted so that every common shell reads it as typed
 * (POSIX sh and Debian's dash, bash, zsh, fish): a prompt with quotes, `$`, backticks, backslashes
 * or new lines reaches the command as typed and runs nothing. The lines go to the clipboard to be
 * pasted into a terminal, and a word may hold what the user never saw (a prompt or an option a
 * compromised page sent): a character a terminal or a reader acts on (ESC, ^U, TAB, CR, DEL, a C1
 * control, bidi formatting, a line separator) is written as `"$(printf '\ooo…')"`, its UTF-8
 * bytes in octal, which those shells all read the same (`$'…'`, ANSI-C quoting, is not read by
 * dash or fish), so the lines hold no control but their own new lines and mean exactly the request.
 */
import type { ProviderId } from '../domain/providers';
import type { GenerationRequest } from '../service/wire';
import {
  BIDI_CONTROLS,
  C0_CONTROLS_BUT_LINE_FEED,
  DEL_AND_C1_CONTROLS,
  LINE_SEPARATORS,
  anyOf,
} from './control-characters';

/** The variable a copied command reads the key from (the CLI's). */
export const KEY_VARIABLE = '$SERVICE_API_KEY';

/** What a terminal or a reader acts on, even inside quotes; a line feed is the text's own. */
const ACTED_ON = anyOf([
  C0_CONTROLS_BUT_LINE_FEED,
  DEL_AND_C1_CONTROLS,
  BIDI_CONTROLS,
  LINE_SEPARATORS,
]);

/** A word every shell reads as it is: no `%` (fish's `%self`), no `~` or `=` first (zsh's `=ls`). */
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9_@+=:,./-]*$/;

/**
 * `word` as one shell word that means exactly `word` to sh, dash, bash, zsh and fish: runs of
 * ordinary characters single-quoted; a `'` written `\'` outside the quotes, and so is a `\` that
 * a `\` or `'` follows or that ends the word (inside single quotes fish reads `\\` and `\'` as
 * escapes, POSIX shells neither: any other backslash means itself to both); a character
 * {@link ACTED_ON} written by `printf` from its octal UTF-8 bytes inside double quotes. A word
 * cannot hold NUL.
 */
export function shellWord(word: string): string {
  if (PLAIN.test(word)) return word;
  if (word === '') return "''";
  const chars = Array.from(word);
  let quoted = '';
  let run = '';
  const endRun = (): void => {
    if (run !== '') quoted += `'${run}'`;
    run = '';
  };
  chars.forEach((char, at) => {
    const next = chars[at + 1];
    const escaped =
      char === "'" ||
      (char === '\\' &&
        (next === undefined || next === '\\' || next === "'" || ACTED_ON.test(next)));
    if (escaped) {
      endRun();
      quoted += `\\${char}`;
    } else if (ACTED_ON.test(char)) {
      endRun();
      quoted += `"$(printf '${octalBytes(char)}')"`;
    } else run += char;
  });
  endRun();
  return quoted;
}

/** `char` as `\ooo` escapes of its UTF-8 bytes (three digits: what every printf reads). */
function octalBytes(char: string): string {
  const bytes = new TextEncoder().encode(char);
  return Array.from(bytes, (byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
}

/** Where a command sends: the service's kind and, for an address of the user's own, its URL. */
export interface CommandTarget {
  /** `demo`: the CLI's built-in demo service (no key, no address). */
  readonly provider: ProviderId | 'demo';
  /** The base URL; absent for the service's own address or the built-in demo. */
  readonly baseUrl?: string;
}

/**
 * `--name=value` as one word: the value joined to its option, so a value that starts with `-` is
 * never read as an option of its own.
 */
function option(name: string, value: string): string {
  return shellWord(`--${name}=${value}`);
}

/** `--param=key=value` words of `request`'s options, in the order they were set. */
function paramWords(request: GenerationRequest): string[] {
  return Object.entries(request.params ?? {}).map(([name, value]) =>
    option('param', `${name}=${String(value)}`),
  );
}

/** The `pictor generate …` line that sends `request` to `target` again (one line). */
export function generateCommand(target: CommandTarget, request: GenerationRequest): string {
  const words = ['pictor', 'generate', option('provider', target.provider)];
  if (target.baseUrl !== undefined) words.push(option('base-url', target.baseUrl));
  if (request.model) words.push(option('model', request.model));
  if (request.size) words.push(option('size', request.size));
  if (request.quality) words.push(option('quality', request.quality));
  words.push(...paramWords(request));
  if (request.seed !== undefined) words.push(option('seed', String(request.seed)));
  words.push(option('prompt', request.prompt));
  return words.join(' ');
}

/** A request as a dialect sends it: method, absolute URL, headers (the key's as a variable), body. */
interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * The cURL line of `sent`. A header that holds {@link KEY_VARIABLE} is double-quoted so the shell
 * fills the key in; everything else is single-quoted, so nothing else is expanded.
 */
export function curlCommand(sent: SentRequest): string {
  const words = ['curl', '-X', shellWord(sent.method), shellWord(sent.url)];
  for (const [name, value] of Object.entries(sent.headers)) {
    words.push('-H', keyHeader(`${name}: ${value}`));
  }
  if (sent.body !== undefined) {
    words.push('-H', shellWord('Content-Type: application/json'));
    words.push('-d', shellWord(JSON.stringify(sent.body)));
  }
  return words.join(' ');
}

/** A header word: `$SERVICE_API_KEY` left for the shell to fill, the rest quoted as written. */
function keyHeader(header: string): string {
  const at = header.indexOf(KEY_VARIABLE);
  if (at < 0) return shellWord(header);
  const before = header.slice(0, at);
  const after = header.slice(at + KEY_VARIABLE.length);
  return `${shellWord(before)}"${KEY_VARIABLE}"${after === '' ? '' : shellWord(after)}`;
}
