/**
 * The test build (tests/support/test-build.ts) and the output folder the release's build takes as
 * a parameter: the journeys, the packaging tests and the bench use a build only when it is
 * complete and React's production build, and only from a folder outside the repository. (The
 * real build into a temporary folder is in tests/packaging/test-build.test.ts.)
 */
import { getCollectorByPackageManager, PM } from 'app-builder-lib/out/node-module-collector';
import type { NodeModuleInfo } from 'app-builder-lib/out/node-module-collector/types';
import { TmpDir } from 'builder-util';
import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cliOutDir } from '../../../electron/build/build-electron';
import {
  acquireTestBuild,
  buildInto,
  checkTestBuild,
  currentTestBuild,
  isInRepo,
  markInstallRecordCurrent,
  rendererBuildKind,
  testBuildAt,
  TEST_BUILD_ENV,
} from '../../support/test-build';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('test-build-unit');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await removeFolder(dir);
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(join(dir, file, '..'), { recursive: true });
  await writeFile(join(dir, file), text);
}

/** A complete build layout in `dir` whose renderer script is `script`. */
async function fakeBuild(script: string): Promise<void> {
  await write('dist/renderer/index.html', '<script type="module" src="./assets/index-a.js">');
  await write('dist/renderer/assets/index-a.js', script);
  for (const file of [
    'main.js',
    'c2pa-worker.js',
    'answer-worker.js',
    'history-worker.js',
    'preload.cjs',
    'image-preload.cjs',
    'image-renderer/index.html',
    'image-renderer/c2pa_bg.wasm',
  ]) {
    await write(`dist-electron/${file}`, '');
  }
  await write('package.json', '{}');
  await mkdir(join(dir, 'node_modules'));
}

describe('rendererBuildKind', () => {
  const assets = (files: Record<string, string>) =>
    Promise.all(Object.entries(files).map(([name, text]) => write(`assets/${name}`, text)));

  it('a bundle whose scripts hold the development JSX runtime is a development build', async () => {
    await assets({ 'index-a.js': 'const e=jsxDEV("div",{});', 'vendor-b.js': 'x' });
    expect(rendererBuildKind(dir)).toBe('development');
  });

  it('a bundle without it is a production build; stylesheets are not read', async () => {
    await assets({ 'index-a.js': 'const e=jsx("div",{});', 'index-b.css': '/* jsxDEV */' });
    expect(rendererBuildKind(dir)).toBe('production');
  });

  it('no scripts (or no folder) is missing', async () => {
    expect(rendererBuildKind(join(dir, 'nowhere'))).toBe('missing');
    await assets({ 'index-b.css': 'a{}' });
    expect(rendererBuildKind(dir)).toBe('missing');
  });
});

describe('checkTestBuild', () => {
  it('accepts a complete production build', async () => {
    await fakeBuild('const e=jsx("div",{});');
    expect(() => checkTestBuild(testBuildAt(dir))).not.toThrow();
  });

  it('refuses a development build, saying how to make the release one', async () => {
    await fakeBuild('const e=jsxDEV("div",{});');
    expect(() => checkTestBuild(testBuildAt(dir))).toThrow(
      /React's development build, which no user gets: build with NODE_ENV=production/,
    );
  });

  it('refuses an incomplete build, naming what is missing', async () => {
    await fakeBuild('const e=jsx("div",{});');
    await rm(join(dir, 'dist-electron', 'preload.cjs'));
    expect(() => checkTestBuild(testBuildAt(dir))).toThrow(/dist-electron\/preload\.cjs missing/);
  });
});

describe('acquireTestBuild with PICTOR_TEST_BUILD_DIR set', () => {
  it('reuses a production build it is given, and keeps it on release', async () => {
    await fakeBuild('const e=jsx("div",{});');
    const env: NodeJS.ProcessEnv = { [TEST_BUILD_ENV]: dir };
    const acquired = await acquireTestBuild(env);
    expect(acquired.build).toEqual(testBuildAt(dir));
    expect(acquired.line).toMatch(/given, reused/);
    await acquired.release();
    expect(rendererBuildKind(join(dir, 'dist', 'renderer'))).toBe('production');
    expect(env[TEST_BUILD_ENV]).toBe(dir);
  });

  it('refuses a development build it is given (the journeys and the bench never run one)', async () => {
    await fakeBuild('function App(){return jsxDEV("main",{})}');
    await expect(acquireTestBuild({ [TEST_BUILD_ENV]: dir })).rejects.toThrow(/development build/);
  });
});

