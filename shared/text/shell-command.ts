/**
 * A request as a command line that reproduces it: the `pictor generate …` line ("Copy as
 * command" on a task and on the compose form) and a cURL line of the body a dialect sends. The
 * key is never in either: the line reads `$SERVICE_API_KEY` from the shell, as the CLI does.
 * Every word the user or a service wrote is single-quoted for a POSIX shell, so a prompt with
 * quotes, `$`, backticks, backslashes or new lines reaches the command as typed and runs nothing.
 * The lines go to the clipboard to be pasted into a terminal, and a word may hold what the user
 * never saw (a prompt or an option a compromised page sent): a word with a character a terminal
 * or a reader acts on (ESC, ^U, TAB, CR, DEL, a C1 control, bidi formatting, a line separator) is
 * written ANSI-C quoted (`$'…'`, that character as its UTF-8 bytes `\xHH`), so the lines hold no
 * control but their own new lines and mean exactly the request.
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

/**
 * `word` as one POSIX shell word that means exactly `word`: single quotes (`'` as `'\''`), or
 * ANSI-C quotes when it holds a character {@link ACTED_ON} (each written as its UTF-8 bytes).
 */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  if (!ACTED_ON.test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  let escaped = '';
  for (const char of word) {
    if (char === '\\' || char === "'") escaped += `\\${char}`;
    else if (char === '\n') escaped += '\\n';
    else if (ACTED_ON.test(char)) escaped += utf8Escapes(char);
    else escaped += char;
  }
  return `$'${escaped}'`;
}

/** `char` as `\xHH` escapes of its UTF-8 bytes. */
function utf8Escapes(char: string): string {
  const bytes = new TextEncoder().encode(char);
  return Array.from(bytes, (byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
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
  return shellQuote(`--${name}=${value}`);
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
  const words = ['curl', '-X', shellQuote(sent.method), shellQuote(sent.url)];
  for (const [name, value] of Object.entries(sent.headers)) {
    words.push('-H', keyHeader(`${name}: ${value}`));
  }
  if (sent.body !== undefined) {
    words.push('-H', shellQuote('Content-Type: application/json'));
    words.push('-d', shellQuote(JSON.stringify(sent.body)));
  }
  return words.join(' ');
}

/** A header word: `$SERVICE_API_KEY` left for the shell to fill, the rest quoted as written. */
function keyHeader(header: string): string {
  const at = header.indexOf(KEY_VARIABLE);
  if (at < 0) return shellQuote(header);
  const before = header.slice(0, at);
  const after = header.slice(at + KEY_VARIABLE.length);
  return `${shellQuote(before)}"${KEY_VARIABLE}"${after === '' ? '' : shellQuote(after)}`;
}
