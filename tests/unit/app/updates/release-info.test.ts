/**
 * The channel file as Pictor reads it: whatever electron-builder writes (its own serializer, over
 * generated release notes, names and versions) is read back exactly; anchors, aliases, tags,
 * directives, deep flow collections and too many tokens are refused before a value is built;
 * a prerelease goes only to a prerelease. The channel file's schema is built on its first use,
 * not when main loads the module at its start.
 */
import { createHash } from 'node:crypto';
import { serializeToYaml } from 'builder-util/out/util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  FeedRefusedError,
  MAX_FEED_TOKENS,
  readFeedYaml,
} from '../../../../electron/app/updates/feed-yaml';
import { checkChannelFile, isPlainFileName } from '../../../../electron/app/updates/release-info';
import { readUpdateConfig } from '../../../../electron/app/updates/release-feed';
import { schemasBuiltBy } from '../../../support/zod-builds';

const sha512 = (text: string): string => createHash('sha512').update(text).digest('base64');

/** What electron-builder's updateInfoBuilder puts in a channel file. */
function release(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '0.2.0',
    files: [{ url: 'Pictor-Setup-0.2.0.exe', sha512: sha512('a'), size: 104_857_600 }],
    path: 'Pictor-Setup-0.2.0.exe',
    sha512: sha512('a'),
    releaseDate: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** electron-builder's own serializer (builder-util), as it writes `latest*.yml`. */
const written = (info: object): string => serializeToYaml(info, false, true);

function refusal(run: () => unknown): FeedRefusedError {
  try {
    run();
  } catch (error) {
    if (error instanceof FeedRefusedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const semver = fc
  .tuple(fc.nat(99), fc.nat(99), fc.nat(99))
  .map(([major, minor, patch]) => `${major}.${minor}.${patch + 1}`);

describe('what electron-builder writes is read back exactly', () => {
  it('any release notes, name, version, sizes and installer names round-trip', () => {
    // electron-builder names files after the product: never a Windows device name (`con.exe`).
    const fileName = fc
      .stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9._ -]{0,40}\.(exe|zip|AppImage)$/)
      .filter(isPlainFileName);
    fc.assert(
      fc.property(
        semver,
        fc.option(fc.string({ unit: 'grapheme', maxLength: 2_000 }), { nil: undefined }),
        fc.option(fc.string({ maxLength: 100 }), { nil: undefined }),
        fc.array(fc.tuple(fileName, fc.integer({ min: 1, max: 2 ** 31 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        (version, releaseNotes, releaseName, files, stagingPercentage) => {
          const info = release({
            version,
            files: files.map(([url, size]) => ({ url, sha512: sha512(url), size })),
            path: files[0]![0],
            sha512: sha512(files[0]![0]),
            ...(releaseNotes === undefined ? {} : { releaseNotes }),
            ...(releaseName === undefined ? {} : { releaseName }),
            ...(stagingPercentage === undefined ? {} : { stagingPercentage }),
          });
          expect(checkChannelFile(written(info), '0.0.1')).toEqual(info);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('per-version notes and an NSIS file with its blockmap size and admin flag', () => {
    const info = release({
      files: [
        {
          url: 'Pictor-Setup-0.2.0.exe',
          sha512: sha512('a'),
          size: 90_000_000,
          blockMapSize: 95_000,
          isAdminRightsRequired: false,
        },
      ],
      releaseNotes: [
        { version: '0.2.0', note: '<h2>New</h2>\n<ul><li>Faster & *safer*</li></ul>' },
        { version: '0.1.1', note: null },
      ],
    });
    expect(checkChannelFile(written(info), '0.1.0')).toEqual(info);
  });

  it('drops fields Pictor does not check instead of passing them on', () => {
    const text = written(release({ packages: { x64: { path: 'evil.7z' } }, extra: 1 }));
    expect(checkChannelFile(text, '0.1.0')).toEqual(release());
  });
});

describe('YAML that no channel file needs is refused before it is built', () => {
  it('an alias bomb that no computer could expand (9^20 values)', () => {
    const names = Array.from({ length: 20 }, (_, index) => `k${index}`);
    const lines = names.map((name, index) =>
      index === 0
        ? `${name}: &${name} [x,x,x,x,x,x,x,x,x]`
        : `${name}: &${name} [${Array(9)
            .fill(`*${names[index - 1]}`)
            .join(',')}]`,
    );
    expect(refusal(() => readFeedYaml(lines.join('\n'))).message).toMatch(/anchor/);
  });

  it.each([
    ['an anchor alone', 'version: &v 0.2.0'],
    ['an alias alone', 'version: *v'],
    ['a merge key', 'files:\n  - <<: *f'],
    ['a core tag', "size: !!int '5'"],
    ['a local tag', 'size: !big 5'],
    ['a directive', '%YAML 1.2\n---\nversion: 0.2.0'],
    ['flow collections three deep', 'releaseNotes: [[[x]]]'],
    ['a second document', 'version: 0.2.0\n---\nversion: 9.9.9'],
    ['a duplicate key', 'version: 0.2.0\nversion: 9.9.9'],
    ['unbalanced YAML', 'version: [0.2.0\nfiles: {{{'],
    [
      'too many tokens',
      Array.from({ length: MAX_FEED_TOKENS }, (_, i) => `k${i}: ${i}`).join('\n'),
    ],
  ])('%s', (_name, text) => {
    expect(refusal(() => readFeedYaml(text))).toBeInstanceOf(FeedRefusedError);
  });

  it('leaves & and * alone inside text (they are anchors only as YAML syntax)', () => {
    expect(readFeedYaml('releaseNotes: "a & *b"\nname: \'&c\'\nnote: |\n  *d &e\n')).toEqual({
      releaseNotes: 'a & *b',
      name: '&c',
      note: '*d &e\n',
    });
  });
});

describe('a prerelease goes only to a prerelease', () => {
  const text = (version: string): string => written(release({ version }));

  it.each([
    ['0.1.0', '0.2.0'],
    ['0.1.0-beta.1', '0.2.0-beta.2'],
    ['0.1.0-beta.1', '0.2.0'],
    ['0.1.0', '0.2.0+build.7'],
  ])('%s is offered %s', (current, offered) => {
    expect(checkChannelFile(text(offered), current).version).toBe(offered);
  });

  it.each(['0.2.0-beta.1', '1.0.0-rc.1', '0.2.0-0', '0.2.0-alpha+build'])(
    'a stable 0.1.0 is not offered %s',
    (offered) => {
      const error = refusal(() => checkChannelFile(text(offered), '0.1.0'));
      expect(error.code).toBe('ERR_UPDATER_PRERELEASE_FOR_STABLE');
    },
  );
});

describe("the packaged app's app-update.yml", () => {
  it('names the generic feed electron-builder wrote', () => {
    const text = written({
      provider: 'generic',
      url: 'https://pictor.invalid/updates/',
      channel: 'latest',
      updaterCacheDirName: 'pictor-updater',
      publisherName: ['The Pictor developers'],
    });
    expect(readUpdateConfig(text)).toEqual({
      url: 'https://pictor.invalid/updates/',
      channel: 'latest',
      publisherNames: ['The Pictor developers'],
    });
  });

  it('reads the Windows publisher as electron-builder writes it, and none for an unsigned build', () => {
    const base = { provider: 'generic', url: 'https://pictor.invalid/updates/' };
    expect(
      readUpdateConfig(written({ ...base, publisherName: 'Pictor Ltd' })).publisherNames,
    ).toEqual(['Pictor Ltd']);
    expect(readUpdateConfig(written(base)).publisherNames).toEqual([]);
    expect(readUpdateConfig(written({ ...base, publisherName: null })).publisherNames).toEqual([]);
  });

  it.each([
    ['another provider', 'provider: github\nowner: someone\nrepo: pictor\n'],
    ['a file address', 'provider: generic\nurl: file:///etc/\n'],
    ['no address', 'provider: generic\n'],
  ])('refuses %s', (_name, text) => {
    expect(refusal(() => readUpdateConfig(text))).toBeInstanceOf(FeedRefusedError);
  });
});

describe('the channel file’s schema', () => {
  it('is built on its first use, not when the module is loaded, and once', async () => {
    vi.resetModules();
    // What the module imports from elsewhere is loaded first: what that builds is not its own.
    await import('zod');
    await import('../../../../shared/domain/lazy-schema');
    await import('../../../../shared/domain/update-state');
    await import('../../../../electron/app/updates/feed-yaml');
    let loaded: { checkChannelFile: typeof checkChannelFile } | undefined;
    const atLoad = await schemasBuiltBy(async () => {
      loaded = await import('../../../../electron/app/updates/release-info');
    });
    // 68 before (the file, note and channel file objects with their fields).
    expect(atLoad).toEqual([]);
    const check = () => loaded?.checkChannelFile(written(release()), '0.1.0');
    expect((await schemasBuiltBy(async () => check())).length).toBeGreaterThan(0);
    expect(await schemasBuiltBy(async () => check())).toEqual([]);
    vi.resetModules();
  });
});
