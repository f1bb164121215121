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
 * bytes in octal (`$'…'`, ANSI-C quoting, is not read by dash or fish). fish reads `"$(…)"` only
 * from 3.4 (3.0–3.3 refuse the whole line), so a line that needs one is handed whole to `sh -c`
 * as one single-quoted word, which every fish from 3.0 and every POSIX shell read alike; `sh` then
 * reads the `printf`s and `$SERVICE_API_KEY` from the environment (exported, as the CLI needs it).
 * The lines hold no control but their own new lines and mean exactly the request. On Windows the
 * lines are cmd.exe's, wrapped for PowerShell (windows-command.ts), and a prompt no such line
 * carries (a line break, a control) is given as `--prompt-escaped` (prompt-escapes.ts).
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
import type { CommandLine, CommandShell, CommandWord } from './command-words';
import { NOT_CARRIED, escapePrompt } from './prompt-escapes';
import { windowsLine } from './windows-command';

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
  return `--${name}=${value}`;
}

/** `--param=key=value` words of `request`'s options, in the order they were set. */
function paramWords(request: GenerationRequest): string[] {
  return Object.entries(request.params ?? {}).map(([name, value]) =>
    option('param', `${name}=${String(value)}`),
  );
}

/** The `pictor generate …` line that sends `request` to `target` again (one line) in `shell`. */
export function generateCommand(
  target: CommandTarget,
  request: GenerationRequest,
  shell: CommandShell = 'posix',
): string {
  const words = ['generate', option('provider', target.provider)];
  if (target.baseUrl !== undefined) words.push(option('base-url', target.baseUrl));
  if (request.model) words.push(option('model', request.model));
  if (request.size) words.push(option('size', request.size));
  if (request.quality) words.push(option('quality', request.quality));
  words.push(...paramWords(request));
  if (request.seed !== undefined) words.push(option('seed', String(request.seed)));
  words.push(promptOption(request.prompt, shell));
  return commandLine({ program: 'pictor', words }, shell);
}

/**
 * `--prompt=…`; on Windows, for a prompt no line there carries (a line break, a control),
 * `--prompt-escaped=…`, which the CLI reads back as the same prompt.
 */
function promptOption(prompt: string, shell: CommandShell): string {
  if (shell !== 'posix' && NOT_CARRIED.test(prompt))
    return option('prompt-escaped', escapePrompt(prompt));
  return option('prompt', prompt);
}

/** A request as a dialect sends it: method, absolute URL, headers (the key's as a variable), body. */
interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** What JSON.stringify leaves as it is (it escapes C0) but a reader or a terminal acts on. */
const JSON_ACTED_ON = anyOf([DEL_AND_C1_CONTROLS, BIDI_CONTROLS, LINE_SEPARATORS], 'g');

/** `body` as JSON whose every character a reader would act on is a `\uXXXX` escape (same value). */
function bodyJson(body: unknown): string {
  return JSON.stringify(body).replace(
    JSON_ACTED_ON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The cURL line of `sent` in `shell`. The key's header names the shell's variable, which the
 * shell fills in; nothing else is expanded.
 */
export function curlCommand(sent: SentRequest, shell: CommandShell = 'posix'): string {
  const words: CommandWord[] = ['-X', sent.method, sent.url];
  for (const [name, value] of Object.entries(sent.headers)) {
    words.push('-H', keyHeader(`${name}: ${value}`));
  }
  if (sent.body !== undefined) {
    words.push('-H', 'Content-Type: application/json');
    words.push('-d', bodyJson(sent.body));
  }
  return commandLine({ program: 'curl', words }, shell);
}

/** A header word: {@link KEY_VARIABLE} marked for the shell to fill, the rest as written. */
function keyHeader(header: string): CommandWord {
  const at = header.indexOf(KEY_VARIABLE);
  if (at < 0) return header;
  return { before: header.slice(0, at), after: header.slice(at + KEY_VARIABLE.length) };
}

/** `line` as `shell` reads it. */
function commandLine(line: CommandLine, shell: CommandShell): string {
  return shell === 'posix' ? posixLine(line) : windowsLine(line, shell);
}

/** A word for sh, dash, bash, zsh and fish, the key's variable in double quotes. */
function posixWord(word: CommandWord): string {
  if (typeof word === 'string') return shellWord(word);
  const around = (text: string) => (text === '' ? '' : shellWord(text));
  return `${around(word.before)}"${KEY_VARIABLE}"${around(word.after)}`;
}

/**
 * The line for sh, dash, bash, zsh and fish: its words; or, when one needs `printf`, the line
 * given whole to `sh -c` as one quoted word, since fish reads `"$(…)"` only from 3.4.
 */
function posixLine(line: CommandLine): string {
  const text = [line.program, ...line.words.map(posixWord)].join(' ');
  const values = line.words.map((word) =>
    typeof word === 'string' ? word : word.before + word.after,
  );
  return forEveryFish(text, values);
}

/**
 * `line`, a POSIX command line whose `values` were each quoted with {@link shellWord}: as it is,
 * or, when one of them needs `printf`, handed whole to `sh -c` (fish reads `"$(…)"` only from 3.4).
 */
export function forEveryFish(line: string, values: readonly string[]): string {
  return values.some((value) => ACTED_ON.test(value)) ? `sh -c ${shellWord(line)}` : line;
}
