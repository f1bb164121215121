/**
 * `npm run ci:install`: installs this OS's installer from release/ as a user would, and checks
 * what the installer promised: Linux, the deb through apt (its dependencies from the archive),
 * /usr/bin/pictor the command wrapper, the AppArmor profile installed and loaded, and Ubuntu's
 * user-namespace restriction on (so the smoke after it runs the sandbox the way a stock system
 * does); macOS, Pictor.app copied from the dmg into /Applications with its `pictor` script;
 * Windows, the NSIS installer run silently for this user, with bin\ on the user's Path.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedCommand, installerIn } from './installed-app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RELEASE = path.join(ROOT, 'release');

function step(what: string, command: string, args: string[]): string {
  console.log(`install: ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0)
    throw new Error(`${what} failed (exit ${String(result.status)}): ${result.stdout}`);
  return result.stdout;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
  console.log(`install: ok: ${what}`);
}

function linux(installer: string): void {
  step('install the deb', 'sudo', [
    'apt-get',
    'install',
    '-y',
    '--no-install-recommends',
    installer,
  ]);
  check(
    realpathSync('/usr/bin/pictor') === '/opt/Pictor/bin/pictor',
    '/usr/bin/pictor is the command wrapper',
  );
  check(
    existsSync('/etc/apparmor.d/pictor'),
    'the AppArmor profile is installed at /etc/apparmor.d/pictor',
  );
  const loaded = step('list the loaded AppArmor profiles', 'sudo', [
    'cat',
    '/sys/kernel/security/apparmor/profiles',
  ]);
  check(/^pictor \(/m.test(loaded), 'the AppArmor profile "pictor" is loaded');
  const restricted = readFileSync(
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    'utf8',
  ).trim();
  check(
    restricted === '1',
    'unprivileged user namespaces are restricted, as on a stock Ubuntu 24.04',
  );
}

function mac(installer: string): void {
  const mount = mkdtempSync(path.join(tmpdir(), 'pictor-dmg-'));
  step('mount the dmg', 'hdiutil', [
    'attach',
    '-nobrowse',
    '-readonly',
    '-mountpoint',
    mount,
    installer,
  ]);
  try {
    step('copy Pictor.app to /Applications', 'ditto', [
      path.join(mount, 'Pictor.app'),
      '/Applications/Pictor.app',
    ]);
  } finally {
    step('unmount the dmg', 'hdiutil', ['detach', mount]);
  }
  check(
    existsSync(installedCommand('darwin', process.env)),
    'Pictor.app carries Contents/Resources/bin/pictor',
  );
}

function windows(installer: string): void {
  // A copy outside release/: the installer locks its own file while it runs.
  const copy = path.join(
    mkdtempSync(path.join(tmpdir(), 'pictor-setup-')),
    path.basename(installer),
  );
  copyFileSync(installer, copy);
  step('run the installer silently, for this user', copy, ['/S']);
  const command = installedCommand('win32', process.env);
  check(existsSync(command), `${command} is installed`);
  const userPath = execFileSync('reg', ['query', 'HKCU\\Environment', '/v', 'Path'], {
    encoding: 'utf8',
  });
  check(
    userPath.toLowerCase().includes(path.win32.dirname(command).toLowerCase()),
    `the user's Path holds ${path.win32.dirname(command)}`,
  );
}

const installer = path.join(
  RELEASE,
  installerIn(readdirSync(RELEASE), process.platform, process.arch),
);
try {
  if (process.platform === 'linux') linux(installer);
  else if (process.platform === 'darwin') mac(installer);
  else windows(installer);
} catch (error) {
  console.error(`install: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
