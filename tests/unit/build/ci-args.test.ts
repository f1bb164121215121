/**
 * The one parser of CI's scripts (electron/build/ci-args.mjs): each option absent, present and
 * repeated; command words, and the words a command passes on; every refusal a sentence. The
 * lines are the ones .github/workflows/ci.yml gives (`--release-dir` absent was read as the node
 * binary's path before this parser).
 */
import { describe, expect, it } from 'vitest';
import { parseCiArgs } from '../../../electron/build/ci-args.mjs';

const INSTALL = {
  name: 'ci:install',
  usage: 'npm run ci:install -- [--release-dir DIR] [--uninstall]',
  options: { 'release-dir': { type: 'string' }, uninstall: { type: 'boolean' } },
} as const;

const INSTALLED = {
  name: 'ci:installed',
  usage: 'npm run ci:installed -- <help|self-test> [--no-display] [--executable PATH]',
  options: { 'no-display': { type: 'boolean' }, executable: { type: 'string' } },
  commands: ['help', 'self-test'],
} as const;

const UPDATE = {
  name: 'ci:update-test',
  usage: 'npm run ci:update-test -- <previous [dist args…] | publish | check>',
  options: {},
  commands: ['previous', 'publish', 'check'],
  passOn: ['previous'],
} as const;

const DIST = {
  name: 'dist',
  usage: 'npm run dist -- [--release] [--x64] [--arm64]',
  options: { release: { type: 'boolean' }, x64: { type: 'boolean' }, arm64: { type: 'boolean' } },
  anyWords: true,
} as const;

function problem(result: { ok: boolean; problem?: string }): string {
  expect(result.ok).toBe(false);
  return result.problem ?? '';
}

describe('parseCiArgs: options', () => {
  it('absent: undefined, never the next word of some other line', () => {
    const result = parseCiArgs(INSTALL, []);
    expect(result).toMatchObject({ ok: true, values: {}, command: null, positionals: [] });
    if (result.ok) {
      expect(result.values['release-dir']).toBeUndefined();
      expect(result.values.uninstall).toBeUndefined();
    }
  });

  it('present: a value after a space or an equals sign, a switch as true', () => {
    expect(parseCiArgs(INSTALL, ['--release-dir', 'release-previous'])).toMatchObject({
      ok: true,
      values: { 'release-dir': 'release-previous' },
    });
    expect(parseCiArgs(INSTALL, ['--release-dir=release-previous', '--uninstall'])).toMatchObject({
      ok: true,
      values: { 'release-dir': 'release-previous', uninstall: true },
    });
  });

  it('repeated: refused, whichever the values', () => {
    expect(problem(parseCiArgs(INSTALL, ['--uninstall', '--uninstall']))).toBe(
      'ci:install was given --uninstall twice: give it once.',
    );
    expect(problem(parseCiArgs(INSTALL, ['--release-dir', 'a', '--release-dir', 'b']))).toContain(
      'twice',
    );
  });

  it('unknown, misspelt or short: refused with a sentence naming it', () => {
    expect(problem(parseCiArgs(INSTALL, ['--relase-dir', 'x']))).toBe(
      'ci:install does not know the option --relase-dir.',
    );
    expect(problem(parseCiArgs(INSTALL, ['-u']))).toBe('ci:install does not know the option -u.');
  });

  it('a value missing, or an option where the value should be: refused', () => {
    expect(problem(parseCiArgs(INSTALL, ['--release-dir']))).toBe(
      'ci:install: --release-dir needs a value (--release-dir VALUE).',
    );
    expect(problem(parseCiArgs(INSTALL, ['--release-dir', '--uninstall']))).toContain(
      'needs a value',
    );
  });

  it('a value given to a switch: refused', () => {
    expect(problem(parseCiArgs(INSTALL, ['--uninstall=yes']))).toBe(
      'ci:install: --uninstall takes no value (it was given "yes").',
    );
  });

  it('a word a script without words does not take: refused', () => {
    expect(problem(parseCiArgs(INSTALL, ['uninstall']))).toBe(
      'ci:install takes no word like "uninstall".',
    );
  });
});

describe('parseCiArgs: command words', () => {
  it('help --no-display, and the option before the word', () => {
    for (const line of [
      ['help', '--no-display'],
      ['--no-display', 'help'],
    ])
      expect(parseCiArgs(INSTALLED, line)).toMatchObject({
        ok: true,
        command: 'help',
        values: { 'no-display': true },
        rest: [],
      });
    expect(parseCiArgs(INSTALLED, ['self-test', '--no-display'])).toMatchObject({
      ok: true,
      command: 'self-test',
    });
  });

  it('no word, an unknown word, or two words: refused', () => {
    expect(problem(parseCiArgs(INSTALLED, ['--no-display']))).toBe(
      'ci:installed needs one of: help, self-test.',
    );
    expect(problem(parseCiArgs(INSTALLED, ['selftest']))).toBe(
      'ci:installed does not know "selftest": it takes one of help, self-test.',
    );
    expect(problem(parseCiArgs(INSTALLED, ['help', 'self-test']))).toBe(
      'ci:installed takes one word, not also "self-test".',
    );
    expect(problem(parseCiArgs(INSTALLED, ['help', '--no-display', '--no-display']))).toContain(
      'twice',
    );
  });

  it('publish and check take nothing after them', () => {
    expect(parseCiArgs(UPDATE, ['publish'])).toMatchObject({ ok: true, command: 'publish' });
    expect(parseCiArgs(UPDATE, ['check'])).toMatchObject({ ok: true, command: 'check', rest: [] });
    expect(problem(parseCiArgs(UPDATE, ['check', '--x64']))).toBe(
      'ci:update-test does not know the option --x64.',
    );
  });

  it('previous <dist args> passes them on untouched, repeated or not', () => {
    expect(parseCiArgs(UPDATE, ['previous', '--x64', '--arm64'])).toMatchObject({
      ok: true,
      command: 'previous',
      rest: ['--x64', '--arm64'],
    });
    expect(parseCiArgs(UPDATE, ['previous'])).toMatchObject({ ok: true, rest: [] });
    expect(parseCiArgs(UPDATE, ['previous', '--x64', '--x64'])).toMatchObject({
      ok: true,
      rest: ['--x64', '--x64'],
    });
  });

  it('an option before the passing-on word is still the script’s own', () => {
    expect(problem(parseCiArgs(UPDATE, ['--x64', 'previous']))).toBe(
      'ci:update-test does not know the option --x64.',
    );
  });

  it('a script that takes any words (electron-builder targets) keeps them', () => {
    expect(parseCiArgs(DIST, ['--release', '--x64', '--arm64'])).toMatchObject({
      ok: true,
      values: { release: true, x64: true, arm64: true },
    });
    expect(parseCiArgs(DIST, ['--x64', 'deb'])).toMatchObject({ ok: true, positionals: ['deb'] });
    expect(problem(parseCiArgs(DIST, ['--x86']))).toBe('dist does not know the option --x86.');
  });
});
