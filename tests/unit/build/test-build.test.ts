/**
 * The test build (tests/support/test-build.ts) and the output folder the release's build takes as
 * a parameter: the journeys, the packaging tests and the bench use a build only when it is
 * complete and React's production build, and only from a folder outside the repository. (The
 * real build into a temporary folder is in tests/packaging/test-build.test.ts.)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
  rendererBuildKind,
  testBuildAt,
  TEST_BUILD_ENV,
} from '../../support/test-build';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-test-build-unit-'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
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
