/**
 * Tests find the programs they run on PATH (tests/support/tools.ts), with a skip that names what
 * is missing, never at the path one system keeps them: `/bin/sh` or `/usr/bin/exiftool` run on one
 * Linux and fail `npm test` with ENOENT on Windows (and exiftool from Homebrew is elsewhere on a
 * Mac). Pictor's own install paths (/usr/bin/pictor, /usr/local/bin/pictor) are what the tests
 * check, not programs they run, and are allowed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles, repositoryPath } from '../../support/source-files';

const CODE = /\.(ts|tsx|mjs|js)$/;
/** A string that is a program's path in a system folder, Pictor's own command excepted. */
const SYSTEM_TOOL =
  /['"`](?:\/usr\/local|\/usr|\/opt\/homebrew|\/opt\/local)?\/s?bin\/(?!pictor['"`])[\w.+-]+['"`]/;

describe('programs the tests run', () => {
  it('are never named by a system path', () => {
    // This file names some on purpose, as examples for the pattern.
    const self = repositoryPath(import.meta.url);
    const files = repositoryFiles(['tests'], CODE).filter((file) => file !== self);
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, at) =>
          SYSTEM_TOOL.test(line) ? [`${file}:${at + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('the pattern finds one, and lets Pictor’s own command and text about it pass', () => {
    for (const path of [
      '/bin/sh',
      '/usr/bin/exiftool',
      '/opt/homebrew/bin/exiftool',
      '/usr/sbin/ip',
    ])
      expect(`execFileSync('${path}', [])`).toMatch(SYSTEM_TOOL);
    expect("expect(installedCommand('linux', {})).toBe('/usr/bin/pictor')").not.toMatch(
      SYSTEM_TOOL,
    );
    expect("'/usr/local/bin/pictor already exists'").not.toMatch(SYSTEM_TOOL);
    expect("'#!/bin/sh\\n'").not.toMatch(SYSTEM_TOOL);
  });
});
