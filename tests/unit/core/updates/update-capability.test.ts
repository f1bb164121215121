/** Which copies of Pictor update themselves, which only tell, which do nothing. */
import { describe, expect, it } from 'vitest';
import {
  updaterCapability,
  type InstallFacts,
} from '../../../../electron/core/updates/update-capability';

const installed: InstallFacts = {
  packaged: true,
  platform: 'win32',
  hasUpdateConfig: true,
  linuxPackageType: null,
  appImage: false,
};

describe('updaterCapability', () => {
  it('installs on Windows (NSIS) and macOS (zip beside the dmg)', () => {
    expect(updaterCapability(installed)).toEqual({ kind: 'install' });
    expect(updaterCapability({ ...installed, platform: 'darwin' })).toEqual({ kind: 'install' });
  });

  it('only tells on Linux packages, installs an AppImage', () => {
    const linux = { ...installed, platform: 'linux' as const };
    expect(updaterCapability({ ...linux, linuxPackageType: 'deb' })).toEqual({ kind: 'notify' });
    expect(updaterCapability({ ...linux, linuxPackageType: 'rpm' })).toEqual({ kind: 'notify' });
    expect(updaterCapability({ ...linux, appImage: true })).toEqual({ kind: 'install' });
    expect(updaterCapability({ ...linux, linuxPackageType: 'pacman' })).toEqual({
      kind: 'none',
      reason: 'not_installed',
    });
  });

  it('has no updates in development or in a build without a feed', () => {
    expect(updaterCapability({ ...installed, packaged: false })).toEqual({
      kind: 'none',
      reason: 'development',
    });
    expect(updaterCapability({ ...installed, hasUpdateConfig: false })).toEqual({
      kind: 'none',
      reason: 'not_installed',
    });
    expect(updaterCapability({ ...installed, platform: 'freebsd' })).toEqual({
      kind: 'none',
      reason: 'not_installed',
    });
  });
});
