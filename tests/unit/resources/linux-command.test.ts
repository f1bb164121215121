/**
 * The `pictor` command on Linux (resources/linux/pictor.sh, /usr/bin/pictor in the deb and rpm),
 * run here through a link as the packages install it, in front of a stand-in binary that prints
 * the arguments it got: with no display it adds Chromium's headless platform before them, with
 * an X11 or Wayland display it adds nothing, and every argument arrives as it was typed. A copy
 * with the classic quoting mistake fails the same checks. The packages' scripts link
 * /usr/bin/pictor to the wrapper and remove that link again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { printedArgs, writeArgPrinter } from '../../support/arg-printer';
import { needing, pathOf, posixShell, tool } from '../../support/tools';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const LINUX = path.join(ROOT, 'resources', 'linux');
const WRAPPER = readFileSync(path.join(LINUX, 'pictor.sh'), 'utf8');
const SH = posixShell();
const BASH = tool('bash');

/** Arguments a user may type: spaces, both quotes, `$`, a glob, an empty one, a newline, UTF-8. */
const TYPED = [
  'generate',
  '--prompt',
  'a "quoted" lighthouse, it\'s $HOME * `id`',
  '',
  'two\nlines',
  '--data-dir',
  '/tmp/my library/Pictor ✓',
];

let work = '';

/** An install folder with the wrapper at bin/pictor and a stand-in binary, linked from "usr/bin". */
function install(name: string, wrapper: string): string {
  const app = path.join(work, name, 'opt', 'Pictor');
  mkdirSync(path.join(app, 'bin'), { recursive: true });
  mkdirSync(path.join(work, name, 'usr', 'bin'), { recursive: true });
  writeArgPrinter(path.join(app, 'pictor'));
  writeFileSync(path.join(app, 'bin', 'pictor'), wrapper);
  chmodSync(path.join(app, 'bin', 'pictor'), 0o755);
  const link = path.join(work, name, 'usr', 'bin', 'pictor');
  symlinkSync(path.join(app, 'bin', 'pictor'), link);
  return link;
}

function run(command: string, display: Record<string, string>): string[] {
  const result = spawnSync(command, TYPED, {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...display },
  });
  expect(result.status, result.stderr).toBe(0);
  return printedArgs(result.stdout);
}

const HEADLESS = ['--ozone-platform=headless', '--disable-gpu'];

describe.skipIf(!SH.path)(needing(SH, 'the Linux pictor command'), () => {
  let command = '';
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'pictor-linux-command-'));
    command = install('good', WRAPPER);
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('adds the headless platform and no GPU before the arguments when there is no display', () => {
    expect(run(command, {})).toEqual([...HEADLESS, ...TYPED]);
    expect(run(command, { DISPLAY: '', WAYLAND_DISPLAY: '' })).toEqual([...HEADLESS, ...TYPED]);
  });

  it('adds nothing with an X11 or a Wayland display', () => {
    expect(run(command, { DISPLAY: ':0' })).toEqual(TYPED);
    expect(run(command, { WAYLAND_DISPLAY: 'wayland-0' })).toEqual(TYPED);
  });

  it('finds the binary through any chain of links to it', () => {
    const again = path.join(work, 'again');
    symlinkSync(command, again);
    expect(run(again, { DISPLAY: ':0' })).toEqual(TYPED);
  });

  it('is valid POSIX sh', () => {
    expect(() => execFileSync(pathOf(SH), ['-n', path.join(LINUX, 'pictor.sh')])).not.toThrow();
  });

  it('catches a wrapper that splits the arguments (so the checks above can fail)', () => {
    const broken = install('broken', WRAPPER.replaceAll('"$@"', '$*'));
    expect(run(broken, {})).not.toEqual([...HEADLESS, ...TYPED]);
  });

  it('catches a wrapper that ignores the display', () => {
    const always = install('always', WRAPPER.replace('[ -z "${WAYLAND_DISPLAY:-}" ]', 'true'));
    expect(run(always, { WAYLAND_DISPLAY: 'wayland-0' })).not.toEqual(TYPED);
  });
});

/** A package script as electron-builder writes it (FpmTarget.js writeConfigFile's macros). */
function rendered(template: string): string {
  const values: Record<string, string> = { executable: 'pictor', sanitizedProductName: 'Pictor' };
  return readFileSync(path.join(LINUX, template), 'utf8').replace(
    /\$\{([a-zA-Z]+)\}/g,
    (_match, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`Macro ${name} is not defined`);
      return value;
    },
  );
}

