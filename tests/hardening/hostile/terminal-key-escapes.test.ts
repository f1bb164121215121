/**
 * The CLI shows a character a terminal would not draw by its code (`U+200B`, `U+202E`, `U+E0041`:
 * cli/terminal-text.ts), before its last guard scrubs what it prints of any key (runCli's
 * keySafeIo). A hostile service that echoes the key with such characters between its letters
 * (bidi marks, zero-width spaces, tag characters) then reached the guard as the
 * key's letters with `U+…` between them, which the key's finder did not read: the refusal printed
 * the key, readable to anyone who skips the codes. The finder now reads the CLI's own codes as the
 * characters they stand for (core/secrets/key-echo-views.ts). The command is replaced by one that
 * throws with the echo (a fault the test injects); the guard and the finder are the product's.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../../electron/cli/cli-io';
import { runCli } from '../../../electron/cli/main';

const KEY = 'sk-Zq8vT3mN0pLx4wQ7rB1yH6jK2dF9';

vi.mock('../../../electron/cli/cli-dispatch', () => ({
  dispatch: (argv: readonly string[]): Promise<number> => {
    throw new Error(`the service said: ${argv[0] ?? ''}`);
  },
}));

async function refusal(echo: string): Promise<string> {
  let printed = '';
  const io: CliIo = {
    env: { SERVICE_API_KEY: KEY },
    stdout: (text) => void (printed += text),
    stderr: (text) => void (printed += text),
    interrupt: new AbortController().signal,
  };
  await runCli([echo], io);
  return printed;
}

/** The printed text with every `U+XXXX` code and `\xHH` escape taken out: what a reader skims. */
const skimmed = (text: string) =>
  text.replace(/U\+(?:E00[0-7][0-9A-F]|[0-9A-F]{4})|\\x[0-9A-F]{2}/g, '');

describe('a key echoed with invisible characters between its letters', () => {
  it.each([
    ['left-to-right marks', '\u200e'],
    ['right-to-left overrides', '\u202e'],
    ['isolates', '\u2066'],
    ['zero-width spaces', '\u200b'],
    ['word joiners', '\u2060'],
    ['byte order marks', '\ufeff'],
    ['soft hyphens', '\u00ad'],
    ['tag characters', '\u{e0020}'],
  ])('%s: the refusal shows neither the key nor its letters', async (_name, between) => {
    const printed = await refusal(`oops ${[...KEY].join(between)} end`);
    expect(printed).toContain('the service said');
    expect(skimmed(printed)).not.toContain(KEY);
    expect(skimmed(printed)).not.toContain(KEY.slice(3, 15));
  });
});
