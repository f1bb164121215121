/**
 * The update feed a build carries. electron-builder.yml names none: a build gets one only from
 * PICTOR_UPDATE_FEED at `npm run dist` time, so CI and local builds carry no feed (they never
 * check for updates), and a release build (`npm run dist -- --release`, or PICTOR_RELEASE=1)
 * refuses to start without a real one. A placeholder address (pictor.invalid, example.com,
 * localhost…) is refused for every build: an app that asks a placeholder for updates only ever
 * shows "the update server cannot be reached".
 */

export type FeedDecision =
  | {
      readonly ok: true;
      readonly feed: string | null;
      readonly release: boolean;
      /** PICTOR_TEST_BUILD=1: CI's smoke build, whose packaged app keeps the debugger switches. */
      readonly testBuild: boolean;
    }
  | { readonly ok: false; readonly problem: string };

/** RFC 2606 and RFC 6761 names, the documentation domains, and loopback. */
const PLACEHOLDER_HOST =
  /(^|\.)(invalid|test|example|localhost|local)$|(^|\.)example\.(com|net|org)$|^127\.|^\[::1\]$|^0\.0\.0\.0$/i;

/** Why `raw` cannot be the update feed, or null when it can. */
export function feedProblem(raw: string): string | null {
  if (!URL.canParse(raw)) return `PICTOR_UPDATE_FEED is not an address: ${raw}`;
  const url = new URL(raw);
  if (url.protocol !== 'https:')
    return `The update feed must be https (electron-updater trusts what the feed lists): ${raw}`;
  if (url.username || url.password || url.search || url.hash)
    return 'The update feed must not carry a user name, password, query or fragment: the address is written into every copy of the app.';
  if (PLACEHOLDER_HOST.test(url.hostname))
    return `The update feed ${raw} is a placeholder, not where releases are published: set PICTOR_UPDATE_FEED to the real https address of the folder that holds latest.yml.`;
  if (!url.pathname.endsWith('/'))
    return `The update feed is a folder: end it with a slash (${raw}/).`;
  return null;
}

/** Decides the feed of a `npm run dist` from its environment and arguments. */
export function decideFeed(env: NodeJS.ProcessEnv, args: readonly string[]): FeedDecision {
  const release = args.includes('--release') || env['PICTOR_RELEASE'] === '1';
  const testBuild = env['PICTOR_TEST_BUILD'] === '1';
  if (release && testBuild)
    return {
      ok: false,
      problem:
        'PICTOR_TEST_BUILD=1 makes an app that accepts a debugger (for CI’s smoke): a release build never is one.',
    };
  const raw = env['PICTOR_UPDATE_FEED']?.trim() ?? '';
  if (raw === '') {
    return release
      ? {
          ok: false,
          problem:
            'A release build needs its update feed: set PICTOR_UPDATE_FEED to the https address of the folder the release is published to.',
        }
      : { ok: true, feed: null, release, testBuild };
  }
  const problem = feedProblem(raw);
  return problem ? { ok: false, problem } : { ok: true, feed: raw, release, testBuild };
}

/**
 * electron-builder's arguments: the user's (without --release), the feed when there is one, and
 * for a test build its binary's inspect fuse left on (Playwright's Electron launch needs it).
 */
export function builderArgs(
  decision: { readonly feed: string | null; readonly testBuild?: boolean },
  args: readonly string[],
) {
  const fuses = decision.testBuild ? ['-c.electronFuses.enableNodeCliInspectArguments=true'] : [];
  const feed = decision.feed
    ? [
        '-c.publish.provider=generic',
        `-c.publish.url=${decision.feed}`,
        '-c.publish.channel=latest',
      ]
    : [];
  return [
    '--config',
    'electron-builder.yml',
    '--publish',
    'never',
    ...args.filter((arg) => arg !== '--release'),
    ...feed,
    ...fuses,
  ];
}
