/**
 * The release job's update check: the previous release is the newest older vX.Y.Z tag, the test
 * feed is an https folder of this repository's releases, and the old app's log decides whether it
 * found (or downloaded) exactly this version.
 */
import { describe, expect, it } from 'vitest';
import {
  installedArchive,
  logShowsUpdate,
  previousTag,
  testFeed,
} from '../../e2e/packaged/update-plan';
import { feedProblem } from '../../../electron/build/release-feed';

describe('the update check’s plan', () => {
  it('takes the newest release tag older than this one, never a prerelease or a later one', () => {
    const tags = ['v0.9.0', 'v0.10.2', 'v0.10.10', 'v1.0.0-rc.1', 'v1.0.0', 'v1.2.0', 'nightly'];
    expect(previousTag(tags, 'v1.0.0')).toBe('v0.10.10');
    expect(previousTag(tags, 'v1.1.0')).toBe('v1.0.0');
    expect(previousTag(tags, 'v0.9.0')).toBeNull();
    expect(previousTag(tags, 'main')).toBeNull();
  });

  it('publishes to a test feed that a release build accepts as its feed', () => {
    const feed = testFeed('pictor/pictor', 'v1.2.0', 'win32');
    expect(feed).toEqual({
      release: 'test-feed-v1.2.0-win32',
      url: 'https://github.com/pictor/pictor/releases/download/test-feed-v1.2.0-win32/',
    });
    expect(feedProblem(feed.url)).toBeNull();
    // One feed per leg: each deletes its own when done, never one another leg still reads.
    expect(testFeed('pictor/pictor', 'v1.2.0', 'linux').release).toBe('test-feed-v1.2.0-linux');
  });

  it('reads the old app’s log for this version, downloaded or announced', () => {
    const downloaded =
      '{"time":"t","level":"info","message":"the update is downloaded and verified","fields":{"version":"1.2.0"}}';
    const found =
      '{"time":"t","level":"info","message":"a newer version is on the update feed","fields":{"version":"1.2.0"}}';
    expect(logShowsUpdate(`${found}\n${downloaded}\n`, '1.2.0', true)).toBe(true);
    expect(logShowsUpdate(`${found}\n`, '1.2.0', true)).toBe(false);
    expect(logShowsUpdate(`${found}\n`, '1.2.0', false)).toBe(true);
    expect(logShowsUpdate(downloaded.replace('1.2.0', '1.2.1'), '1.2.0', true)).toBe(false);
  });

  it('reads the version from where each installer puts the app', () => {
    expect(installedArchive('linux', '')).toBe('/opt/Pictor/resources/app.asar');
    expect(installedArchive('win32', 'C:\\Users\\r\\AppData\\Local')).toBe(
      'C:\\Users\\r\\AppData\\Local\\Programs\\Pictor\\resources\\app.asar',
    );
  });
});
