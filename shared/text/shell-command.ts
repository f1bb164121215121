/**
 * A request as a command line that reproduces it: the `pictor generate …` line ("Copy as
 * command" on a task and on the compose form) and a cURL line of the body a dialect sends. The
 * key is never in either: the line reads `$SERVICE_API_KEY` from the shell, as the CLI does.
 * Every word the user or a service wrote is single-quoted for a POSIX shell, so a prompt with
 * quotes, `$`, backticks, backslashes or new lines reaches the command as typed and runs nothing.
 */
import type { ProviderId } from '../domain/providers';
import type { GenerationRequest } from '../service/wire';

/** The variable a copied command reads the key from (the CLI's). */
export const KEY_VARIABLE = '$SERVICE_API_KEY';

/** `word` as one POSIX shell word that means exactly `word` (single quotes; `'` as `'\''`). */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
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
