/**
 * A prompt written with backslash escapes, for the CLI's `--prompt-escaped TEXT`: the one way a
 * prompt with a line break (or another control) reaches `pictor` on Windows. There the command is
 * a batch file (resources/windows/pictor.cmd) that cmd.exe reads, and no cmd.exe line carries a
 * line break; Electron's Windows binary is a windowed program whose standard input is always
 * empty (electron/electron#4218, #21705), so neither `--prompt -` nor a pipe could bring one; and
 * no line a user pastes writes a file exactly. An escaped word is printable text every shell
 * carries as it carries any other word. The escapes are JSON's, which many readers know: `\n` a
 * line break, `\t` a tab, `\r`, `\b`, `\f`, `\"`, `\/`, `\\` a backslash, `\uXXXX` any UTF-16 unit
 * (a character past U+FFFF as its two surrogates); any other character is itself, `"` included.
 * Both directions live here, so the printed lines (shell-command.ts) and the CLI's reading
 * (electron/cli/prompt-args.ts) cannot disagree.
 */
import { BIDI_CONTROLS, CONTROL_CHARACTERS, LINE_SEPARATORS, anyOf } from './control-characters';

/**
 * What no Windows command line carries or a reader would be misled by: every control (a line
 * feed ends cmd.exe's command; a pasted TAB or ESC acts on the prompt), bidi formatting and the
 * line separators. An escaped prompt writes each as an escape.
 */
export const NOT_CARRIED = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]);

/** The short escapes JSON has, by the character they stand for. */
const SHORT: Readonly<Record<string, string>> = {
  '\n': 'n',
  '\t': 't',
  '\r': 'r',
  '\b': 'b',
  '\f': 'f',
};

/** `text` with every backslash doubled and every {@link NOT_CARRIED} character escaped. */
export function escapePrompt(text: string): string {
  const escaped = new RegExp(`\\\\|${NOT_CARRIED.source}`, 'g');
  return text.replace(escaped, (char) => {
    if (char === '\\') return '\\\\';
    const short = SHORT[char];
    return short === undefined
      ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
      : `\\${short}`;
  });
}

/** What a short escape's letter stands for (JSON's). */
const UNESCAPED: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

/** A surrogate without its other half: no character. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why an escaped prompt cannot be read; the message never repeats the text (it may be a key). */
export class BadEscapes extends Error {
  override readonly name = 'BadEscapes';
}

/**
 * The prompt `escaped` stands for.
 * @throws BadEscapes for a backslash that starts no escape (one at the end, `\x`, `\u` without
 *   four hexadecimal digits) or a surrogate left without its other half.
 */
export function unescapePrompt(escaped: string): string {
  const text = escaped.replace(/\\(u[0-9a-fA-F]{4}|[^u]?)/g, (_, code: string) => {
    if (code.startsWith('u')) return String.fromCharCode(parseInt(code.slice(1), 16));
    const char = UNESCAPED[code];
    if (char === undefined)
      throw new BadEscapes('a backslash starts no escape (\\n, \\t, \\\\, \\uXXXX…)');
    return char;
  });
  if (LONE_SURROGATE.test(text))
    throw new BadEscapes('a \\uXXXX escape is half of a character without its other half');
  return text;
}