describe('where builds go', () => {
  it('the code that loads the build finds it through PICTOR_TEST_BUILD_DIR, and only there', () => {
    expect(currentTestBuild({ [TEST_BUILD_ENV]: dir })).toEqual({
      root: dir,
      rendererDir: join(dir, 'dist', 'renderer'),
      electronDir: join(dir, 'dist-electron'),
    });
    expect(() => currentTestBuild({})).toThrow(/No test build: PICTOR_TEST_BUILD_DIR is not set/);
  });

  it('never into the repository', async () => {
    expect(isInRepo(REPO)).toBe(true);
    expect(isInRepo(join(REPO, 'dist'))).toBe(true);
    expect(isInRepo(dir)).toBe(false);
    expect(isInRepo(`${REPO}-other`)).toBe(false);
    await expect(buildInto(join(REPO, '.tmp', 'build'))).rejects.toThrow(/outside the repository/);
  });

  it('build:electron writes to dist-electron, or under PICTOR_BUILD_DIR when set', () => {
    expect(cliOutDir('/repo', {})).toBe(join('/repo', 'dist-electron'));
    expect(cliOutDir('/repo', { PICTOR_BUILD_DIR: dir })).toBe(join(dir, 'dist-electron'));
  });

  it('vite.config.ts writes to dist/renderer, or under PICTOR_BUILD_DIR when set, nothing else changed', async () => {
    vi.stubEnv('PICTOR_BUILD_DIR', undefined);
    vi.resetModules();
    const plain = (await import('../../../vite.config')).default;
    vi.stubEnv('PICTOR_BUILD_DIR', dir);
    vi.resetModules();
    const moved = (await import('../../../vite.config')).default;
    expect(plain.build?.outDir).toBe('../dist/renderer');
    expect(moved.build?.outDir).toBe(join(dir, 'dist', 'renderer'));
    expect({ ...moved, build: { ...moved.build, outDir: '' } }).toEqual({
      ...plain,
      build: { ...plain.build, outDir: '' },
    });
  });
});

describe('markInstallRecordCurrent', () => {
  /** Writes a package's manifest in `modules`; its entry in npm's record of the install. */
  async function installed(modules: string, name: string, dependencies: Record<string, string>) {
    await write(
      `${modules}/${name}/package.json`,
      JSON.stringify({ name, version: '1.0.0', dependencies }),
    );
    return { version: '1.0.0', dependencies };
  }

  /**
   * A project installed in `installed/` (an app depending on `a`, which depends on `b`) and a
   * build folder beside it whose node_modules is a link to the installed one, as the test build
   * lays itself out; the packages electron-builder's npm collector finds for the build folder
   * (what it packs).
   */
  async function linkedProject(): Promise<() => Promise<string[]>> {
    const manifest = { name: 'app', version: '1.0.0', dependencies: { a: '1.0.0' } };
    const packages = {
      '': manifest,
      'node_modules/a': await installed('installed/node_modules', 'a', { b: '1.0.0' }),
      'node_modules/b': await installed('installed/node_modules', 'b', {}),
    };
    const lock = JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, packages });
    for (const folder of ['installed', 'build']) {
      await write(`${folder}/package.json`, JSON.stringify(manifest));
      await write(`${folder}/package-lock.json`, lock);
    }
    await write('installed/node_modules/.package-lock.json', lock);
    await symlink(join(dir, 'installed/node_modules'), join(dir, 'build/node_modules'), 'junction');
    return async () => {
      const temp = new TmpDir('pictor-collector-test');
      try {
        const collector = getCollectorByPackageManager(PM.NPM, join(dir, 'build'), temp);
        const { nodeModules } = await collector.getNodeModules({ packageName: 'app' });
        const names = (modules: readonly NodeModuleInfo[]): string[] =>
          modules.flatMap((module) => [module.name, ...names(module.dependencies ?? [])]);
        return names(nodeModules).sort();
      } finally {
        await temp.cleanup();
      }
    };
  }

  it('makes electron-builder find the own dependencies of a linked node_modules after node_modules changed', async () => {
    const packed = await linkedProject();
    expect(await packed()).toEqual(['a', 'b']);
    // The install was an hour ago; since then something added a folder to node_modules (a
    // cache): npm no longer trusts its record and reads the linked tree without a's own
    // dependency (the packed app lacked every such one).
    const installedAt = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, 'installed/node_modules/.package-lock.json'), installedAt, installedAt);
    await mkdir(join(dir, 'installed/node_modules/.cache'));
    expect(await packed()).toEqual(['a']);
    await markInstallRecordCurrent(join(dir, 'installed'));
    expect(await packed()).toEqual(['a', 'b']);
  }, 30_000);
});
