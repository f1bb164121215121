/**
 * A Windows checkout gets the same bytes as a Linux one: every text file is LF in the repository
 * and in the working tree on every OS (.gitattributes), except cmd.exe's batch files, which are
 * CRLF when checked out; images and databases are binary (never converted). Without this, git on
 * a Windows runner checks out CRLF and `prettier --check` fails every file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { needing, tool } from '../../support/tools';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FOUND_GIT = tool('git');
/** git, in a git checkout (a source archive has no index to read). */
const GIT = existsSync(path.join(ROOT, '.git'))
  ? FOUND_GIT
  : { ...FOUND_GIT, path: null, missing: 'not a git checkout' };

/** `git ls-files --eol`: index eol, working-tree eol and attributes of each tracked file. */
function eolTable(): { index: string; attr: string; file: string }[] {
  const text = execFileSync(GIT.path ?? 'git', ['ls-files', '--eol'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [info = '', file = ''] = line.split('\t');
      const [index = '', , ...attr] = info.trim().split(/\s+/);
      return { index, attr: attr.join(' '), file };
    });
}

describe.skipIf(!GIT.path)(needing(GIT, 'line endings'), () => {
  it('checks out every text file as LF, batch files as CRLF', () => {
    const wrong = eolTable().filter(({ index, attr, file }) => {
      if (index === 'i/-text' || index === 'i/none') return false;
      const wanted = /\.(cmd|bat)$/i.test(file) ? 'attr/text eol=crlf' : 'attr/text=auto eol=lf';
      return index !== 'i/lf' || attr !== wanted;
    });
    expect(wrong).toEqual([]);
  });

  it('marks images and databases binary', () => {
    const binaries = eolTable().filter(({ file }) => /\.(png|ico|icns|sqlite)$/i.test(file));
    expect(binaries.length).toBeGreaterThan(0);
    expect(binaries.filter(({ attr }) => attr !== 'attr/-text')).toEqual([]);
  });
});
