/**
 * The packaged scripts start `pictor` only through runCommand with an invocation from
 * installed-app.ts, which carries the spawn options its line needs: a real process gets its
 * arguments as built, and on Windows a batch file with a space in its path runs through cmd.exe.
 * No other packaged script builds a cmd.exe line of its own (one once did without the verbatim
 * flag, so cmd.exe got Node's \" escapes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { commandLine } from '../../e2e/packaged/installed-app';
import { runCommand } from '../../e2e/packaged/run-command';
import { findOnPath, needing, type Tool } from '../../support/tools';
import { TempFolders } from '../../support/temp-folders';

const PACKAGED = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'e2e',
  'packaged',
);

const cmd: Tool =
  process.platform === 'win32'
    ? { name: 'cmd.exe', path: findOnPath('cmd'), missing: 'cmd is not on PATH' }
    : { name: 'cmd.exe', path: null, missing: 'cmd.exe runs only on Windows' };

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

describe('runCommand', () => {
  it('runs a program with its arguments as built, and reports its exit code and output', async () => {
    const script =
      'console.log(JSON.stringify(process.argv.slice(1))); console.error("e"); process.exit(3)';
    const result = await runCommand(commandLine(process.execPath, ['-e', script, 'a b', 'c"d']));
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual(['a b', 'c"d']);
    expect(result.output).toContain('e\n');
  });

  it('says why a program could not start', async () => {
    const result = await runCommand(commandLine(path.join(tmpdir(), 'no-such-pictor'), ['help']));
    expect(result.code).toBeNull();
    expect(result.output).toMatch(/ENOENT/);
  });

  it.skipIf(!cmd.path)(
    needing(cmd, 'runs a batch file in a folder with a space through cmd.exe, exit code kept'),
    async () => {
      const dir = await dirs.make('run command');
      await mkdir(path.join(dir, 'bin'));
      const batch = path.join(dir, 'bin', 'pictor.cmd');
      await writeFile(batch, '@echo off\r\necho args:%*\r\nexit /b 2\r\n');
      const result = await runCommand(commandLine(batch, ['list', '--jsno', 'a b']));
      expect(result.output).toContain('args:list --jsno "a b"');
      expect(result.code).toBe(2);
    },
  );
});

describe('the packaged scripts', () => {
  it('build a cmd.exe line only in installed-app.ts, which sets the verbatim flag with it', () => {
    const names = readdirSync(PACKAGED).filter((name) => name.endsWith('.ts'));
    expect(names).toContain('smoke.ts');
    const building = names.filter((name) =>
      /['"`]cmd(?:\.exe)?['"`]|['"`]\/c['"`]/i.test(
        readFileSync(path.join(PACKAGED, name), 'utf8'),
      ),
    );
    expect(building).toEqual(['installed-app.ts']);
  });
});
