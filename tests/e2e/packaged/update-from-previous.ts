/**
 * `npm run ci:update-test -- <previous | publish | check>`: the release job's update from the
 * previous tag's build to this one, through a test feed (update-plan.ts: a prerelease of this
 * repository, `test-feed-<tag>-<platform>`, one per leg, whose assets GitHub serves over https).
 * The tag must be `v` + package.json's version (release-guards.ts), else every command refuses.
 * Whether the check runs at all is decided once (release-guards.ts' updateCheckPlan): no previous
 * tag, or an unsigned Mac, and `publish`, `previous` and `check` each say so and do nothing.
 *
 * - `publish`: uploads this build's installers and feed files (release/) to the test feed.
 * - `previous`: builds the previous release tag's installers (a git worktree of it, `npm ci`,
 *   `npm run dist -- --release <args> --<this runner's CPU>`: only the CPU the check runs on) with
 *   the test feed as their update feed, into release-previous/.
 * - `check`: installs the previous build (`npm run ci:install -- --release-dir release-previous`),
 *   starts it on a throwaway data folder and waits until its log says it found this version
 *   (Linux packages and an unsigned Windows build, which only announce) or downloaded and
 *   verified it (a signed Windows build's NSIS, a signed Mac's Squirrel.Mac), then quits it as a
 *   user does (Windows: a close message to its window; macOS: SIGTERM) and waits until the
 *   installed app is this version (install on quit). Then uninstalls.
 * - `cleanup`: deletes this leg's test feed (the release and its tag), if there is one.
 *
 * Every wait has a limit (LIMITS), and so has every command it runs.
 * Needs GITHUB_REPOSITORY and GITHUB_REF_NAME (the tag) as in the release job, `gh` with a token
 * that may write releases (publish, cleanup), and the installers' own prerequisites. Exits 0 or 1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import asar from '@electron/asar';
import { systemClock } from '../../../electron/adapters/system-clock';
import { ciArgsOrExit } from '../../../electron/build/ci-args.mjs';
import { ciContext, skippedLine } from '../../../electron/build/ci-context';
import { installedApp } from './installed-app';
import {
  WaitTimeout,
  pollUntil,
  previousDistArgs,
  tagVersionProblem,
  updateCheckPlan,
  within,
  type UpdateCheckPlan,
} from './release-guards';
import { installedArchive, logShowsUpdate, previousTag, testFeed } from './update-plan';
import { tempFolderSync } from '../../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PREVIOUS = path.join(ROOT, 'release-previous');
const INSTALLERS = /\.(dmg|zip|exe|deb|rpm|blockmap|yml)$/;
const MINUTE = 60_000;
/** How long each wait and command may take before the check fails saying which one ran over. */
const LIMITS = {
  install: 20 * MINUTE,
  build: 60 * MINUTE,
  gh: 10 * MINUTE,
  git: 5 * MINUTE,
  findUpdate: 5 * MINUTE,
  exit: 2 * MINUTE,
  installOnQuit: 5 * MINUTE,
} as const;

function say(line: string): void {
  console.log(`update-test: ${line}`);
}

function run(command: string, args: string[], limit: number, cwd = ROOT, env = process.env): void {
  say(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
    timeout: limit,
    killSignal: 'SIGKILL',
  });
  if (result.error && 'code' in result.error && result.error.code === 'ETIMEDOUT')
    throw new WaitTimeout(`${command} ${args[0] ?? ''} to finish`, limit);
  if (result.status !== 0)
    throw new Error(`${command} ${args[0] ?? ''} exited ${String(result.status)}`);
}

function currentVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** This leg's test feed, whatever the tag (cleanup deletes it even after a refused tag). */
function legFeed() {
  const repository = process.env['GITHUB_REPOSITORY'] ?? '';
  const tag = process.env['GITHUB_REF_NAME'] ?? `v${currentVersion()}`;
  if (!repository)
    throw new Error('GITHUB_REPOSITORY names no repository to publish the test feed to');
  return { tag, ...testFeed(repository, tag, process.platform) };
}

/** The test feed of a tag that is package.json's version; refused with a sentence otherwise. */
function feed() {
  const leg = legFeed();
  // Checked first: an unbumped tag's old app would wait for an update that is not newer.
  const problem = tagVersionProblem(leg.tag, currentVersion());
  if (problem) throw new Error(problem);
  return leg;
}

function previousReleaseTag(): string | null {
  const tags = spawnSync('git', ['tag', '--list', 'v*'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: LIMITS.git,
  }).stdout.split('\n');
  return previousTag(tags, feed().tag);
}

/** Whether this leg's check runs, and how (decided the same way by every command). */
function plan(): UpdateCheckPlan & { readonly previous: string | null } {
  const previous = previousReleaseTag();
  return {
    previous,
    ...updateCheckPlan({
      platform: process.platform,
      previous,
      macSigned: process.env['PICTOR_MAC_SIGNED'] === 'true',
      winSigned: process.env['PICTOR_WIN_SIGNED'] === 'true',
    }),
  };
}

function previous(distArgs: string[]): void {
  const decided = plan();
  if (!decided.run)
    return say(`skipped: not built: the update check will not run: ${decided.reason}`);
  // A plan that runs has a previous tag (updateCheckPlan).
  const tag = decided.previous ?? '';
  const tree = path.join(tempFolderSync('previous'), 'tree');
  run('git', ['worktree', 'add', '--detach', tree, tag], LIMITS.git);
  const env = { ...process.env, PICTOR_UPDATE_FEED: feed().url };
  run('npm', ['ci', '--no-audit', '--no-fund'], LIMITS.install, tree, env);
  run(
    'npm',
    ['run', 'dist', '--', ...previousDistArgs(distArgs, process.arch)],
    LIMITS.build,
    tree,
    env,
  );
  mkdirSync(PREVIOUS, { recursive: true });
  for (const file of readdirSync(path.join(tree, 'release')).filter((name) =>
    INSTALLERS.test(name),
  ))
    cpSync(path.join(tree, 'release', file), path.join(PREVIOUS, file));
  say(`${tag}'s installers, with the test feed ${feed().url}, are in release-previous/`);
}

