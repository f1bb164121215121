/**
 * `--prompt-escaped`'s text (shared/text/prompt-escapes.ts): every prompt, escaped, holds no
 * character a Windows line cannot carry and reads back as itself; the CLI takes it as generate's
 * and demo's prompt, refuses a text it cannot read without repeating it, and refuses a prompt that
 * holds the key however it was escaped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/core/command-line/command-line';
import {
  BadEscapes,
  NOT_CARRIED,
  escapePrompt,
  unescapePrompt,
} from '../../../shared/text/prompt-escapes';
import { parseCommand } from '../../support/cli-table';
import { SHELLS, argumentsIn } from '../../support/shells';
import { needing } from '../../support/tools';

/** Every control, DEL, C1, bidi formatting and line separator, and the backslash. */
const SPECIAL = [
  ...Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)),
  ...'\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029',
  '\\',
  '"',
  '🦊',
];

describe('an escaped prompt', () => {
  it('holds no character a Windows line cannot carry, and reads back as written', () => {
    const prompt = fc
      .array(fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme' })))
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(prompt, (text) => {
        const escaped = escapePrompt(text);
        expect(escaped).not.toMatch(NOT_CARRIED);
        expect(unescapePrompt(escaped)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("is written with JSON's escapes", () => {
    expect(escapePrompt('a\nb\tc\r\\n\u001b\u202e')).toBe('a\\nb\\tc\\r\\\\n\\u001b\\u202e');
    expect(unescapePrompt('\\"\\/\\b\\f\\uD83E\\uDD8A "as is"')).toBe('"/\b\f🦊 "as is"');
  });

  it.each(['ends \\', '\\x41', '\\u12', '\\u12g4', '\\U0041', '\\ud83e alone', '\\udd8a alone'])(
    'is refused when it cannot be read: %j',
    (text) => {
      expect(() => unescapePrompt(text)).toThrow(BadEscapes);
    },
  );
});

const env = { HOME: '/home/u' };

function parsed(argv: string[], withEnv: NodeJS.ProcessEnv = env) {
  const command = parseCommand(argv, withEnv);
  if (command.name !== 'generate') throw new Error(`parsed as ${command.name}`);
  return command;
}

describe('generate --prompt-escaped', () => {
  const URL = 'https://api.example.com';
  const refusal = (argv: string[], withEnv: NodeJS.ProcessEnv = env): string => {
    try {
      parseCommand(argv, withEnv);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    throw new Error(`${argv.join(' ')} parsed`);
  };

  it('is the prompt, its escapes read: for generate and for demo', () => {
    const prompt = 'a lighthouse\nat dusk, \\ and "quotes"';
    const escaped = `--prompt-escaped=${escapePrompt(prompt)}`;
    expect(parsed(['generate', escaped, '--base-url', URL]).prompt).toBe(prompt);
    expect(parsed(['demo', '--prompt-escaped', 'two\\nlines']).prompt).toBe('two\nlines');
  });

  it('is refused beside --prompt or the words, and when unreadable, never repeating it', () => {
    const both = ['generate', '--prompt', 'a', '--prompt-escaped', 'b', '--base-url', URL];
    expect(refusal(both)).toMatch(/--prompt or --prompt-escaped, not both/);
    expect(refusal(['generate', 'words', '--prompt-escaped', 'b', '--base-url', URL])).toMatch(
      /takes its prompt once/,
    );
    const bad = refusal(['generate', '--prompt-escaped', 'secret-ish\\q', '--base-url', URL]);
    expect(bad).toMatch(/--prompt-escaped cannot be read/);
    expect(bad).not.toContain('secret-ish');
  });

  it('is refused when it holds the key, however the key is escaped', () => {
    const key = 'sk-live-0123456789abcdef';
    const withKey = { ...env, SERVICE_API_KEY: key };
    const spelt = Array.from(
      key,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const message = refusal(
      ['generate', '--prompt-escaped', `a\\n${spelt.join('')}`, '--base-url', URL],
      withKey,
    );
    expect(message).toMatch(/holds the value of SERVICE_API_KEY/);
    expect(message).not.toContain(key);
  });
});

/** The example README and the help give, as a user types it in any shell. */
const EXAMPLE = 'generate --prompt-escaped "a lighthouse\\nat dusk, 100% \\u201cfoggy\\u201d"';

describe.each(SHELLS)('the documented example, typed into $name', (shell) => {
  it.skipIf(!shell.path)(needing(shell, 'gives generate a prompt of two lines'), () => {
    const words = argumentsIn(shell, EXAMPLE);
    expect(parsed([...words, '--base-url', 'https://api.example.com']).prompt).toBe(
      'a lighthouse\nat dusk, 100% “foggy”',
    );
  });
});
