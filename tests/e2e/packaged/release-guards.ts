/**
 * The release job's guards, pure so each is unit-tested (tests/unit/e2e/release-guards.test.ts):
 * what is refused before anything is built (release-preflight.ts), which update check a leg runs,
 * and the time limit every wait of the update check has (update-from-previous.ts). A refusal is a
 * sentence saying what is wrong and what to do; null means no problem.
 */
import type { Clock } from '../../../electron/ports/clock';

/** Why the pushed tag cannot release this package.json's version, or null. */
export function tagVersionProblem(tag: string, version: string): string | null {
  if (tag === `v${version}`) return null;
  return (
    `The tag ${tag} does not match package.json's version ${version}: a release is tagged ` +
    `v<version>, so bump the version (npm version <new version>), push that commit and tag it. ` +
    `A build of an unbumped version never finds itself newer than the last release, and its ` +
    `update check would wait for an update that cannot come.`
  );
}

/** Which signing and notarisation secrets the macOS leg has (the workflow's booleans). */
export interface MacSecrets {
  readonly signed: boolean;
  readonly notarised: boolean;
}

/**
 * Why a macOS release cannot go on with these secrets, or null: a Developer ID signature without
 * notarisation makes an app Gatekeeper refuses on every user's Mac (`spctl --assess` fails), so it
 * is refused before the build, never discovered at the signature check.
 */
export function notarisationProblem(platform: NodeJS.Platform, mac: MacSecrets): string | null {
  if (platform !== 'darwin' || !mac.signed || mac.notarised) return null;
  return (
    'This run signs the Mac app (MAC_CSC_LINK is set) but cannot notarise it: APPLE_API_KEY_P8, ' +
    'APPLE_API_KEY_ID and APPLE_API_ISSUER are not all set. Gatekeeper refuses a signed app that ' +
    'is not notarised, so this release would not open on users’ Macs: add the three secrets, or ' +
    'remove MAC_CSC_LINK for an unsigned test release.'
  );
}

/**
 * Why the update check cannot use a test feed in this repository, or null: GitHub answers 404 to
 * a private repository's release downloads without a token, and an installed app sends none.
 */
export function privateFeedProblem(repositoryPrivate: boolean): string | null {
  if (!repositoryPrivate) return null;
  return (
    'This repository is private: its release files answer 404 to a request without a token, and ' +
    'the installed app sends none, so the update check’s test feed (a release of this ' +
    'repository) cannot serve updates. Run the release job in a public repository (a public ' +
    'fork), or make this one public: see docs/RELEASING.md.'
  );
}

/** What a leg's update check does: skipped (with its reason), or run, installing or announcing. */
export type UpdateCheckPlan =
  | { readonly run: false; readonly reason: string }
  | { readonly run: true; readonly installs: boolean };

export interface UpdateCheckFacts {
  readonly platform: NodeJS.Platform;
  /** The previous release tag, or null when this is the first. */
  readonly previous: string | null;
  /** The workflow's PICTOR_MAC_SIGNED / PICTOR_WIN_SIGNED. */
  readonly macSigned: boolean;
  readonly winSigned: boolean;
}

/**
 * Whether the update check runs on this leg, and whether the old app installs the update (a
 * signed Windows or Mac build) or only announces it (Linux packages, an unsigned Windows build:
 * app/updates/update-capability.ts). An unsigned Mac is skipped (Squirrel.Mac installs only over a
 * Developer ID signature; the announcing path is Linux's), and then its previous tag is not built.
 */
export function updateCheckPlan(facts: UpdateCheckFacts): UpdateCheckPlan {
  if (facts.previous === null)
    return { run: false, reason: 'no release tag before this one: nothing to update from' };
  if (facts.platform === 'darwin')
    return facts.macSigned
      ? { run: true, installs: true }
      : {
          run: false,
          reason:
            'Squirrel.Mac installs only over a Developer ID signature, and this run signs nothing',
        };
  if (facts.platform === 'win32') return { run: true, installs: facts.winSigned };
  return { run: true, installs: false };
}

/** The CPU switches of `npm run dist` (electron-builder's). */
const CPU_SWITCHES = new Set(['--x64', '--arm64', '--ia32', '--armv7l', '--universal']);

/**
 * The previous tag's `npm run dist` arguments: the given ones with every CPU switch replaced by
 * the runner's own, since the old app is installed and run on this runner only.
 */
export function previousDistArgs(args: readonly string[], arch: string): string[] {
  return [
    '--release',
    ...args.filter((arg) => !CPU_SWITCHES.has(arg) && arg !== '--release'),
    `--${arch}`,
  ];
}

/** A wait that ran out of time: says what did not happen, and in how long. */
export class WaitTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`Gave up waiting for ${what} after ${Math.round(ms / 1000)} s.`);
    this.name = 'WaitTimeout';
  }
}

/** `promise`, or a {@link WaitTimeout} once `ms` have passed on `clock` without it settling. */
export function within<T>(promise: Promise<T>, ms: number, what: string, clock: Clock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new WaitTimeout(what, ms)), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Polls `probe` every `everyMs` until it is true, or fails with a {@link WaitTimeout} after `ms`
 * (the probe is asked once more at the end, so a last-moment answer counts).
 */
export async function pollUntil(
  what: string,
  probe: () => boolean,
  ms: number,
  clock: Clock,
  everyMs = 2_000,
): Promise<void> {
  const end = clock.now() + ms;
  while (!probe()) {
    if (clock.now() >= end) throw new WaitTimeout(what, ms);
    await new Promise<void>((resolve) =>
      clock.setTimeout(resolve, Math.min(everyMs, end - clock.now())),
    );
  }
}
