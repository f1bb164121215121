/**
 * The download a copy that cannot update itself links to: the right file for the machine, and
 * never an address a feed could aim elsewhere (another origin, another folder, credentials,
 * anything but https).
 */
import { describe, expect, it } from 'vitest';
import {
  downloadLink,
  releaseFileLink,
  type DownloadTarget,
} from '../../../../electron/app/updates/download-link';

const FEED = 'https://updates.pictor.example/stable/';
const MAC_ARM: DownloadTarget = { platform: 'darwin', arch: 'arm64', linuxPackageType: null };
const MAC_INTEL: DownloadTarget = { platform: 'darwin', arch: 'x64', linuxPackageType: null };
const DEB: DownloadTarget = { platform: 'linux', arch: 'x64', linuxPackageType: 'deb' };
const RPM_ARM: DownloadTarget = { platform: 'linux', arch: 'arm64', linuxPackageType: 'rpm' };
const files = (...names: string[]) => names.map((url) => ({ url }));

/** What electron-builder publishes for a mac release with both architectures. */
const MAC_RELEASE = files(
  'Pictor-0.2.0-arm64-mac.zip',
  'Pictor-0.2.0-mac.zip',
  'Pictor-0.2.0-arm64.dmg',
  'Pictor-0.2.0.dmg',
);

describe('downloadLink', () => {
  it('macOS: the dmg of this architecture, else its zip', () => {
    expect(downloadLink(MAC_RELEASE, FEED, MAC_ARM)).toBe(`${FEED}Pictor-0.2.0-arm64.dmg`);
    expect(downloadLink(MAC_RELEASE, FEED, MAC_INTEL)).toBe(`${FEED}Pictor-0.2.0.dmg`);
    const zips = files('Pictor-0.2.0-arm64-mac.zip', 'Pictor-0.2.0-mac.zip');
    expect(downloadLink(zips, FEED, MAC_ARM)).toBe(`${FEED}Pictor-0.2.0-arm64-mac.zip`);
    expect(downloadLink(zips, FEED, MAC_INTEL)).toBe(`${FEED}Pictor-0.2.0-mac.zip`);
  });

  it('macOS: a universal build fits both; an x64-only release has nothing for Apple silicon', () => {
    const universal = files('Pictor-0.2.0-universal.dmg');
    expect(downloadLink(universal, FEED, MAC_ARM)).toBe(`${FEED}Pictor-0.2.0-universal.dmg`);
    expect(downloadLink(universal, FEED, MAC_INTEL)).toBe(`${FEED}Pictor-0.2.0-universal.dmg`);
    // An unnamed file is x64 (electron-builder's default): not offered to an arm64 Mac.
    expect(downloadLink(files('Pictor-0.2.0.dmg'), FEED, MAC_ARM)).toBeNull();
    expect(downloadLink(files('Pictor-0.2.0-arm64.dmg'), FEED, MAC_INTEL)).toBeNull();
  });

  it('Linux: the deb for a deb install, the rpm for an rpm install, in each scheme’s arch words', () => {
    const linux = files(
      'Pictor-0.2.0.AppImage',
      'pictor_0.2.0_amd64.deb',
      'pictor_0.2.0_arm64.deb',
      'pictor-0.2.0.x86_64.rpm',
      'pictor-0.2.0.aarch64.rpm',
    );
    expect(downloadLink(linux, FEED, DEB)).toBe(`${FEED}pictor_0.2.0_amd64.deb`);
    expect(downloadLink(linux, FEED, RPM_ARM)).toBe(`${FEED}pictor-0.2.0.aarch64.rpm`);
    // Only an AppImage listed (electron-builder's usual latest-linux.yml): no link.
    expect(downloadLink(files('Pictor-0.2.0.AppImage'), FEED, DEB)).toBeNull();
    const unknownPackage: DownloadTarget = { ...DEB, linuxPackageType: null };
    expect(downloadLink(linux, FEED, unknownPackage)).toBeNull();
  });

  it('Windows (an unsigned build, which only announces): the installer', () => {
    const windows: DownloadTarget = { platform: 'win32', arch: 'x64', linuxPackageType: null };
    expect(downloadLink(files('Pictor-Setup-0.2.0.exe'), FEED, windows)).toBe(
      `${FEED}Pictor-Setup-0.2.0.exe`,
    );
    expect(downloadLink(files('Pictor-0.2.0.dmg'), FEED, windows)).toBeNull();
  });

  it('no files, or none of this kind: no link', () => {
    expect(downloadLink([], FEED, MAC_ARM)).toBeNull();
    expect(downloadLink(files('Pictor-0.2.0-arm64.exe', 'notes.txt'), FEED, MAC_ARM)).toBeNull();
  });

  it('a feed over http gets no link (the browser would fetch the installer in the clear)', () => {
    expect(downloadLink(MAC_RELEASE, 'http://updates.pictor.example/stable/', MAC_ARM)).toBeNull();
    expect(downloadLink(MAC_RELEASE, 'http://127.0.0.1:8080/', MAC_ARM)).toBeNull();
  });

  it('skips a name that cannot be a file beside the channel file and takes the next one', () => {
    const hostile = files(
      '../../elsewhere/Pictor-0.2.0-arm64.dmg',
      'https://evil.example/Pictor-0.2.0-arm64.dmg',
      'Pictor-0.2.0-arm64.dmg',
    );
    expect(downloadLink(hostile, FEED, MAC_ARM)).toBe(`${FEED}Pictor-0.2.0-arm64.dmg`);
  });
});

