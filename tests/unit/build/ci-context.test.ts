/**
 * Where a CI script runs (electron/build/ci-context.ts): the runner itself, or in a dry run
 * (PICTOR_CI_DRY=1) a stand-in repository, OS and CPU; a stand-in outside a dry run is refused,
 * so a runner never installs from a folder or for an OS it was not meant to.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, readCiContext, skippedLine } from '../../../electron/build/ci-context';

const HOST = { platform: 'linux', arch: 'x64' } as const;

describe('readCiContext', () => {
  it('on a runner: the repository, the host, acting', () => {
    expect(readCiContext({}, HOST)).toEqual({
      ok: true,
      context: { root: REPOSITORY_ROOT, platform: 'linux', arch: 'x64', dry: false },
    });
  });

  it('a dry run takes a stand-in root, OS and CPU', () => {
    const env = {
      PICTOR_CI_DRY: '1',
      PICTOR_CI_ROOT: 'stand-in',
      PICTOR_CI_PLATFORM: 'win32',
      PICTOR_CI_ARCH: 'arm64',
    };
    expect(readCiContext(env, HOST)).toEqual({
      ok: true,
      context: { root: path.resolve('stand-in'), platform: 'win32', arch: 'arm64', dry: true },
    });
  });

  it('a stand-in outside a dry run is refused, naming it', () => {
    expect(readCiContext({ PICTOR_CI_PLATFORM: 'darwin' }, HOST)).toEqual({
      ok: false,
      problem: 'PICTOR_CI_PLATFORM stands in for the runner only in a dry run (PICTOR_CI_DRY=1).',
    });
    expect(readCiContext({ PICTOR_CI_DRY: '0', PICTOR_CI_ROOT: '/x' }, HOST).ok).toBe(false);
  });

  it('an OS or CPU CI does not build for is refused', () => {
    const dry = { PICTOR_CI_DRY: '1' };
    expect(readCiContext({ ...dry, PICTOR_CI_PLATFORM: 'aix' }, HOST)).toMatchObject({ ok: false });
    expect(readCiContext({ ...dry, PICTOR_CI_ARCH: 'ia32' }, HOST)).toMatchObject({ ok: false });
    expect(readCiContext({}, { platform: 'freebsd', arch: 'x64' })).toMatchObject({ ok: false });
  });

  it('says what a dry run skipped and why, in one line', () => {
    expect(skippedLine('ci:install', 'apt-get install', 'a dry run')).toBe(
      'ci:install: skipped: apt-get install (a dry run)',
    );
  });
});
