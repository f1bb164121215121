/**
 * The app's own updates as the page sees them: one state from the main process's update service
 * (electron/app/updates). The page words every status and problem from its catalogue; nothing
 * here is a URL or a path, and nothing the page sends can name one.
 */
import { z } from 'zod';
import { dateMsSchema } from './limits';
import { lazySchema } from './lazy-schema';

const UPDATE_STATUSES = [
  /** This copy cannot update itself (see {@link UPDATE_UNAVAILABLE_REASONS}). */
  'unavailable',
  'idle',
  'checking',
  'available',
  'downloading',
  /** Downloaded and verified: "Restart to update". */
  'ready',
  'error',
] as const;

/**
 * Why there are no updates: a development or test run (not a packaged app), or a build that was
 * not installed from a release (no update feed configured in it).
 */
const UPDATE_UNAVAILABLE_REASONS = ['development', 'not_installed'] as const;
export type UpdateUnavailableReason = (typeof UPDATE_UNAVAILABLE_REASONS)[number];

/** What went wrong, in one quiet sentence each (the page's catalogue words them). */
const UPDATE_PROBLEMS = [
  /** No connection to the update server. */
  'offline',
  /** The server answered, but has no update information for this app (404 and the like). */
  'feed_missing',
  /** The update information could not be read (malformed, too large, wrong version, no files). */
  'feed_invalid',
  /** The feed offered a prerelease to a stable version: refused, nothing downloaded. */
  'prerelease',
  /** The download's sha512 did not match the feed's: refused, nothing installed. */
  'checksum',
  /**
   * The installer itself holds another version than the one offered (an older release
   * relabelled): deleted, nothing installed.
   */
  'installer_version',
  /** The download went past the size the feed declared: cut off there, nothing installed. */
  'oversize',
  /** The update could not be installed. */
  'install_failed',
  'failed',
] as const;
export type UpdateProblem = (typeof UPDATE_PROBLEMS)[number];

/**
 * How a found update is handled: downloaded in the background, or only announced. Linux packages
 * (deb, rpm) are always announced only: the package manager installs them.
 */
export const UPDATE_MODES = ['download', 'notify'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

export const MAX_RELEASE_NOTES_CHARS = 4_000;
/** A version as the page may show it (the feed's is semver, checked again here: short, plain). */
export const updateVersionSchema = lazySchema(() =>
  z
    .string()
    .max(64)
    .regex(/^[0-9A-Za-z.+-]+$/),
);

/** Built on first use (lazy-schema.ts): loading the module (main's IPC contract does) builds none. */
export const updateStateSchema = lazySchema(() =>
  z.object({
    status: z.enum(UPDATE_STATUSES),
    /** Set while `unavailable`. */
    reason: z.enum(UPDATE_UNAVAILABLE_REASONS).optional(),
    /** False where Pictor only announces updates (Linux packages): no download, no restart. */
    canInstall: z.boolean(),
    /**
     * While `available` in a copy that cannot install (`canInstall` false): main has a download of
     * the new version for this machine and opens it on `updates:openDownload`. The address itself
     * stays in main.
     */
    canOpenDownload: z.boolean().optional(),
    /** The version on offer (`available`, `downloading`, `ready`). */
    version: updateVersionSchema().optional(),
    /** The release notes as plain text, shortened. */
    releaseNotes: z.string().max(MAX_RELEASE_NOTES_CHARS).optional(),
    /** 0–1 while `downloading`. */
    progress: z.number().min(0).max(1).optional(),
    /** Set while `error`. */
    problem: z.enum(UPDATE_PROBLEMS).optional(),
    /** When the feed last answered (successfully or not). */
    lastCheckedAt: dateMsSchema().optional(),
  }),
);
export type UpdateState = z.infer<ReturnType<typeof updateStateSchema>>;
