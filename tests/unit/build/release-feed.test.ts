/**
 * The update feed of `npm run dist`: none unless PICTOR_UPDATE_FEED names one; a release build
 * refuses to start without a real one, and no build takes a placeholder (pictor.invalid, the
 * address electron-builder.yml used to bake into every build).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builderArgs, decideFeed, feedProblem } from '../../../electron/build/release-feed';
import { bareEnv } from '../../support/child-env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the update feed a build carries', () => {
  it('is none for CI and local builds, which never check for updates', () => {
    expect(decideFeed({}, [])).toEqual({
      ok: true,
      feed: null,
      release: false,
      testBuild: false,
    });
    expect(builderArgs({ feed: null }, ['--mac', '--arm64'])).toEqual([
      '--config',
      'electron-builder.yml',
      '--publish',
      'never',
      '--mac',
      '--arm64',
    ]);
  });

  it('is PICTOR_UPDATE_FEED when it is a real https folder, for a release too', () => {
    const env = { PICTOR_UPDATE_FEED: 'https://downloads.pictor-app.org/updates/' };
    expect(decideFeed(env, ['--release'])).toEqual({
      ok: true,
      feed: 'https://downloads.pictor-app.org/updates/',
      release: true,
      testBuild: false,
    });
    expect(builderArgs({ feed: env.PICTOR_UPDATE_FEED }, ['--release', '--x64'])).toEqual([
      '--config',
      'electron-builder.yml',
      '--publish',
      'never',
      '--x64',
      '-c.publish.provider=generic',
      '-c.publish.url=https://downloads.pictor-app.org/updates/',
      '-c.publish.channel=latest',
    ]);
  });

  it('leaves a test build’s inspect fuse on, and never makes a release one', () => {
    const decision = decideFeed({ PICTOR_TEST_BUILD: '1' }, ['--x64']);
    expect(decision).toEqual({ ok: true, feed: null, release: false, testBuild: true });
    expect(builderArgs({ feed: null, testBuild: true }, ['--x64'])).toEqual([
      '--config',
      'electron-builder.yml',
      '--publish',
      'never',
      '--x64',
      '-c.electronFuses.enableNodeCliInspectArguments=true',
    ]);
    const env = {
      PICTOR_TEST_BUILD: '1',
      PICTOR_UPDATE_FEED: 'https://downloads.pictor-app.org/updates/',
    };
    for (const [given, args] of [
      [env, ['--release']],
      [{ ...env, PICTOR_RELEASE: '1' }, []],
    ] as const) {
      const refused = decideFeed(given, args);
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.problem).toMatch(/a release build never is one/);
    }
  });

  it('refuses a release build without a feed', () => {
    for (const [env, args] of [
      [{}, ['--release']],
      [{ PICTOR_RELEASE: '1' }, []],
    ] as const) {
      const decision = decideFeed(env, args);
      expect(decision.ok).toBe(false);
      expect(!decision.ok && decision.problem).toMatch(/A release build needs its update feed/);
    }
  });

  it.each([
    'https://pictor.invalid/updates/',
    'https://updates.example.com/pictor/',
    'https://example.org/',
    'https://pictor.test/updates/',
    'https://localhost/updates/',
    'https://127.0.0.1/updates/',
    'https://[::1]/updates/',
  ])('refuses the placeholder %s, release or not', (feed) => {
    expect(feedProblem(feed)).toMatch(/is a placeholder/);
    expect(decideFeed({ PICTOR_UPDATE_FEED: feed }, []).ok).toBe(false);
  });

  it.each([
    ['http://downloads.pictor-app.org/updates/', /must be https/],
    ['https://user:pw@downloads.pictor-app.org/updates/', /user name, password/],
    ['https://downloads.pictor-app.org/updates/?token=1', /query/],
    ['https://downloads.pictor-app.org/updates', /end it with a slash/],
    ['not a url', /not an address/],
  ])('refuses %s', (feed, problem) => {
    expect(feedProblem(feed)).toMatch(problem);
  });
});

describe('npm run dist', () => {
  it('fails a release build whose feed is the placeholder, before packing anything', () => {
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'electron/build/dist.ts'), '--release'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: bareEnv({ PICTOR_UPDATE_FEED: 'https://pictor.invalid/updates/' }),
        timeout: 30_000,
      },
    );
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toMatch(
      /^dist: The update feed https:\/\/pictor\.invalid\/updates\/ is a placeholder/,
    );
  });
});
