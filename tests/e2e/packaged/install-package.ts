/**
 * `npm run ci:install`: installs this OS's installer from release/ as a user would, and checks
 * what the installer promised: Linux, the deb through apt (its dependencies from the archive),
 * /usr/bin/pictor the command wrapper, the AppArmor profile installed and loaded, and Ubuntu's
 * user-namespace restriction on (so the smoke after it runs the sandbox the way a stock system
 * does); macOS, Pictor.app copied from the dmg into /Applications with its `pictor` script, then
 * linked from /usr/local/bin by the app's own "Install Command Line Tool…" code (the user's
 * agreement given; when macOS refuses, the command it tells the user to run); Windows, the NSIS
 * installer run silently for this user, with bin\ on the user's Path. Every OS: the update feed
 * the build was made with (PICTOR_UPDATE_FEED, as `npm run dist` read it), or none; on macOS a
 * signature that reads as valid exactly when the build was signed (PICTOR_MAC_SIGNED), so an unsigned copy
 * would only say that a version is out. `--release-dir DIR` installs from DIR instead of
 * release/ (the release job's previous build).
 *
 * `npm run ci:install -- --uninstall`, after the installed app's tests: removes the package as a
 * user would and checks that what it added is gone: Linux, /usr/bin/pictor and the AppArmor
 * profile (unloaded too); Windows, bin\ on the user's Path and the files. macOS has no
 * uninstaller (the app is dragged to the Trash): nothing to check.
 *
 * A dry run (PICTOR_CI_DRY=1, electron/build/ci-context.ts) finds this OS's installer in release/
 * and checks the feed in the unpacked app beside it (what the installer copies), and says what it
 * would install, run and check instead of doing it.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { codesignReader } from '../../../electron/adapters/codesign';
import { COMMAND_LINK } from '../../../electron/app/os/command-link';
import { readMacSignature } from '../../../electron/app/updates/update-capability';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine, type CiContext } from '../../../electron/build/ci-context';
import { HDIUTIL_RETRIES, retryTransient } from '../../../electron/build/transient-retry';
import { installedApp, installedCommand, installerIn } from './installed-app';
import { findPackagedExecutable } from './packaged-app';
import { tempFolderSync } from '../../support/temp-folders';

const ARGS = ciArgsOrExit(
  {
    name: 'ci:install',
    usage: 'npm run ci:install -- [--release-dir DIR] [--uninstall]',
    options: { 'release-dir': { type: 'string' }, uninstall: { type: 'boolean' } },
  },
  process.argv.slice(2),
);
const CONTEXT = ciContext('ci:install');
const RELEASE = path.resolve(CONTEXT.root, ARGS.values['release-dir'] ?? 'release');
const LINUX_PROFILES = '/sys/kernel/security/apparmor/profiles';

/**
 * Runs `command`, failing with its output unless it exits 0. `verbatim`: its arguments reach it
 * as written (Windows), the program's own path quoted.
 */
