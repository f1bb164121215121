/**
 * The `pictor` command on Linux (resources/linux/pictor.sh, /usr/bin/pictor in the deb and rpm),
 * run here through a link as the packages install it, in front of a stand-in binary that prints
 * the arguments it got: with no display it adds Chromium's headless platform before them, with
 * an X11 or Wayland display it adds nothing, and every argument arrives as it was typed. A copy
 * with the classic quoting mistake fails the same checks. The keys (SERVICE_API_KEY, every
 * PICTOR_KEY_*) reach a stand-in binary (a Node script) on fd 3, never in its environment, under
 * dash and bash alike, with no file written. The packages' scripts link /usr/bin/pictor to the
 * wrapper and remove that link again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { printedArgs, writeArgPrinter } from '../../support/arg-printer';
import { needing, pathOf, posixShell, tool } from '../../support/tools';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';

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
    env: bareEnv(display),
  });
  expect(result.status, result.stderr).toBe(0);
  return printedArgs(result.stdout);
}

const HEADLESS = ['--ozone-platform=headless', '--disable-gpu'];

describe.skipIf(!SH.path)(needing(SH, 'the Linux pictor command'), () => {
  let command = '';
  beforeAll(() => {
    work = tempFolderSync('linux-command');
    command = install('good', WRAPPER);
  });
  afterAll(() => {
    removeFolderSync(work);
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

/**
 * A stand-in binary that prints, as one JSON line, what it was started with: its arguments, its
 * pid and parent's, every variable of its environment, fd 3 (whether a pipe, and its content to
 * the end) and its stdin; then exits with 7.
 */
function writeRecorder(file: string): void {
  const script = `
const fs = require('node:fs');
let fd3 = null;
try {
  if (fs.fstatSync(3).isFIFO()) fd3 = fs.readFileSync(3, 'latin1');
} catch {}
process.stdout.write(JSON.stringify({
  argv: process.argv.slice(2),
  pid: process.pid,
  ppid: process.ppid,
  env: process.env,
  fd3,
  stdin: fs.readFileSync(0, 'utf8'),
}) + '\\n');
process.exitCode = 7;
`;
  writeFileSync(file, `#!${process.execPath}\n${script}`);
  chmodSync(file, 0o755);
}

interface Recorded {
  readonly argv: string[];
  readonly pid: number;
  readonly ppid: number;
  readonly env: Record<string, string>;
  readonly fd3: string | null;
  readonly stdin: string;
}

/** Values a key may hold: spaces, both quotes, `$`, `=`, backslashes, newlines, UTF-8, a fake line. */
const KEYS: Record<string, string> = {
  SERVICE_API_KEY: 'sk-wrapper-Zq8vT3mN0pLx4wQ7',
  PICTOR_KEY_FAL: 'a b "c" \'d\' $HOME `id` \\n=e==',
  PICTOR_KEY_BFL: 'line one\nexport PICTOR_KEY_FAKE=1\nSERVICE_API_KEY=x\n',
  PICTOR_KEY_REPLICATE: ' ✓ padded ',
  PICTOR_KEY_EMPTY: '',
};

/** The shells /bin/sh is on Debian and Ubuntu (dash) and on Fedora (bash); sh when neither is. */
const SHELLS = [tool('dash'), tool('bash')].filter((found) => found.path !== null);
const KEY_SHELLS = SHELLS.length > 0 ? SHELLS : [SH];

