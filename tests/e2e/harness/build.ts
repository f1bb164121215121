/**
 * The build the journeys and the bench run: `npm run build` (renderer, main, preload), once per
 * run, skipped when every output is newer than every source (PICTOR_E2E_BUILD=always forces it,
 * =never skips it). Skipping a fresh build also keeps a second run from emptying dist/renderer
 * under a run already in progress. A renderer bundle with React's development build in it is
 * never used: it is rebuilt, or refused when building is off, so nothing measures or tests a
 * build no user gets.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ELECTRON_DIST, RENDERER_DIST, REPO_ROOT } from './repo-paths';

const SOURCES = ['renderer', 'shared', 'electron', 'vite.config.ts', 'package.json'];
const OUTPUTS = [
  join(RENDERER_DIST, 'index.html'),
  join(ELECTRON_DIST, 'main.js'),
  join(ELECTRON_DIST, 'preload.cjs'),
];

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function oldestOutput(): number {
  try {
    return Math.min(...OUTPUTS.map((file) => statSync(file).mtimeMs));
  } catch {
    return -Infinity;
  }
}

/**
 * What the renderer bundle in `dir` is: `development` when a script holds React's development
 * JSX runtime (`jsxDEV`: Vite bundles it when NODE_ENV is not production, as under a test
 * runner), `missing` when there is no script.
 */
export function rendererBuildKind(dir = RENDERER_DIST): 'production' | 'development' | 'missing' {
  const assets = join(dir, 'assets');
  const scripts = existsSync(assets)
    ? readdirSync(assets).filter((name) => name.endsWith('.js'))
    : [];
  if (scripts.length === 0) return 'missing';
  const development = scripts.some((name) =>
    readFileSync(join(assets, name), 'utf8').includes('jsxDEV'),
  );
  return development ? 'development' : 'production';
}

/** True when an output is missing or older than a source, or the renderer is a development build. */
export function buildIsStale(): boolean {
  const sources = Math.max(...SOURCES.map((path) => newestMtime(join(REPO_ROOT, path))));
  return oldestOutput() < sources || rendererBuildKind() !== 'production';
}

function refuseDevelopmentBuild(): void {
  if (rendererBuildKind() === 'development') {
    throw new Error(
      `${RENDERER_DIST} holds React's development build, which no user gets; build with ` +
        'NODE_ENV=production npm run build (or run without PICTOR_E2E_BUILD=never).',
    );
  }
}

/** Builds the app unless told not to; returns what it did, for the run's output. */
export function buildApp(mode = process.env.PICTOR_E2E_BUILD ?? 'auto'): string {
  if (mode === 'never') {
    refuseDevelopmentBuild();
    return 'e2e build: skipped (PICTOR_E2E_BUILD=never)';
  }
  if (mode !== 'always' && !buildIsStale()) return 'e2e build: up to date';
  // The production bundle, whatever NODE_ENV the test runner set (a test NODE_ENV makes Vite
  // ship React's development build, three times larger and slower).
  execFileSync('npm', ['run', 'build'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  refuseDevelopmentBuild();
  return 'e2e build: npm run build done';
}
