/**
 * The CLI's last guard (runCli's keySafeIo, electron/cli/main.ts): every line a command prints, on
 * stdout or stderr, and the refusal of a command that throws, is scrubbed of every key variable's
 * value in each encoding a service may echo it in. The commands' own messages never print the key
 * (no-key-echo.test.ts), so no real command reaches this guard: here the command is replaced by
 * one that prints the key on purpose (a fault the test injects), once as each encoding, and the
 * scanner is the test's own (tests/hardening/key-and-bodies/key-encodings.ts), not the product's.
 * The same command without a key in the environment prints every encoding as it was given, so the
 * guard is what takes them out.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../electron/cli/cli-io';
import { runCli } from '../../../electron/cli/main';
import {
  ENCODING_NAMES,
  ENCODINGS,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';

const KEY = 'sk-Zq8vT3mN0pLx4wQ7rB1yH6jK2dF9';
const PLANTED = 'pictor-planted-key-echo';

vi.mock('../../../electron/cli/cli-dispatch', () => ({
  dispatch: (argv: readonly string[], io: CliIo): Promise<number> => {
    const echo = argv[0] ?? '';
    if (argv[1] === 'throw') throw new Error(`the service said: ${echo}`);
    io.stdout(`task ${echo} accepted\n`);
    io.stderr(`warning: ${echo}\n`);
    return Promise.resolve(0);
  },
}));

/** Runs the planted command with `argv`; what it printed on both streams. */
async function printed(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  const lines: string[] = [];
  const io: CliIo = {
    env,
    stdout: (text) => void lines.push(text),
    stderr: (text) => void lines.push(text),
    interrupt: new AbortController().signal,
  };
  await runCli(argv, io);
  return lines.join('');
}

describe("the CLI's last guard scrubs the key from whatever a command prints", () => {
  const scanner = keyScanner(KEY);
  const cases = ENCODING_NAMES.flatMap((name) =>
    [0, 1, 2].map((shift) => [name, shift, ENCODINGS[name]?.(KEY, shift) ?? ''] as const),
  );

  it.each(cases)('%s (shift %d), printed on stdout and stderr', async (_name, _shift, echo) => {
    const bare = await printed([echo], {});
    expect(scanner.leaks(bare), 'the planted command prints the echo').not.toEqual([]);
    const guarded = await printed([echo], { SERVICE_API_KEY: KEY });
    expect(guarded).toContain('accepted');
    expect(scanner.leaks(guarded)).toEqual([]);
  });

  /**
   * A refusal's text is made safe for the terminal first: a NUL is written as the four characters
   * `\x00` and a zero-width space as `U+200B`, so a UTF-16 or zero-width echo reaches the guard as
   * the key's letters with those between them, a form the scanner reads once they are taken out.
   */
  const readable = (text: string) => text.replaceAll('\\x00', '').replace(/U\+[0-9A-F]{4}/g, '');

  it.each(cases)('%s (shift %d), in the refusal of a command that throws', async (_n, _s, echo) => {
    const bare = await printed([echo, 'throw'], {});
    expect(scanner.leaks(readable(bare)), 'the refusal repeats the echo').not.toEqual([]);
    const guarded = await printed([echo, 'throw'], { SERVICE_API_KEY: KEY });
    expect(scanner.leaks(guarded)).toEqual([]);
    expect(scanner.leaks(readable(guarded))).toEqual([]);
  });

  /**
   * A compare's or an MCP server's keys come from PICTOR_KEY_<PROVIDER> (key-variables.ts), beside
   * or instead of SERVICE_API_KEY: each is scrubbed, a provider's the commands do not know yet too.
   */
  const OTHER = 'r8_Wc5nE1uV7sG3aKp0xYt4Lm9Qd2J';
  it.each(cases)('%s (shift %d), a provider key beside SERVICE_API_KEY', async (_n, _s, echo) => {
    for (const env of [
      { SERVICE_API_KEY: OTHER, PICTOR_KEY_FAL: KEY },
      { PICTOR_KEY_REPLICATE: OTHER, PICTOR_KEY_NEWCOMER: ` ${KEY}\n` },
    ]) {
      const guarded = await printed([echo], env);
      expect(guarded).toContain('accepted');
      expect(scanner.leaks(guarded)).toEqual([]);
      const refused = await printed([echo, 'throw'], env);
      expect(scanner.leaks(readable(refused))).toEqual([]);
    }
  });

  it('leaves a line without the key as it was', async () => {
    expect(await printed([PLANTED], { SERVICE_API_KEY: KEY })).toBe(
      `task ${PLANTED} accepted\nwarning: ${PLANTED}\n`,
    );
  });
});