/**
 * Runs the after-remove `script` as the package manager would, with `argument` as its $1, in front
 * of a stand-in update-alternatives that records its calls; its AppArmor paths moved into a
 * temporary folder, so nothing of this machine's is touched. The calls, each its arguments.
 */
function afterRemoveCalls(script: string, argument: string): string[][] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pictor-after-remove-'));
  try {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    const log = path.join(dir, 'calls');
    writeFileSync(log, '');
    const stub = path.join(bin, 'update-alternatives');
    writeFileSync(stub, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\n`);
    chmodSync(stub, 0o755);
    const file = path.join(dir, 'after-remove.sh');
    writeFileSync(file, script.replaceAll('/etc/apparmor.d/', `${dir}/apparmor.d/`));
    const result = spawnSync(pathOf(BASH), [file, argument], {
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}` },
    });
    expect(result.status, result.stderr).toBe(0);
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split(' '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the deb and rpm scripts', () => {
  const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as {
    linux: { extraFiles?: { from: string; to: string }[] };
    deb: { afterInstall?: string; afterRemove?: string };
    rpm: { afterInstall?: string; afterRemove?: string };
  };

  it('are the ones electron-builder.yml names, for both packages, with the wrapper at bin/pictor', () => {
    for (const target of [config.deb, config.rpm]) {
      expect(target.afterInstall).toBe('resources/linux/after-install.tpl');
      expect(target.afterRemove).toBe('resources/linux/after-remove.tpl');
    }
    expect(config.linux.extraFiles).toContainEqual({
      from: 'resources/linux/pictor.sh',
      to: 'bin/pictor',
    });
  });

  it('link /usr/bin/pictor to the wrapper, and remove that link again', () => {
    const install = rendered('after-install.tpl');
    expect(install).toContain("COMMAND='/opt/Pictor/bin/pictor'");
    expect(install).toContain(
      `update-alternatives --install '/usr/bin/pictor' 'pictor' "$COMMAND" 100`,
    );
    expect(install).toContain(`ln -sf "$COMMAND" '/usr/bin/pictor'`);
    expect(install).not.toMatch(/ln -sf '\/opt\/Pictor\/pictor'/);
    expect(rendered('after-remove.tpl')).toContain(
      "update-alternatives --remove 'pictor' '/opt/Pictor/bin/pictor'",
    );
  });

  it('still install the AppArmor profile and set up the sandbox helper', () => {
    const install = rendered('after-install.tpl');
    expect(install).toContain("APPARMOR_PROFILE_SOURCE='/opt/Pictor/resources/apparmor-profile'");
    expect(install).toContain('apparmor_parser --replace --write-cache');
    expect(install).toContain("chmod 4755 '/opt/Pictor/chrome-sandbox'");
    expect(rendered('after-remove.tpl')).toContain('apparmor_parser --remove');
  });

  it.skipIf(!BASH.path)(
    needing(BASH, 'take the command and the profile away on removal only, never on an upgrade'),
    () => {
      const script = rendered('after-remove.tpl');
      const cases: [string, string, boolean][] = [
        ['rpm erase', '0', true],
        ['deb remove', 'remove', true],
        ['deb purge', 'purge', true],
        ['rpm upgrade (after the new version’s after-install)', '1', false],
        ['deb upgrade', 'upgrade', false],
        ['deb failed-upgrade', 'failed-upgrade', false],
      ];
      for (const [what, argument, removes] of cases)
        expect(afterRemoveCalls(script, argument), what).toEqual(
          removes ? [['--remove', 'pictor', '/opt/Pictor/bin/pictor']] : [],
        );
      // Without its first lines (electron-builder's own template) an rpm upgrade loses the link.
      const unguarded = script.replace(/^case "\$1" in[\s\S]*?^esac$/m, '');
      expect(unguarded).not.toBe(script);
      expect(afterRemoveCalls(unguarded, '1')).toHaveLength(1);
    },
  );

  it.skipIf(!BASH.path)(needing(BASH, 'are valid bash'), () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pictor-package-scripts-'));
    try {
      for (const template of ['after-install.tpl', 'after-remove.tpl']) {
        const file = path.join(dir, `${template}.sh`);
        writeFileSync(file, rendered(template));
        expect(spawnSync(pathOf(BASH), ['-n', file]).status, template).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
