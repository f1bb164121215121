/**
 * resources/windows/installer.nsh (electron-builder.yml `nsis.include`) compiled by makensis
 * inside the script electron-builder would generate around it (tests/support/nsis-script.ts),
 * with electron-builder's flags: it compiles with no warning (`-WX`, as electron-builder runs
 * makensis), defines the macros the installer and uninstaller insert, and a copy with a syntax
 * error or without its uninstall macro fails. Needs makensis (Debian's `nsis`; .ci/run installs
 * it); skipped, saying so, where it is missing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileNsis, nsisScript } from '../../support/nsis-script';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MAKENSIS = spawnSync('makensis', ['-VERSION']).status === 0 ? 'makensis' : null;
const REQUIRED = ['customInstall', 'customUnInstall'];
const work = tempFolderSync('nsis');
const payload = path.join(work, 'Pictor.exe');
writeFileSync(payload, 'stand-in Pictor.exe\n');

afterAll(() => removeFolderSync(work));

/** The include electron-builder.yml names. */
function includePath(): string {
  const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
    nsis?: { include?: string };
  };
  return path.join(ROOT, config.nsis?.include ?? 'no nsis.include in electron-builder.yml');
}

/** `text` compiled as the include; the installer's path when it compiled. */
function compile(name: string, text: string) {
  const include = path.join(work, `${name}.nsh`);
  writeFileSync(include, text);
  const out = path.join(work, `${name}-setup.exe`);
  return {
    ...compileNsis(MAKENSIS ?? 'makensis', nsisScript(include, payload, REQUIRED), out),
    out,
  };
}

describe.skipIf(!MAKENSIS)(
  MAKENSIS
    ? 'the Windows installer include'
    : 'the Windows installer include (skipped: makensis is not installed; apt-get install nsis)',
  () => {
    const original = readFileSync(includePath(), 'utf8');

    it('compiles with no warning inside the installer electron-builder would generate', () => {
      const result = compile('installer', original);
      expect(result.code, result.output).toBe(0);
      expect(statSync(result.out).size).toBeGreaterThan(0);
      expect(result.output).toMatch(/Uninstall: .*\d+ instructions/);
    });

    it('a syntax error in it fails the compile', () => {
      const broken = original.replace('${endIf}', '${endIff}');
      expect(broken).not.toBe(original);
      const result = compile('broken', broken);
      expect(result.code).not.toBe(0);
    });

    it('an unknown instruction in it fails the compile', () => {
      const broken = original.replace('Pop $0', 'Popp $0');
      expect(broken).not.toBe(original);
      expect(compile('unknown', broken).code).not.toBe(0);
    });

    it('without its uninstall macro the compile fails (the Path entry would outlive the app)', () => {
      const without = original.replace('!macro customUnInstall', '!macro pictorUnused');
      expect(without).not.toBe(original);
      const result = compile('without', without);
      expect(result.code).not.toBe(0);
      expect(result.output).toContain('defines no customUnInstall macro');
    });
  },
);
