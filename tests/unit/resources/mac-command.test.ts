/**
 * The `pictor` command on macOS (resources/mac/pictor.sh, Contents/Resources/bin/pictor in the
 * bundle), run through the link "Install Command Line Tool…" makes, in front of a stand-in app
 * binary that prints the arguments it got: it finds the bundle through absolute and relative
 * links and passes every argument as typed. A copy that does not follow the link fails.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { printedArgs, writeArgPrinter } from '../../support/arg-printer';
import { needing, posixShell } from '../../support/tools';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const WRAPPER = readFileSync(path.join(ROOT, 'resources', 'mac', 'pictor.sh'), 'utf8');
const SH = posixShell();
const TYPED = ['list', '--json', 'it\'s "quoted" $HOME *', '', 'two\nlines'];

let work = '';

/** A bundle with the wrapper and a stand-in binary; returns the wrapper's path. */
function bundle(name: string, wrapper: string): string {
  const contents = path.join(work, name, 'Applications', 'Pictor.app', 'Contents');
  mkdirSync(path.join(contents, 'MacOS'), { recursive: true });
  mkdirSync(path.join(contents, 'Resources', 'bin'), { recursive: true });
  const binary = path.join(contents, 'MacOS', 'Pictor');
  writeArgPrinter(binary);
  const script = path.join(contents, 'Resources', 'bin', 'pictor');
  writeFileSync(script, wrapper);
  chmodSync(script, 0o755);
  return script;
}

function run(command: string): { status: number | null; args: string[] } {
  const result = spawnSync(command, TYPED, { encoding: 'utf8' });
  return { status: result.status, args: printedArgs(result.stdout) };
}

describe.skipIf(!SH.path)(needing(SH, 'the macOS pictor command'), () => {
  beforeAll(() => {
    work = tempFolderSync('mac-command');
  });
  afterAll(() => {
    removeFolderSync(work);
  });

  it('starts the bundle’s binary through /usr/local/bin/pictor, arguments as typed', () => {
    const script = bundle('good', WRAPPER);
    const bin = path.join(work, 'good', 'usr', 'local', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(script, path.join(bin, 'pictor'));
    expect(run(path.join(bin, 'pictor'))).toEqual({ status: 0, args: TYPED });
    // A relative link to that link (as a user or a tool might make one).
    symlinkSync(path.join('usr', 'local', 'bin', 'pictor'), path.join(work, 'good', 'p'));
    expect(run(path.join(work, 'good', 'p'))).toEqual({ status: 0, args: TYPED });
  });

  it('catches a script that does not follow the link (so the check above can fail)', () => {
    const naive = WRAPPER.replace(/while \[ -L[\s\S]*?\ndone\n/, '');
    expect(naive).not.toBe(WRAPPER);
    const script = bundle('naive', naive);
    const bin = path.join(work, 'naive', 'usr', 'local', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(script, path.join(bin, 'pictor'));
    expect(run(path.join(bin, 'pictor')).status).not.toBe(0);
  });

  it('is what electron-builder.yml puts at Contents/Resources/bin/pictor', () => {
    const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
      mac: { extraResources?: { from: string; to: string }[] };
    };
    expect(config.mac.extraResources).toContainEqual({
      from: 'resources/mac/pictor.sh',
      to: 'bin/pictor',
    });
  });
});
