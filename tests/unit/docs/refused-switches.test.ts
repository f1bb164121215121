/**
 * The switches the packaged app refuses, as README.md ("No debugger on the shipped app") and
 * docs/RELIABILITY.md ("Another process of the same user") name them, are the ones
 * app/os/debugger-switches.ts refuses: every switch a page names is refused (a `*` standing for
 * any ending), and every switch the code refuses is named on each page. The pages once said
 * `--debug*` when the code refused three `--debug` switches by name, and the README left out a
 * refused switch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedDebuggerSwitches } from '../../../electron/app/os/debugger-switches';
import { REPO_ROOT } from '../../support/source-files';

const CODE = 'electron/app/os/debugger-switches.ts';
/** Flags the passages name that are not the app's: `npm run dist`'s, where the test build is. */
const BUILD_FLAGS = new Set(['--release']);

/** The switches a passage names, as written (`--inspect*` keeps its star). */
function switchesIn(passage: string): string[] {
  const named = [...passage.matchAll(/`(--[a-z-]+\*?)`/g)].map(([, name]) => name!);
  return [...new Set(named)].filter((name) => !BUILD_FLAGS.has(name));
}

/** The passage of `file` from the line starting with `start` to the next line starting `- `/`| `. */
function passage(file: string, start: string): string {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
  const first = lines.findIndex((line) => line.startsWith(start));
  if (first === -1) return '';
  const rest = lines.slice(first + 1).findIndex((line) => /^(- |\| |$)/.test(line));
  return lines.slice(first, rest === -1 ? undefined : first + 1 + rest).join('\n');
}

/** Whether the packaged app refuses `written` (a star: some ending, and the bare prefix's). */
function refused(written: string): boolean {
  const tried = written.endsWith('*') ? `${written.slice(0, -1)}-anything` : written;
  return refusedDebuggerSwitches([tried], 'linux').length === 1;
}

/** The names and prefixes the code refuses, read from its two lists. */
function codeSwitches(): string[] {
  const text = readFileSync(join(REPO_ROOT, CODE), 'utf8');
  const names = /REFUSED_NAMES = new Set\(\[([^\]]*)\]/.exec(text)?.[1] ?? '';
  const prefixes = /REFUSED_PREFIXES = \[([^\]]*)\]/.exec(text)?.[1] ?? '';
  return [
    ...[...names.matchAll(/'([a-z-]+)'/g)].map(([, name]) => `--${name}`),
    ...[...prefixes.matchAll(/'([a-z-]+)'/g)].map(([, name]) => `--${name}*`),
  ];
}

/** Whether the switches a page names cover `refusedSwitch` (itself, or a starred prefix of it). */
function covers(named: readonly string[], refusedSwitch: string): boolean {
  const bare = refusedSwitch.replace(/-?\*$/, '');
  return named.some((name) =>
    name.endsWith('*')
      ? bare.startsWith(name.slice(0, -1).replace(/-$/, ''))
      : name === refusedSwitch,
  );
}

describe.each([
  ['README.md', '- No debugger on the shipped app'],
  ['docs/RELIABILITY.md', '| **Another process of the same user**'],
])('the switches %s says the app refuses', (file, start) => {
  const named = switchesIn(passage(file, start));

  it('are refused, and are every switch the code refuses', () => {
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !refused(name))).toEqual([]);
    const refusedByCode = codeSwitches();
    expect(refusedByCode.length).toBeGreaterThan(15);
    expect(refusedByCode.filter((name) => !covers(named, name))).toEqual([]);
  });
});

describe('the reading of the pages', () => {
  it('takes switches and stars as written, and tells a refused one from another', () => {
    expect(switchesIn('`--inspect*`, `--debug` and `--js-flags` (`SSLKEYLOGFILE`)')).toEqual([
      '--inspect*',
      '--debug',
      '--js-flags',
    ]);
    expect(refused('--inspect*')).toBe(true);
    expect(refused('--debug*')).toBe(true);
    expect(refused('--enable-logging*')).toBe(false);
    expect(covers(['--net-log-*'], '--net-log-*')).toBe(true);
    expect(covers(['--inspect*'], '--inspect-brk')).toBe(true);
    expect(covers(['--inspect'], '--inspect-brk')).toBe(false);
  });
});