describe('releaseFileLink', () => {
  it('resolves a plain name beside the channel file, with or without the folder’s slash', () => {
    expect(releaseFileLink(FEED, 'Pictor-0.2.0.dmg')).toBe(`${FEED}Pictor-0.2.0.dmg`);
    expect(releaseFileLink('https://updates.pictor.example/stable', 'Pictor-0.2.0.dmg')).toBe(
      `${FEED}Pictor-0.2.0.dmg`,
    );
    // A space is a character of the name, never a break in the address.
    expect(releaseFileLink(FEED, 'Pictor 0.2.0.dmg')).toBe(`${FEED}Pictor%200.2.0.dmg`);
  });

  it.each([
    ['another origin', 'https://evil.example/Pictor.dmg'],
    ['a scheme-relative address', '//evil.example/Pictor.dmg'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['the parent folder', '..'],
    ['a file in the parent folder', '../Pictor.dmg'],
    ['a sub-folder', 'sub/Pictor.dmg'],
    ['a backslash path', '..\\Pictor.dmg'],
    ['credentials', 'user:pass@evil.example/Pictor.dmg'],
    ['a query', 'Pictor.dmg?x=1'],
    ['a fragment', 'Pictor.dmg#x'],
    ['a control character', 'Pictor\u0000.dmg'],
    ['a percent escape', 'Pictor%2F.dmg'],
    ['a right-to-left override', 'Pictor\u202egmd.exe'],
    ['a line break', 'Pictor\n.dmg'],
  ])('refuses %s', (_label, name) => {
    // Not a plain file name (the channel file's own rule): no link at all.
    expect(releaseFileLink(FEED, name)).toBeNull();
  });

  it('refuses what the feed URL itself makes unsafe', () => {
    expect(releaseFileLink('not a url', 'Pictor.dmg')).toBeNull();
    expect(releaseFileLink('http://updates.pictor.example/', 'Pictor.dmg')).toBeNull();
    expect(releaseFileLink('ftp://updates.pictor.example/', 'Pictor.dmg')).toBeNull();
    expect(releaseFileLink('https://user:pw@updates.pictor.example/', 'Pictor.dmg')).toBeNull();
  });

  it('refuses a link longer than a browser should be handed', () => {
    const deep = `https://updates.pictor.example/${'a/'.repeat(1100)}`;
    expect(releaseFileLink(deep, 'Pictor.dmg')).toBeNull();
  });

  it('refuses encoded dots and hidden files; keeps a punycode host as the feed wrote it', () => {
    for (const name of ['%2e%2e/Pictor.dmg', '.%2e', '%2e%2e', '.hidden.dmg', 'x'.repeat(256)]) {
      expect(releaseFileLink(FEED, name)).toBeNull();
    }
    expect(releaseFileLink('https://xn--pctor-5ra.example/', 'Pictor.dmg')).toBe(
      'https://xn--pctor-5ra.example/Pictor.dmg',
    );
  });
});
