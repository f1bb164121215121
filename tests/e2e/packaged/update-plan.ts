/**
 * The pure parts of the release job's update check (update-from-previous.ts): which tag the
 * previous release is, where this tag's test feed is published (one per leg), what the old app's log must say,
 * and where an installed app keeps the archive its version is read from. Unit-tested
 * (tests/unit/e2e/update-plan.test.ts).
 */
import path from 'node:path';

const VERSION_TAG = /^v(\d+)\.(\d+)\.(\d+)$/;

function parts(tag: string): [number, number, number] | null {
  const match = VERSION_TAG.exec(tag);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The newest release tag (`vX.Y.Z`, no prerelease) older than `current`, or null. */
export function previousTag(tags: readonly string[], current: string): string | null {
  const now = parts(current);
  if (!now) return null;
  let best: { tag: string; version: [number, number, number] } | null = null;
  for (const tag of tags) {
    const version = parts(tag.trim());
    if (!version || compare(version, now) >= 0) continue;
    if (!best || compare(version, best.version) > 0) best = { tag: tag.trim(), version };
  }
  return best?.tag ?? null;
}

/**
 * The GitHub release that serves as `tag`'s test feed on `platform`'s leg, and the feed's address
 * (https, a folder). One per leg: each leg deletes its own when its check is done, never another
 * leg's that is still in use.
 */
export function testFeed(
  repository: string,
  tag: string,
  platform: NodeJS.Platform,
): { release: string; url: string } {
  const release = `test-feed-${tag}-${platform}`;
  return { release, url: `https://github.com/${repository}/releases/download/${release}/` };
}

/**
 * What the old app's log (its JSON lines, app/updates/update-service.ts's words) must say before
 * it is quit: that `version` was downloaded and verified where it installs updates, that it was
 * found where it only announces them (Linux packages, an unsigned Mac).
 */
export function logShowsUpdate(log: string, version: string, installs: boolean): boolean {
  const phrase = installs
    ? 'the update is downloaded and verified'
    : 'a newer version is on the update feed';
  return log
    .split('\n')
    .some((line) => line.includes(phrase) && line.includes(`"version":"${version}"`));
}

/** The installed app's app.asar, whose package.json says its version. */
export function installedArchive(platform: NodeJS.Platform, localAppData: string): string {
  if (platform === 'linux') return '/opt/Pictor/resources/app.asar';
  if (platform === 'darwin') return '/Applications/Pictor.app/Contents/Resources/app.asar';
  return path.win32.join(localAppData, 'Programs', 'Pictor', 'resources', 'app.asar');
}
