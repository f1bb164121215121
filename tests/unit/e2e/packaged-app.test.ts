/**
 * Where the packaged smoke run (tests/e2e/packaged/smoke.ts) looks for the app `npm run dist` made,
 * on each OS and CPU, and what it says when there is none.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findPackagedExecutable,
  packagedExecutableCandidates,
} from '../../e2e/packaged/packaged-app';

const RELEASE = path.join('/repo', 'release');

describe('packagedExecutableCandidates', () => {
  it.each([
    ['darwin', 'arm64', 'mac-arm64/Pictor.app/Contents/MacOS/Pictor'],
    ['darwin', 'x64', 'mac/Pictor.app/Contents/MacOS/Pictor'],
    ['win32', 'x64', 'win-unpacked/Pictor.exe'],
    ['linux', 'x64', 'linux-unpacked/pictor'],
    ['linux', 'arm64', 'linux-arm64-unpacked/pictor'],
  ] as const)('%s %s: %s', (platform, arch, expected) => {
    expect(packagedExecutableCandidates(RELEASE, platform, arch)[0]).toBe(
      path.join(RELEASE, expected),
    );
  });
});

describe('findPackagedExecutable', () => {
  it('returns the first layout that exists', () => {
    const universal = path.join(RELEASE, 'mac-universal/Pictor.app/Contents/MacOS/Pictor');
    expect(findPackagedExecutable(RELEASE, 'darwin', 'x64', (file) => file === universal)).toBe(
      universal,
    );
  });

  it('says what to run when there is no packaged app', () => {
    expect(() => findPackagedExecutable(RELEASE, 'linux', 'x64', () => false)).toThrow(
      /No packaged app in .*release for linux-x64 .*Run `npm run dist` first/,
    );
  });
});
