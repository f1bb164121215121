/** Which copies of Pictor update themselves, which only tell, which do nothing. */
import { describe, expect, it } from 'vitest';
import {
  classifySignature,
  readMacSignature,
  updaterCapability,
  type InstallFacts,
} from '../../../../electron/app/updates/update-capability';
import type { CodeSignatureReader } from '../../../../electron/ports/code-signature';

const installed: InstallFacts = {
  packaged: true,
  platform: 'win32',
  hasUpdateConfig: true,
  linuxPackageType: null,
};

describe('updaterCapability', () => {
  it('installs on Windows (NSIS) only when app-update.yml names the publisher to check, and on macOS only over a real signature', () => {
    expect(updaterCapability({ ...installed, windowsPublisherNamed: true })).toEqual({
      kind: 'install',
    });
    const mac = { ...installed, platform: 'darwin' as const };
    expect(updaterCapability({ ...mac, macSignature: 'valid' })).toEqual({ kind: 'install' });
  });

  it.each(['ad-hoc', 'unsigned', 'invalid', 'unknown', undefined] as const)(
    'only tells on macOS when the signature is %s (Squirrel.Mac would refuse the update)',
    (macSignature) => {
      expect(
        updaterCapability({
          ...installed,
          platform: 'darwin',
          ...(macSignature ? { macSignature } : {}),
        }),
      ).toEqual({ kind: 'notify' });
    },
  );

  it.each([false, undefined])(
    'only tells on an unsigned Windows build (publisher named: %s): NsisUpdater would run any installer the feed lists',
    (windowsPublisherNamed) => {
      expect(
        updaterCapability({
          ...installed,
          ...(windowsPublisherNamed === undefined ? {} : { windowsPublisherNamed }),
        }),
      ).toEqual({ kind: 'notify' });
    },
  );

  it('only tells on Linux packages; a copy without one has no updates (no AppImage is built)', () => {
    const linux = { ...installed, platform: 'linux' as const };
    expect(updaterCapability({ ...linux, linuxPackageType: 'deb' })).toEqual({ kind: 'notify' });
    expect(updaterCapability({ ...linux, linuxPackageType: 'rpm' })).toEqual({ kind: 'notify' });
    expect(updaterCapability(linux)).toEqual({ kind: 'none', reason: 'not_installed' });
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

/** What codesign prints (to stderr) for each kind of app, as recorded on macOS 15. */
const APP = '/Applications/Pictor.app';
const OUTPUT = {
  unsigned: `${APP}: code object is not signed at all\nIn architecture: arm64\n`,
  tampered: `${APP}: a sealed resource is missing or invalid\nfile modified: ${APP}/Contents/Resources/app.asar\n`,
  adHoc: [
    `Executable=${APP}/Contents/MacOS/Pictor`,
    'Identifier=app.pictor.desktop',
    'Format=app bundle with Mach-O thin (arm64)',
    'CodeDirectory v=20400 size=1234 flags=0x20002(adhoc,linker-signed) hashes=30+7 location=embedded',
    'Signature=adhoc',
    'Info.plist entries=28',
    'TeamIdentifier=not set',
    '',
  ].join('\n'),
  developerId: [
    `Executable=${APP}/Contents/MacOS/Pictor`,
    'Identifier=app.pictor.desktop',
    'CodeDirectory v=20500 size=1234 flags=0x10000(runtime) hashes=30+7 location=embedded',
    'Signature size=9000',
    'Authority=Developer ID Application: The Pictor developers (AB12CD34EF)',
    'Authority=Developer ID Certification Authority',
    'Authority=Apple Root CA',
    'Timestamp=23 Nov 2026 at 19:10:36',
    'TeamIdentifier=AB12CD34EF',
    '',
  ].join('\n'),
};

describe('the macOS signature, from codesign', () => {
  const ok = (output: string) => ({ status: 0, output });
  const failed = (output: string) => ({ status: 1, output });

  it.each([
    ['a Developer ID signature', ok(''), ok(OUTPUT.developerId), 'valid'],
    ['an ad-hoc signature', ok(''), ok(OUTPUT.adHoc), 'ad-hoc'],
    ['no signature', failed(OUTPUT.unsigned), failed(OUTPUT.unsigned), 'unsigned'],
    ['a bundle changed after signing', failed(OUTPUT.tampered), ok(OUTPUT.developerId), 'invalid'],
    ['codesign that did not start', { status: null, output: '' }, ok(''), 'unknown'],
    ['an answer it does not know', ok(''), ok('Identifier=x\n'), 'unknown'],
  ] as const)('%s is %s', (_what, verify, display, expected) => {
    expect(classifySignature(verify, display)).toBe(expected);
  });

  it('asks codesign about the bundle, through the port', async () => {
    const asked: string[] = [];
    const reader: CodeSignatureReader = {
      verify: async (bundle) => (asked.push(`verify ${bundle}`), ok('')),
      display: async (bundle) => (asked.push(`display ${bundle}`), ok(OUTPUT.adHoc)),
    };
    expect(await readMacSignature(APP, reader)).toBe('ad-hoc');
    expect(asked.sort()).toEqual([`display ${APP}`, `verify ${APP}`]);
  });
});
