/**
 * generate's prompt, from `--prompt TEXT` or from the words after the command
 * (`pictor generate "a lighthouse at dusk"`). Several words are one prompt, joined by single
 * spaces (`pictor generate a lighthouse at dusk`); quoting is the shell's job, and a prompt that
 * starts with `-` goes after `--`. Both ways at once is refused: which one would be meant?
 * `--prompt-escaped TEXT` is the prompt written with JSON's backslash escapes (`\n` a line break;
 * shared/text/prompt-escapes.ts): on Windows the only way a prompt of several lines reaches the
 * command (its batch file carries no line break, and the binary's standard input is always
 * empty), and the way "Copy as command" writes one there.
 *
 * The words after a command used to be refused because a key pasted in the wrong place would be
 * one; now they are sent to a service as the prompt, kept in the history and written into the
 * images. So a prompt that holds SERVICE_API_KEY's value is refused (however it was given), and
 * so is a word that looks like a key rather than like language: a usage error, exit 2, sent
 * nowhere, and never repeating what was typed.
 */
import { looksLikeKey, UsageError } from '../core/command-line';
import { BadEscapes, unescapePrompt } from '../../shared/text/prompt-escapes';

/** A key is read as one only from this length: shorter values (the demo's `demo`) are words. */
const SHORTEST_KEY = 8;

/** Where the prompt came from, for what the messages say. */
export interface PromptSources {
  /** The command, as typed: `generate` or `demo`. */
  readonly command: string;
  /** --prompt's value, if given. */
  readonly option: string | undefined;
  /** --prompt-escaped's value, if given. */
  readonly escaped?: string | undefined;
  /** The words after the command. */
  readonly words: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The prompt (trimmed), or null when none was given.
 * @throws UsageError for both ways at once, an empty prompt, or one that holds a key.
 */
export function promptOf(sources: PromptSources): string | null {
  const { command, words, env } = sources;
  const option = optionPrompt(sources);
  if (option !== undefined && words.length > 0) {
    throw new UsageError(
      `${command} takes its prompt once: as the words after ${command}, or with --prompt, not both.`,
    );
  }
  // Not repeated in any message: it may be the key pasted in the wrong place.
  if (words.some(looksLikeKey)) {
    throw new UsageError(
      `A word after ${command} looks like an API key, so nothing was sent. Keys go in SERVICE_API_KEY; if the word really belongs to your prompt, give the prompt with --prompt.`,
    );
  }
  const prompt = (option ?? words.join(' ')).trim();
  if (option === undefined && words.length === 0) return null;
  if (prompt === '') throw new UsageError(`${command}'s prompt is empty: describe the picture.`);
  const key = env.SERVICE_API_KEY?.trim() ?? '';
  if (key.length >= SHORTEST_KEY && prompt.includes(key)) {
    throw new UsageError(
      'The prompt holds the value of SERVICE_API_KEY, so nothing was sent: a key never goes into a prompt.',
    );
  }
  return prompt;
}

/** --prompt's or --prompt-escaped's prompt (read back), if one was given; both are refused. */
function optionPrompt({ command, option, escaped }: PromptSources): string | undefined {
  if (escaped === undefined) return option;
  if (option !== undefined)
    throw new UsageError(`${command} takes --prompt or --prompt-escaped, not both.`);
  try {
    return unescapePrompt(escaped);
  } catch (error) {
    if (!(error instanceof BadEscapes)) throw error;
    // Not repeated: it may be the key pasted in the wrong place.
    throw new UsageError(`--prompt-escaped cannot be read: ${error.message}.`);
  }
}
