/**
 * The update feed a package carries, packed as `npm run dist` packs (release-feed.ts's arguments,
 * electron-builder.yml) from a folder laid out like a GitHub Actions checkout: the build, and
 * `.git/config` naming the repository's GitHub origin, as actions/checkout leaves it. Without
 * a publish setting electron-builder takes that origin as a GitHub feed and writes it into the
 * package (app-update.yml); CI and local builds must carry none, and a release build exactly the
 * feed it was given. linux-x64 with a stand-in Electron (stand-in-targets.ts), offline: Linux
 * writes app-update.yml for every target, the unpacked folder included. The checkout's package.json
 * names no dependencies (see withoutDependencies): the feed does not depend on the modules packed.
 */
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { builderArgs, decideFeed } from '../../electron/build/release-feed';
import {
  createStandInFor,
  resourcesDir,
  runElectronBuilder,
  unpackedDir,
  type Target,
} from './stand-in-targets';
import { removeFolder, tempFolder } from '../support/temp-folders';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The run's test build (global-setup.ts), which is what gets packed. */
const BUILD_ROOT = inject('pictorTestBuild');
const CLOSED_PORT_URL = 'http://127.0.0.1:9/';
const LINUX: Target = { os: 'linux', arch: 'x64' };
const FEED = 'https://downloads.pictor-app.org/updates/';

let work = '';
let electronDist = '';
let electronVersion = '';

/** A checkout of the repository on a GitHub runner: the build, its configuration, the origin. */
async function checkout(name: string, builderYml: string): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(path.join(dir, '.git'), { recursive: true });
  await writeFile(
    path.join(dir, '.git', 'config'),
    '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = https://github.com/pictor-app/pictor\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
  );
  for (const copied of ['dist', 'dist-electron', 'package-lock.json'])
    await cp(path.join(BUILD_ROOT, copied), path.join(dir, copied), { recursive: true });
  await writeFile(path.join(dir, 'package.json'), await withoutDependencies());
  for (const linked of ['node_modules', 'resources'])
    await symlink(path.join(ROOT, linked), path.join(dir, linked));
  await writeFile(path.join(dir, 'electron-builder.yml'), builderYml);
  return dir;
}

/**
 * The build's package.json with no production dependencies, so electron-builder packs no
 * node_modules: which feed it writes is decided by its configuration, the environment and the
 * checkout's origin (and the package's name, version and repository, kept), never by the modules
 * it packs, and packing them was most of each run (three runs, the file's whole time).
 */
async function withoutDependencies(): Promise<string> {
  const text = await readFile(path.join(BUILD_ROOT, 'package.json'), 'utf8');
  const { dependencies = {}, ...rest } = JSON.parse(text) as { dependencies?: object };
  expect(Object.keys(dependencies).length, 'the app has dependencies to leave out').toBeGreaterThan(
    0,
  );
  return JSON.stringify(rest, null, 2);
}

/** Packs `project` as `npm run dist -- --linux dir --x64` would with `env`; its app-update.yml. */
async function packedFeed(project: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  const decision = decideFeed(env, []);
  if (!decision.ok) throw new Error(decision.problem);
  const output = path.join(project, 'release');
  await runElectronBuilder(
    [
      path.join(ROOT, 'node_modules/electron-builder/cli.js'),
      ...builderArgs(decision, ['--linux', 'dir', '--x64']),
      '--projectDir',
      project,
      `-c.electronDist=${electronDist}`,
      `-c.electronVersion=${electronVersion}`,
      `-c.electronDownload.mirror=${CLOSED_PORT_URL}`,
    ],
    { cwd: project, cache: path.join(work, 'cache'), what: 'linux x64 (update feed)' },
  );
  const resources = resourcesDir(LINUX, path.join(output, unpackedDir(LINUX)));
  try {
    return parse(await readFile(path.join(resources, 'app-update.yml'), 'utf8')) as unknown;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  work = await tempFolder('update-feed');
  electronVersion = (
    JSON.parse(await readFile(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  electronDist = path.join(work, 'electron-linux');
  await createStandInFor('linux', electronDist, electronVersion);
});

afterAll(async () => {
  if (work) await removeFolder(work);
});

describe('the update feed of a package built in a GitHub checkout', () => {
  let builderYml = '';
  beforeAll(async () => {
    builderYml = await readFile(path.join(ROOT, 'electron-builder.yml'), 'utf8');
  });

  it('is none without PICTOR_UPDATE_FEED (CI, local builds)', async () => {
    const project = await checkout('no-feed', builderYml);
    expect(await packedFeed(project, {})).toBeNull();
  }, 120_000);

  it('is exactly PICTOR_UPDATE_FEED, a generic feed, when a release names one', async () => {
    const project = await checkout('feed', builderYml);
    expect(await packedFeed(project, { PICTOR_UPDATE_FEED: FEED })).toMatchObject({
      provider: 'generic',
      url: FEED,
      channel: 'latest',
    });
  }, 120_000);

  it('would be the checkout’s GitHub origin if electron-builder.yml left publish out (so the first check can fail)', async () => {
    const withoutPublish = builderYml.replace(/^publish: null\n/m, '');
    expect(withoutPublish).not.toBe(builderYml);
    const project = await checkout('publish-left-out', withoutPublish);
    expect(await packedFeed(project, {})).toMatchObject({
      provider: 'github',
      owner: 'pictor-app',
      repo: 'pictor',
    });
  }, 120_000);
});