function step(what: string, command: string, args: string[], verbatim = false): string {
  console.log(`install: ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(verbatim ? { windowsVerbatimArguments: true, argv0: `"${command}"` } : {}),
  });
  if (result.status !== 0)
    throw new Error(`${what} failed (exit ${String(result.status)}): ${result.stdout}`);
  return result.stdout;
}

/** hdiutil, run again on its passing errors ("Resource busy"), a bounded number of times. */
async function hdiutil(what: string, args: string[]): Promise<void> {
  console.log(`install: ${what}: hdiutil ${args.join(' ')}`);
  const outcome = await retryTransient(
    async () => {
      const result = spawnSync('hdiutil', args, { encoding: 'utf8' });
      return { code: result.status, output: `${result.stdout}${result.stderr}` };
    },
    HDIUTIL_RETRIES,
    { sleep: (ms) => sleep(ms), say: (line) => console.log(`install: ${what}: ${line}`) },
  );
  if (outcome.code !== 0)
    throw new Error(
      `${what} failed (exit ${String(outcome.code)}, ${outcome.runs} runs): ${outcome.output}`,
    );
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
  console.log(`install: ok: ${what}`);
}

/** Whether anything, a dangling link included, is at `file`. */
function present(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder beside the app that holds app.asar (and app-update.yml when a build has a feed): the
 * installed app's, or in a dry run the unpacked app's in release/, which the installer copies.
 */
function resourcesOf(context: CiContext): string {
  const { platform, arch } = context;
  const app = context.dry
    ? findPackagedExecutable(RELEASE, platform, arch)
    : installedApp(platform, process.env);
  if (platform === 'darwin') return path.join(path.dirname(path.dirname(app)), 'Resources');
  if (platform === 'linux' && !context.dry) return '/opt/Pictor/resources';
  return path.join(path.dirname(app), 'resources');
}

function updateFeed(context: CiContext): void {
  const resources = resourcesOf(context);
  check(existsSync(path.join(resources, 'app.asar')), `the app is in ${resources}`);
  const feed = process.env['PICTOR_UPDATE_FEED']?.trim();
  const config = path.join(resources, 'app-update.yml');
  if (!feed) {
    check(
      !existsSync(config),
      'no update feed (app-update.yml) in a build made without PICTOR_UPDATE_FEED',
    );
    return;
  }
  check(
    existsSync(config) && readFileSync(config, 'utf8').includes(feed),
    `the update feed ${feed} is in app-update.yml`,
  );
}

const loadedProfiles = () =>
  step('list the loaded AppArmor profiles', 'sudo', ['cat', LINUX_PROFILES]);

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
  check(/^pictor \(/m.test(loadedProfiles()), 'the AppArmor profile "pictor" is loaded');
  const restricted = readFileSync(
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    'utf8',
  ).trim();
  check(
    restricted === '1',
    'unprivileged user namespaces are restricted, as on a stock Ubuntu 24.04',
  );
}

/** "Install Command Line Tool…" as the app runs it, the user agreeing. */
async function commandLineTool(target: string): Promise<void> {
  // Loaded here, on a Mac installing, not at start: with the app's error sentences they were most
  // of the modules every dry run (ci-steps.test.ts runs this script on every leg) loaded.
  const [{ installCommandLineTool }, { nodeCommandLineToolFs }] = await Promise.all([
    import('../../../electron/app/os/command-line-tool'),
    import('../../../electron/adapters/command-line-tool-fs'),
  ]);
  let told = '';
  const outcome = await installCommandLineTool({
    fs: nodeCommandLineToolFs,
    prompts: {
      confirmInstall: () => Promise.resolve(true),
      tell: (sentence) => Promise.resolve(void (told = JSON.stringify(sentence))),
    },
    target,
  });
  console.log(`install: Install Command Line Tool…: ${outcome.kind} ${told}`);
  if (outcome.kind === 'denied') {
    const command = (outcome.sentence.params as { command?: string } | undefined)?.command ?? '';
    step('the command the user is told to run', 'sh', ['-c', command]);
  } else check(outcome.kind === 'installed', `${COMMAND_LINK} was made (${outcome.kind})`);
  check(readlinkSync(COMMAND_LINK) === target, `${COMMAND_LINK} links to ${target}`);
}

async function mac(installer: string): Promise<void> {
  const mount = tempFolderSync('dmg');
  await hdiutil('mount the dmg', [
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
    await hdiutil('unmount the dmg', ['detach', mount]);
  }
  const script = installedCommand('darwin', process.env);
  check(existsSync(script), 'Pictor.app carries Contents/Resources/bin/pictor');
  await commandLineTool(script);
  // What the app reads at start to decide whether an update may install (codesign.ts).
  const signature = await readMacSignature('/Applications/Pictor.app', codesignReader);
  if (process.env['PICTOR_MAC_SIGNED'] === 'true')
    check(signature === 'valid', `its signature reads as ${signature}: updates install`);
  else
    check(signature !== 'valid', `its signature reads as ${signature}: updates would only notify`);
}

/** The user's Path as stored, lower case; empty when the user has none. */
function windowsUserPath(): string {
  const query = spawnSync('reg', ['query', 'HKCU\\Environment', '/v', 'Path'], {
    encoding: 'utf8',
  });
  return query.status === 0 ? query.stdout.toLowerCase() : '';
}

function windows(installer: string): void {
  // A copy outside release/: the installer locks its own file while it runs.
  const copy = path.join(tempFolderSync('setup'), path.basename(installer));
  copyFileSync(installer, copy);
  step('run the installer silently, for this user', copy, ['/S']);
  const command = installedCommand('win32', process.env);
  check(existsSync(command), `${command} is installed`);
  const bin = path.win32.dirname(command);
  check(windowsUserPath().includes(bin.toLowerCase()), `the user's Path holds ${bin}`);
}

function uninstallLinux(): void {
  step('remove the deb', 'sudo', ['apt-get', 'remove', '-y', 'pictor']);
  check(!present('/usr/bin/pictor'), '/usr/bin/pictor is gone');
  check(!present('/opt/Pictor/pictor'), 'the app is gone from /opt/Pictor');
  check(!existsSync('/etc/apparmor.d/pictor'), 'the AppArmor profile is gone');
  check(!/^pictor \(/m.test(loadedProfiles()), 'the AppArmor profile is unloaded');
}

function uninstallWindows(): void {
  const command = installedCommand('win32', process.env);
  const folder = path.win32.dirname(path.win32.dirname(command));
  // As electron-builder's installer runs it: a copy, told where the app is (`_?=`, last and
  // unquoted), so it works in place and this waits for it.
  const copy = path.join(tempFolderSync('uninstall'), 'uninstall.exe');
  copyFileSync(path.join(folder, 'Uninstall Pictor.exe'), copy);
  step('run the uninstaller silently', copy, ['/S', `_?=${folder}`], true);
  check(!existsSync(command), `${command} is gone`);
  check(!existsSync(installedApp('win32', process.env)), 'Pictor.exe is gone');
  const bin = path.win32.dirname(command).toLowerCase();
  check(!windowsUserPath().includes(bin), `the user's Path no longer holds ${bin}`);
}

const INSTALLS: Record<string, string> = {
  linux: 'the deb installed with apt-get, /usr/bin/pictor, the AppArmor profile loaded',
  darwin:
    'the dmg mounted, Pictor.app copied to /Applications, /usr/local/bin/pictor linked, its signature read',
  win32: "the installer run silently for this user, bin\\ on the user's Path",
};

/** The `pictor` command in the unpacked app of release/, which the installer puts in place. */
function packedCommand(context: CiContext): string {
  const app = findPackagedExecutable(RELEASE, context.platform, context.arch);
  if (context.platform === 'darwin')
    return path.join(path.dirname(path.dirname(app)), 'Resources', 'bin', 'pictor');
  return path.join(
    path.dirname(app),
    'bin',
    context.platform === 'win32' ? 'pictor.cmd' : 'pictor',
  );
}

/**
 * A dry run: the installer found, the command it installs and the feed checked in the unpacked
 * app it is made from; what it would install, said.
 */
function dryInstall(context: CiContext, installer: string): void {
  check(statSync(installer).isFile(), `${path.basename(installer)} is this runner's installer`);
  const command = packedCommand(context);
  const mode = existsSync(command) ? statSync(command).mode : 0;
  check(
    mode !== 0 && (context.platform === 'win32' || (mode & 0o111) !== 0),
    `the app carries its command ${path.relative(RELEASE, command)}`,
  );
  console.log(
    skippedLine(
      'ci:install',
      INSTALLS[context.platform] ?? context.platform,
      'a dry run installs nothing on this machine',
    ),
  );
  updateFeed(context);
}

async function main(context: CiContext, uninstall: boolean): Promise<void> {
  const { platform } = context;
  if (uninstall && context.dry) {
    console.log(
      skippedLine('ci:install', `uninstalling on ${platform}`, 'a dry run installed nothing'),
    );
    return;
  }
  if (uninstall) {
    if (platform === 'linux') uninstallLinux();
    else if (platform === 'win32') uninstallWindows();
    else console.log('install: macOS has no uninstaller (Pictor.app goes to the Trash)');
    return;
  }
  const installer = path.join(RELEASE, installerIn(readdirSync(RELEASE), platform, context.arch));
  if (context.dry) return dryInstall(context, installer);
  if (platform === 'linux') linux(installer);
  else if (platform === 'darwin') await mac(installer);
  else windows(installer);
  updateFeed(context);
}

try {
  await main(CONTEXT, ARGS.values.uninstall === true);
} catch (error) {
  console.error(`install: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