describe.each(KEY_SHELLS.map((shell) => [shell.name, shell] as const))(
  'the keys through the Linux pictor command under %s',
  (_name, shell) => {
    let dir = '';
    let command = '';
    beforeAll(() => {
      dir = tempFolderSync('linux-keys');
      const app = path.join(dir, 'opt', 'Pictor');
      mkdirSync(path.join(app, 'bin'), { recursive: true });
      writeRecorder(path.join(app, 'pictor'));
      writeFileSync(path.join(app, 'bin', 'pictor'), WRAPPER);
      chmodSync(path.join(app, 'bin', 'pictor'), 0o755);
      command = path.join(dir, 'pictor');
      symlinkSync(path.join(app, 'bin', 'pictor'), command);
    });
    afterAll(() => {
      removeFolderSync(dir);
    });

    /**
     * The wrapper run by `shell` with `env` (and DISPLAY, so no switch is added), a line on its
     * stdin, TMPDIR an empty folder and, first on PATH, a printf, env and cat that would leave a
     * mark if the shell ran them instead of its own: what the stand-in recorded, its exit code,
     * the wrapper's pid, and what the folder and the marks hold after.
     */
    function runWith(env: Record<string, string>) {
      const temp = mkdtempSync(path.join(dir, 'tmp-'));
      const fakes = mkdtempSync(path.join(dir, 'fakes-'));
      const marks = path.join(fakes, 'marks');
      mkdirSync(marks);
      for (const name of ['printf', 'env', 'cat']) {
        writeFileSync(path.join(fakes, name), `#!/bin/sh\n: > '${marks}/${name}'\nexit 99\n`);
        chmodSync(path.join(fakes, name), 0o755);
      }
      const result = spawnSync(pathOf(shell), [command, ...TYPED], {
        encoding: 'utf8',
        input: 'the caller’s line\n',
        env: {
          PATH: `${fakes}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
          DISPLAY: ':0',
          TMPDIR: temp,
          ...env,
        },
      });
      expect(result.stderr).toBe('');
      return {
        recorded: JSON.parse(result.stdout) as Recorded,
        status: result.status,
        pid: result.pid,
        temp: readdirSync(temp),
        marks: readdirSync(marks),
      };
    }

    const names = (env: Record<string, string>) =>
      Object.keys(env).filter((name) => name === 'SERVICE_API_KEY' || name.includes('KEY'));

    it('hands every key over on fd 3, none in the environment, arguments and stdin as given', () => {
      const run = runWith({ ...KEYS, PICTOR_KEEP: 'kept' });
      const { recorded } = run;
      expect(names(recorded.env)).toEqual(['PICTOR_KEYS_FD']);
      expect(recorded.env['PICTOR_KEYS_FD']).toBe('3');
      expect(recorded.env['PICTOR_KEEP']).toBe('kept');
      const records = Buffer.from(recorded.fd3 ?? '', 'latin1')
        .toString('utf8')
        .split('\0');
      expect(records.pop()).toBe('');
      const handed: Record<string, string> = {};
      for (let at = 0; at < records.length; at += 2)
        handed[records[at] ?? ''] = records[at + 1] ?? '';
      expect(handed).toEqual(KEYS);
      expect(recorded.argv).toEqual(TYPED);
      expect(recorded.stdin).toBe('the caller’s line\n');
      expect(run.status).toBe(7);
      // No file anywhere (a here-document in bash may be one), and no outside program ran.
      expect(run.temp).toEqual([]);
      expect(run.marks).toEqual([]);
      // The shell waits for the binary and passes its code on.
      expect(recorded.ppid).toBe(run.pid);
    });

    it('hands a single key over alone', () => {
      const { recorded } = runWith({ PICTOR_KEY_FAL: 'fal-only' });
      expect(names(recorded.env)).toEqual(['PICTOR_KEYS_FD']);
      expect(recorded.fd3).toBe('PICTOR_KEY_FAL\0fal-only\0');
    });

    it('with no key variable, replaces itself with the binary as before: no pipe, no marker', () => {
      const run = runWith({ PICTOR_KEYS: 'not a key variable', SERVICE_API_KEYS: 'nor this' });
      expect(run.recorded.env['PICTOR_KEYS_FD']).toBeUndefined();
      expect(run.recorded.fd3).toBeNull();
      expect(run.recorded.env['SERVICE_API_KEYS']).toBe('nor this');
      expect(run.recorded.argv).toEqual(TYPED);
      expect(run.recorded.stdin).toBe('the caller’s line\n');
      expect(run.recorded.pid).toBe(run.pid);
      expect(run.status).toBe(7);
      expect(run.temp).toEqual([]);
    });

    it('keeps the headless switches before the arguments', () => {
      const { recorded } = runWith({ ...KEYS, DISPLAY: '' });
      expect(recorded.argv).toEqual([...HEADLESS, ...TYPED]);
    });

    it('has printf as the shell’s own command', () => {
      const said = spawnSync(pathOf(shell), ['-c', 'command -V printf'], { encoding: 'utf8' });
      expect(said.stdout).toMatch(/builtin/);
    });
  },
);

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
  const dir = tempFolderSync('after-remove');
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
    removeFolderSync(dir);
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
    const dir = tempFolderSync('package-scripts');
    try {
      for (const template of ['after-install.tpl', 'after-remove.tpl']) {
        const file = path.join(dir, `${template}.sh`);
        writeFileSync(file, rendered(template));
        expect(spawnSync(pathOf(BASH), ['-n', file]).status, template).toBe(0);
      }
    } finally {
      removeFolderSync(dir);
    }
  });
});
