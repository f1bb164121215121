/**
 * The printed lines for Windows, for cmd.exe and for PowerShell. `pictor` there is a batch file
 * (resources/windows/pictor.cmd) that hands its arguments on to Pictor.exe with `%*`, and
 * `curl.exe` a program; a line is written for cmd.exe, and for PowerShell as that same line given
 * to cmd.exe, so one set of rules decides both:
 * - the program splits its command line by the C runtime's rules: a word in double quotes, a `"`
 *   in it as `\"`, the backslashes before a quote (or before the closing one) doubled;
 * - cmd.exe reads the line first. `%NAME%` is replaced by a variable, inside quotes too: each `%`
 *   is written `%%cd:~,%` (an empty slice of the current folder after a lone `%`, Rust's std's
 *   answer to the same problem). `&|<>^()` act outside quotes, where cmd.exe counts every `"` of
 *   the line, from word to word (it knows no `\"`): each is written with a `^` there, and with
 *   `^^^` before `pictor`, whose `%*` reads the line once more. `!NAME!` is replaced only where delayed expansion is on: off by
 *   default, and `/v:off` in the PowerShell line;
 * - no form carries a line break or a control character through cmd.exe (a line feed ends the
 *   command, a pasted TAB or ESC acts on the prompt), nor hides bidi formatting from the reader:
 *   the prompt is then written `--prompt-escaped=…` (prompt-escapes.ts), every such character as
 *   an escape the CLI reads back; any other word with one cannot be written, and
 *   {@link UnwritableCommand} says so.
 * PowerShell reads `cmd /d /v:off /s /c '<the line>'`: nothing expands in single quotes, where a
 * quote is doubled, and so are the typographic single quotes PowerShell also ends strings on
 * (U+2018–U+201B). PowerShell passes the line to cmd.exe as it is, or in double quotes when it
 * holds a space outside them; `/s` strips those, and the line starts with its program's name.
 */
import type { CommandLine, CommandWord } from './command-words';
import { NOT_CARRIED } from './prompt-escapes';

/** A word that holds what no Windows command line carries (see the header). */
export class UnwritableCommand extends Error {
  override readonly name = 'UnwritableCommand';
}

/** A word the C runtime, cmd.exe and PowerShell (inside cmd's line) all take as it is. */
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9_./:=+-]*$/;

/** What cmd.exe acts on outside quotes. */
const CMD_SPECIAL = /[&|<>^()]/;

/** The key's variable as cmd.exe fills it in (PowerShell's `$env:SERVICE_API_KEY` is it too). */
const KEY = '%SERVICE_API_KEY%';

/** The typographic single quotes PowerShell ends a single-quoted string on, and its own. */
const POWERSHELL_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/** One piece of a word: a character as written, or the key's variable. */
const KEY_PIECE = Symbol('key');
type Piece = string | typeof KEY_PIECE;

function piecesOf(word: CommandWord): Piece[] {
  if (typeof word === 'string') return Array.from(word);
  return [...Array.from(word.before), KEY_PIECE, ...Array.from(word.after)];
}

/** The C runtime's quoting of `pieces`: a double-quoted word, `"` as `\"`, backslashes doubled. */
function runtimeQuoted(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = ['"'];
  let backslashes = 0;
  for (const piece of pieces) {
    if (piece === '\\') {
      backslashes += 1;
      continue;
    }
    const escapes = piece === '"' ? 2 * backslashes + 1 : backslashes;
    out.push(...'\\'.repeat(escapes), piece);
    backslashes = 0;
  }
  out.push(...'\\'.repeat(2 * backslashes), '"');
  return out;
}

/**
 * `word` as one argument of a program that cmd.exe starts from a typed line; `batch`: through a
 * batch file's `%*`, which reads the line a second time. `quoted`: whether cmd.exe is inside
 * quotes where the word starts (it counts every `"` of the line, so a word with an odd number of
 * them leaves the next one inside); returned with the word's text for the next word.
 */
function cmdWord(
  word: CommandWord,
  batch: boolean,
  quoted: boolean,
): { text: string; quoted: boolean } {
  const all = typeof word === 'string' ? word : word.before + word.after;
  if (NOT_CARRIED.test(all)) throw new UnwritableCommand('a word holds a control character');
  if (typeof word === 'string' && PLAIN.test(word)) return { text: word, quoted };
  let text = '';
  let inside = quoted;
  for (const piece of runtimeQuoted(piecesOf(word))) {
    if (piece === KEY_PIECE) text += KEY;
    else if (piece === '"') {
      inside = !inside;
      text += piece;
    } else if (piece === '%') text += '%%cd:~,%';
    else if (!inside && CMD_SPECIAL.test(piece)) text += `${batch ? '^^^' : '^'}${piece}`;
    else text += piece;
  }
  return { text, quoted: inside };
}

/** `text` as one PowerShell word that expands nothing. */
function powershellWord(text: string): string {
  return `'${text.replace(POWERSHELL_QUOTES, (quote) => quote + quote)}'`;
}

/**
 * `value` as one PowerShell word of a line that runs the CLI's batch file itself (the CLI's hints):
 * its cmd.exe form in single quotes. PowerShell hands a value on as it is when every space in it
 * is inside its double quotes, so cmd.exe and then Pictor.exe read it as `value`, and a pasted
 * `&` or `%NAME%` stays text. Null where no such form exists: a control, or a `"` (which would
 * leave cmd.exe inside quotes for the next word).
 */
export function powershellArgument(value: string): string | null {
  if (value.includes('"') || NOT_CARRIED.test(value)) return null;
  return powershellWord(cmdWord(value, true, false).text);
}

/** `line` for cmd.exe, or for PowerShell; throws UnwritableCommand (see the header). */
export function windowsLine(line: CommandLine, shell: 'cmd' | 'powershell'): string {
  // The CLI is a batch file there (resources/windows/pictor.cmd); cURL, a program.
  const batch = line.program !== 'curl';
  let cmd = batch ? line.program : 'curl.exe';
  let quoted = false;
  for (const word of line.words) {
    const next = cmdWord(word, batch, quoted);
    cmd += ` ${next.text}`;
    quoted = next.quoted;
  }
  return shell === 'cmd' ? cmd : `cmd /d /v:off /s /c ${powershellWord(cmd)}`;
}
