/**
 * The journeys and the bench use the built renderer only when it is React's production build:
 * a bundle built under a test runner's NODE_ENV holds the development JSX runtime and is rebuilt
 * (or refused), never tested or measured.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rendererBuildKind } from '../../e2e/harness/build';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-renderer-build-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function bundle(files: Record<string, string>): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  for (const [name, text] of Object.entries(files))
    await writeFile(join(dir, 'assets', name), text);
}

describe('rendererBuildKind', () => {
  it('a bundle whose scripts hold the development JSX runtime is a development build', async () => {
    await bundle({ 'index-a.js': 'const e=jsxDEV("div",{});', 'vendor-b.js': 'x' });
    expect(rendererBuildKind(dir)).toBe('development');
  });

  it('a bundle without it is a production build; stylesheets are not read', async () => {
    await bundle({ 'index-a.js': 'const e=jsx("div",{});', 'index-b.css': '/* jsxDEV */' });
    expect(rendererBuildKind(dir)).toBe('production');
  });

  it('no scripts (or no folder) is missing', async () => {
    expect(rendererBuildKind(join(dir, 'nowhere'))).toBe('missing');
    await bundle({ 'index-b.css': 'a{}' });
    expect(rendererBuildKind(dir)).toBe('missing');
  });
});
