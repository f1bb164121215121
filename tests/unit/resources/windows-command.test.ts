/**
 * The `pictor` command on Windows: bin\pictor.cmd, alone in its folder, which the NSIS installer
 * puts on the user's PATH and its uninstaller takes off (resources/windows/installer.nsh, wired
 * in electron-builder.yml). NSIS cannot run here; its text is checked for what makes it right.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const NSH = readFileSync(path.join(ROOT, 'resources', 'windows', 'installer.nsh'), 'utf8');
const CONFIG = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
  win: { extraFiles?: { from: string; to: string }[] };
  nsis: { include?: string; perMachine?: boolean };
};

/** The body of `!macro name` … `!macroend`. */
function macro(name: string): string {
  const match = new RegExp(`^!macro ${name}\\n([\\s\\S]*?)^!macroend`, 'm').exec(NSH);
  if (!match?.[1]) throw new Error(`no macro ${name} in installer.nsh`);
  return match[1];
}

/** A macro with the defines and macros it uses written out (one level, as NSIS would). */
function expanded(name: string): string {
  const defines = new Map(
    [...NSH.matchAll(/^!define (\w+) (['"])(.*)\2$/gm)].map((match) => [match[1], match[3]]),
  );
  return macro(name)
    .replace(/!insertmacro (\w+)/g, (_match, inner: string) => macro(inner))
    .replace(/\$\{(\w+)\}/g, (whole, define: string) => defines.get(define) ?? whole);
}

describe('the Windows installer and the pictor command', () => {
  it('ships pictor.cmd in bin\\ and includes installer.nsh in a per-user installer', () => {
    expect(CONFIG.win.extraFiles).toContainEqual({
      from: 'resources/windows/pictor.cmd',
      to: 'bin/pictor.cmd',
    });
    expect(CONFIG.nsis.include).toBe('resources/windows/installer.nsh');
    // A per-user install: the user's own PATH (HKCU) is the one to change.
    expect(CONFIG.nsis.perMachine).toBe(false);
  });

  it('adds <install folder>\\bin to the user’s Path on install, keeping the others', () => {
    const install = expanded('customInstall');
    expect(install).toContain('SetEnvironmentVariable(t "PICTOR_BIN", t "$INSTDIR\\bin")');
    expect(install).toContain("CurrentUser.CreateSubKey('Environment')");
    expect(install).not.toContain('LocalMachine');
    expect(install).toContain("GetValue('Path', '', 'DoNotExpandEnvironmentNames')");
    expect(install).toContain("SetValue('Path', (($$others + $$dir) -join ';'), 'ExpandString')");
    expect(install).toContain('${WM_SETTINGCHANGE} 0 "STR:Environment"');
  });

  it('takes exactly that entry off on uninstall, and keeps it through an update', () => {
    const uninstall = expanded('customUnInstall');
    expect(uninstall).toMatch(/^\s*\$\{ifNot\} \$\{isUpdated\}/);
    expect(uninstall).toContain("Where-Object { $$_ -ne '' -and $$_.TrimEnd('\\') -ne $$dir }");
    expect(uninstall).toContain("SetValue('Path', ($$others -join ';'), 'ExpandString')");
    expect(uninstall).toContain('${WM_SETTINGCHANGE} 0 "STR:Environment"');
  });

  it('passes the folder to PowerShell through the environment, never inside the script', () => {
    for (const name of ['customInstall', 'customUnInstall']) {
      const script = /`([^`]*)`/.exec(expanded(name))?.[1] ?? '';
      expect(script, name).toContain('$$env:PICTOR_BIN');
      expect(script, name).not.toContain('$INSTDIR');
      // Every PowerShell `$` is written `$$`, so NSIS leaves it alone.
      expect(script.replace(/\$\$/g, '').replace(/\$SYSDIR/g, ''), name).not.toContain('$');
    }
  });
});
