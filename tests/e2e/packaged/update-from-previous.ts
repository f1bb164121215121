/**
 * `npm run ci:update-test -- <previous | publish | check>`: the release job's update from the
 * previous tag's build to this one, through a test feed (update-plan.ts: a prerelease of this
 * repository, `test-feed-<tag>`, whose assets GitHub serves over https).
 *
 * - `previous`: builds the previous release tag's installers (a git worktree of it, `npm ci`,
 *   `npm run dist -- --release <args>`) with the test feed as their update feed, into
 *   release-previous/. No previous tag: says so, and `check` skips.
 * - `publish`: uploads this build's installers and feed files (release/) to the test feed.
 * - `check`: installs the previous build (`npm run ci:install -- --release-dir release-previous`),
 *   starts it on a throwaway data folder and waits until its log says it found this version
 *   (Linux packages, which only announce) or downloaded and verified it (Windows' NSIS, and
 *   Squirrel.Mac where the app is signed: an unsigned Mac only announces, so it is skipped with a
 *   line), then quits it as a user does (Windows: a close message to its window; macOS: SIGTERM)
 *   and waits until the installed app is this version (install on quit). Then uninstalls.
 *
 * Needs GITHUB_REPOSITORY and GITHUB_REF_NAME (the tag) as in the release job, `gh` with a token
 * that may write releases (publish), and the installers' own prerequisites. Exits 0 or 1.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import asar from '@electron/asar';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';
import { installedApp } from './installed-app';
import { installedArchive, logShowsUpdate, previousTag, testFeed } from './update-plan';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PREVIOUS = path.join(ROOT, 'release-previous');
const INSTALLERS = /\.(dmg|zip|exe|deb|rpm|blockmap|yml)$/;

function say(line: string): void {
  console.log(`update-test: ${line}`);
}

function run(command: string, args: string[], cwd = ROOT, env = process.env): void {
  say(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args[0] ?? ''} exited ${String(result.status)}`);
}

function currentVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
}

function feed() {
  const repository = process.env['GITHUB_REPOSITORY'] ?? '';
  const tag = process.env['GITHUB_REF_NAME'] ?? `v${currentVersion()}`;
  if (!repository)
    throw new Error('GITHUB_REPOSITORY names no repository to publish the test feed to');
  return { tag, ...testFeed(repository, tag) };
}

function previous(distArgs: string[]): void {
  const tags = spawnSync('git', ['tag', '--list', 'v*'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.split('\n');
  const tag = previousTag(tags, feed().tag);
  if (!tag) {
    say(`skipped: no release tag before ${feed().tag}: nothing to update from`);
    return;
  }
  const tree = path.join(mkdtempSync(path.join(tmpdir(), 'pictor-previous-')), 'tree');
  run('git', ['worktree', 'add', '--detach', tree, tag]);
  const env = { ...process.env, PICTOR_UPDATE_FEED: feed().url };
  run('npm', ['ci', '--no-audit', '--no-fund'], tree, env);
  run('npm', ['run', 'dist', '--', '--release', ...distArgs], tree, env);
  mkdirSync(PREVIOUS, { recursive: true });
  for (const file of readdirSync(path.join(tree, 'release')).filter((name) =>
    INSTALLERS.test(name),
  ))
    cpSync(path.join(tree, 'release', file), path.join(PREVIOUS, file));
  say(`${tag}'s installers, with the test feed ${feed().url}, are in release-previous/`);
}

function publish(): void {
  const { release, tag } = feed();
  const files = readdirSync(path.join(ROOT, 'release'))
    .filter((name) => INSTALLERS.test(name))
    .map((name) => path.join('release', name));
  const exists = spawnSync('gh', ['release', 'view', release], { cwd: ROOT }).status === 0;
  // Each OS leg publishes its own files; the first one makes the release (another may race it).
  if (!exists)
    spawnSync(
      'gh',
      [
        'release',
        'create',
        release,
        '--prerelease',
        '--target',
        process.env['GITHUB_SHA'] ?? 'HEAD',
        '--title',
        `Test feed of ${tag}`,
        '--notes',
        `Update test of ${tag}: not a release.`,
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
  run('gh', ['release', 'upload', release, ...files, '--clobber']);
}

/** Whether this OS's copy installs updates (Linux announces; an unsigned Mac can only announce). */
function installs(): boolean {
  if (process.platform === 'win32') return true;
  return process.platform === 'darwin' && process.env['PICTOR_MAC_SIGNED'] === 'true';
}

async function waitFor(what: string, probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(2_000);
  }
}

function installedVersion(): string | null {
  const archive = installedArchive(process.platform, process.env['LOCALAPPDATA'] ?? '');
  if (!existsSync(archive)) return null;
  const manifest = asar.extractFile(archive, 'package.json').toString('utf8');
  return (JSON.parse(manifest) as { version?: string }).version ?? null;
}

async function check(): Promise<void> {
  if (!existsSync(PREVIOUS)) return say('skipped: no previous build (see `previous`)');
  if (process.platform === 'darwin' && !installs())
    return say(
      'skipped: Squirrel.Mac installs only over a Developer ID signature, and this run signs nothing',
    );
  const version = currentVersion();
  run('npm', ['run', 'ci:install', '--', '--release-dir', 'release-previous'], ROOT, {
    ...process.env,
    PICTOR_UPDATE_FEED: feed().url,
  });
  const from = installedVersion();
  const data = mkdtempSync(path.join(tmpdir(), 'pictor-update-'));
  const app = spawn(installedApp(process.platform, process.env), [], {
    env: {
      ...process.env,
      PICTOR_USER_DATA_DIR: data,
      PICTOR_GALLERY_DIR: path.join(data, 'gallery'),
    },
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => app.on('exit', () => resolve()));
  const log = path.join(data, 'logs', 'pictor.log');
  const read = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  try {
    await waitFor(
      `${from ?? '?'} to find ${version}`,
      () => logShowsUpdate(read(), version, installs()),
      300_000,
    );
    say(`${from ?? '?'} ${installs() ? 'downloaded and verified' : 'announced'} ${version}`);
  } finally {
    if (process.platform === 'win32') spawnSync('taskkill', ['/PID', String(app.pid)]);
    else app.kill('SIGTERM');
  }
  await exited;
  if (installs()) {
    await waitFor(
      `the installed app to become ${version}`,
      () => installedVersion() === version,
      300_000,
    );
    say(`installed on quit: the app is now ${version}`);
  }
  run('npm', ['run', 'ci:install', '--', '--uninstall']);
}

async function main(args: string[]): Promise<number> {
  const parsed = ciArgsOrExit(
    {
      name: 'ci:update-test',
      usage: 'npm run ci:update-test -- <previous [dist args…] | publish | check>',
      options: {},
      commands: ['previous', 'publish', 'check'],
      passOn: ['previous'],
    },
    args,
  );
  const what = parsed.command;
  // A dry run (electron/build/ci-context.ts): the arguments checked, nothing built or published.
  if (ciContext('ci:update-test').dry) {
    const line = [what ?? '', ...parsed.rest].join(' ');
    console.log(
      skippedLine('ci:update-test', line, 'a dry run builds, publishes and installs nothing'),
    );
    return 0;
  }
  if (what === 'previous') previous([...parsed.rest]);
  else if (what === 'publish') publish();
  else await check();
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`update-test: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
