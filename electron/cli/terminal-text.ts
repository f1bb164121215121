/**
 * Text from the service or from a sidecar on its way to a terminal. A terminal obeys what it is
 * sent: ESC starts sequences that move the cursor, rewrite the title, set the clipboard (OSC 52)
 * or hide a link behind other words (OSC 8), and bidi overrides print a command backwards from
 * how it runs. Such characters are shown as visible escapes instead; and a value pasted back
 * into a shell is quoted for that shell, so it stays one word whatever it holds.
 */
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  DEL_AND_C1_CONTROLS,
  HANGUL_FILLERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../shared/text/control-characters';
import { forEveryFish, shellWord } from '../../shared/text/shell-command';
import { NOT_CARRIED } from '../../shared/text/prompt-escapes';
import { powershellArgument } from '../../shared/text/windows-command';

/**
 * Bidi controls, line separators and every other format character (zero-width spaces, the word
 * joiner, the BOM, tag characters: a terminal draws none of them, so two names that differ by one
 * print alike), the Hangul fillers (blank letters; the window's shown values mark them too) and
 * half surrogate pairs. The zero-width joiner and non-joiner stay: Persian, the Indic scripts and
 * emoji sequences need them.
 */
const SHOWN_AS_CODE = anyOf(
  [BIDI_CONTROLS, LINE_SEPARATORS, '\\p{Cf}\\p{Cs}', HANGUL_FILLERS],
  'gu',
);
const KEPT_JOINERS = new Set(['\u200c', '\u200d']);
const CONTROLS = anyOf([CONTROL_CHARACTERS], 'g');
/**
 * What JSON.stringify leaves as it is (it escapes C0) but a reader would act on, or would not see:
 * DEL and C1, bidi controls, line separators and every other format character (the invisibles
 * {@link SHOWN_AS_CODE} shows by code on a text line), the joiners kept as there.
 */
const JSON_UNSAFE = anyOf(
  [DEL_AND_C1_CONTROLS, BIDI_CONTROLS, LINE_SEPARATORS, '\\p{Cf}', HANGUL_FILLERS],
  'gu',
);

function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

/**
 * `text` with every C0 and C1 control (ESC, so every CSI, OSC and DCS sequence, included), DEL,
 * bidi control, line separator and invisible format character written out visibly (`\x1B`,
 * `\x9B`, `U+202E`, `U+200B`, `U+E0041`): safe to print on one line of a terminal.
 */
export function terminalSafe(text: string): string {
  return text
    .replace(CONTROLS, (char) => `\\x${hex(char.charCodeAt(0), 2)}`)
    .replace(SHOWN_AS_CODE, (char) =>
      KEPT_JOINERS.has(char) ? char : `U+${hex(char.codePointAt(0) ?? 0, 4)}`,
    );
}

/**
 * Several lines for the terminal, each made safe on its own ({@link terminalSafe}) and ended with
 * a line break: output of several lines is built as a list of them, never joined with `\n` and
 * then made safe (which writes every break as a literal `\x0A`).
 */
export function terminalLines(lines: readonly string[]): string {
  return lines.map((line) => `${terminalSafe(line)}\n`).join('');
}

/**
 * A JSON line that stays one line and shows no bidi tricks and hides nothing: JSON.stringify
 * escapes controls, but not U+2028/U+2029 (line breaks to some readers), bidi controls or the
 * invisible format characters (a zero-width space, a BOM, tag characters that spell hidden words);
 * those are written as `\uXXXX` here, which every JSON parser reads back as the same characters.
 */
export function jsonSafe(line: string): string {
  return line.replace(JSON_UNSAFE, (char) => {
    if (KEPT_JOINERS.has(char)) return char;
    // A character past U+FFFF (a tag character) as its two UTF-16 units, as JSON writes it.
    const units = Array.from({ length: char.length }, (_, at) => char.charCodeAt(at));
    return units.map((unit) => `\\u${hex(unit, 4).toLowerCase()}`).join('');
  });
}

/**
 * A word every shell (sh, bash, zsh, PowerShell) takes literally as is: no `@` (PowerShell
 * splats it), no `,` (PowerShell makes a list), no `~` or `%`, no leading `-`.
 */
const PLAIN_WORD = /^[A-Za-z0-9_][A-Za-z0-9_./:=+-]*$/;

/** Single quotes to PowerShell: the ASCII one and the typographic ones it also ends strings on. */
const POWERSHELL_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/**
 * `value` as one word for the user's shell: bare when it is plain, otherwise as
 * shared/text/shell-command.ts quotes for sh, dash, bash, zsh and fish alike or, on Windows, for
 * PowerShell running the CLI's batch file (windows-command.ts powershellArgument: cmd.exe's form
 * in single quotes, so a `&` or `%NAME%` in a path stays text through pictor.cmd); a value with a
 * control or a `"` there, plain PowerShell single quotes (a quote doubled; nothing expands).
 */
export function shellQuote(value: string, platform: NodeJS.Platform = process.platform): string {
  if (PLAIN_WORD.test(value)) return value;
  if (platform === 'win32')
    return (
      powershellArgument(value) ?? `'${value.replace(POWERSHELL_QUOTES, (quote) => quote + quote)}'`
    );
  return shellWord(value);
}

/** An option's name, as every shell here (PowerShell too) passes it on as it is. */
const OPTION_NAME = /^--[a-z][a-z-]*$/;

/**
 * What a Windows hint prints for a value no line there carries (a control, bidi formatting: the
 * printed line would be another value once the terminal or terminalSafe had it): the option's
 * name as a placeholder (`--model MODEL`), for the user to fill in; the sentence names the value.
 */
function placeholderAfter(previous: string | undefined): string {
  return previous !== undefined && OPTION_NAME.test(previous)
    ? previous.slice(2).toUpperCase()
    : 'VALUE';
}

/**
 * A command for the user to paste, as a hint prints it (the resume line, list's next page, the
 * price a cap lacks): `program` (`pictor`, or `npm run -s cli --` in a checkout), then `words`,
 * each quoted for the user's shell ({@link shellQuote}); on POSIX a line with a word that needs
 * `printf` is handed whole to `sh -c`, which every fish from 3.0 reads (forEveryFish); on Windows
 * a value no line carries is a placeholder ({@link placeholderAfter}). Every hint goes through
 * here, so none is left for one shell and not another.
 */
export function commandHint(
  program: string,
  words: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string {
  const quote = (word: string, at: number) => {
    if (OPTION_NAME.test(word)) return word;
    if (platform === 'win32' && NOT_CARRIED.test(word)) return placeholderAfter(words[at - 1]);
    return shellQuote(word, platform);
  };
  const line = [program, ...words.map(quote)].join(' ');
  return platform === 'win32' ? line : forEveryFish(line, words);
}