function publish(): void {
  const decided = plan();
  if (!decided.run) return say(`skipped: nothing published: ${decided.reason}`);
  const { release, tag } = feed();
  const files = readdirSync(path.join(ROOT, 'release'))
    .filter((name) => INSTALLERS.test(name))
    .map((name) => path.join('release', name));
  const exists =
    spawnSync('gh', ['release', 'view', release], { cwd: ROOT, timeout: LIMITS.gh }).status === 0;
  // Each leg has its own feed: a feed left by an earlier run of this tag is reused.
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
      { cwd: ROOT, stdio: 'inherit', timeout: LIMITS.gh },
    );
  run('gh', ['release', 'upload', release, ...files, '--clobber'], LIMITS.gh);
}

/** Deletes this leg's test feed and its tag: a test feed is never left public after the run. */
function cleanup(): void {
  const { release } = legFeed();
  const view = spawnSync('gh', ['release', 'view', release], { cwd: ROOT, timeout: LIMITS.gh });
  if (view.status !== 0) return say(`no test feed ${release} to delete`);
  run('gh', ['release', 'delete', release, '--yes', '--cleanup-tag'], LIMITS.gh);
  say(`deleted the test feed ${release} and its tag`);
}

function installedVersion(): string | null {
  const archive = installedArchive(process.platform, process.env['LOCALAPPDATA'] ?? '');
  if (!existsSync(archive)) return null;
  const manifest = asar.extractFile(archive, 'package.json').toString('utf8');
  return (JSON.parse(manifest) as { version?: string }).version ?? null;
}

/**
 * Asks the app to quit as a user does (Windows: a close message to its window; elsewhere
 * SIGTERM); `force` ends it, only once it ignored that. An app already gone is no error.
 */
function stop(app: ChildProcess, force: boolean): void {
  if (app.exitCode !== null || app.signalCode !== null) return;
  if (process.platform === 'win32' && app.pid !== undefined)
    spawnSync('taskkill', [...(force ? ['/F', '/T'] : []), '/PID', String(app.pid)], {
      timeout: LIMITS.gh,
    });
  else app.kill(force ? 'SIGKILL' : 'SIGTERM');
}

async function check(): Promise<void> {
  const decided = plan();
  if (!decided.run) return say(`skipped: ${decided.reason}`);
  if (!existsSync(PREVIOUS))
    throw new Error('No previous build in release-previous/: run `previous` first.');
  const installs = decided.installs;
  const version = currentVersion();
  run(
    'npm',
    ['run', 'ci:install', '--', '--release-dir', 'release-previous'],
    LIMITS.install,
    ROOT,
    {
      ...process.env,
      PICTOR_UPDATE_FEED: feed().url,
    },
  );
  const from = installedVersion();
  const data = tempFolderSync('update');
  const app = spawn(installedApp(process.platform, process.env), [], {
    env: {
      ...process.env,
      PICTOR_USER_DATA_DIR: data,
      PICTOR_GALLERY_DIR: path.join(data, 'gallery'),
    },
    stdio: 'inherit',
  });
  const exited = new Promise<void>((resolve) => app.on('exit', () => resolve()));
  const quit = async (): Promise<void> => {
    stop(app, false);
    try {
      await within(
        exited,
        LIMITS.exit,
        'the old app to exit after it was asked to quit',
        systemClock,
      );
    } catch (error) {
      stop(app, true);
      throw error;
    }
  };
  const log = path.join(data, 'logs', 'pictor.log');
  const read = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  try {
    await pollUntil(
      `${from ?? '?'} to find ${version} on the test feed`,
      () => logShowsUpdate(read(), version, installs),
      LIMITS.findUpdate,
      systemClock,
    );
    say(`${from ?? '?'} ${installs ? 'downloaded and verified' : 'announced'} ${version}`);
  } finally {
    await quit();
  }
  // A previous tag from before unsigned Windows builds only announced still downloads and
  // installs on quit: waited for too, so the uninstall below never races its installer.
  const installing = installs || logShowsUpdate(read(), version, true);
  if (!installs && installing) say(`${from ?? '?'} still installs updates: waiting for it`);
  if (installing) {
    await pollUntil(
      `the installed app to become ${version} on quit`,
      () => installedVersion() === version,
      LIMITS.installOnQuit,
      systemClock,
    );
    say(`installed on quit: the app is now ${version}`);
  }
  run('npm', ['run', 'ci:install', '--', '--uninstall'], LIMITS.install);
}

async function main(args: string[]): Promise<number> {
  const parsed = ciArgsOrExit(
    {
      name: 'ci:update-test',
      usage: 'npm run ci:update-test -- <previous [dist args…] | publish | check | cleanup>',
      options: {},
      commands: ['previous', 'publish', 'check', 'cleanup'],
      passOn: ['previous'],
    },
    args,
  );
  const what = parsed.command;
  // A dry run (electron/build/ci-context.ts): the arguments checked, nothing built or published.
  if (ciContext('ci:update-test').dry) {
    const line = [what ?? '', ...parsed.rest].join(' ');
    console.log(
      skippedLine(
        'ci:update-test',
        line,
        'a dry run builds, publishes, installs and deletes nothing',
      ),
    );
    return 0;
  }
  if (what === 'previous') previous([...parsed.rest]);
  else if (what === 'publish') publish();
  else if (what === 'cleanup') cleanup();
  else await check();
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`update-test: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
