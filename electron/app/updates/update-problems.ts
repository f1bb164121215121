/**
 * What went wrong with an update, from whatever electron-updater, the network or the OS threw:
 * one of a few codes the page words as one quiet sentence. The raw error goes to the log only.
 */
import type { UpdateProblem } from '../../../shared/domain/update-state';

/** The code of a download cut off past the size the checked feed declares (bounded-download.ts). */
export const ERR_DOWNLOAD_OVER_SIZE = 'ERR_UPDATER_DOWNLOAD_OVER_SIZE';
/** … of a download or channel file redirected off the feed's origin (no request is made there). */
export const ERR_REDIRECTED_ELSEWHERE = 'ERR_UPDATER_REDIRECTED_ELSEWHERE';
/** … of an installer that is not the version the feed offered (adapters/installer-version.ts). */
export const ERR_INSTALLER_VERSION = 'ERR_UPDATER_INSTALLER_VERSION';

/** electron-updater's codes for a feed that answered with nothing usable for this app. */
const FEED_MISSING = new Set([
  'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
  'ERR_UPDATER_LATEST_VERSION_NOT_FOUND',
  'ERR_UPDATER_RELEASE_NOT_FOUND',
  'ERR_UPDATER_NO_PUBLISHED_VERSIONS',
  'ERR_UPDATER_ASSET_NOT_FOUND',
  'ERR_UPDATER_ZIP_FILE_NOT_FOUND',
]);

/** … and for update information that could not be read or used. */
const FEED_INVALID = new Set([
  'ERR_UPDATER_INVALID_UPDATE_INFO',
  'ERR_UPDATER_INVALID_VERSION',
  'ERR_UPDATER_NO_FILES_PROVIDED',
  'ERR_UPDATER_NO_CHECKSUM',
  'ERR_UPDATER_INVALID_RELEASE_FEED',
  'ERR_UPDATER_INVALID_SIGNATURE',
  ERR_REDIRECTED_ELSEWHERE,
]);

/** Node's and Chromium's words for "no connection". */
const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EPIPE',
]);

interface ErrorFacts {
  readonly code: string;
  readonly statusCode: number;
  readonly message: string;
}

function factsOf(error: unknown): ErrorFacts {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  // Node's fetch says "fetch failed" and keeps the system's code on its cause.
  const cause = (record['cause'] ?? {}) as Record<string, unknown>;
  const code = record['code'] ?? cause['code'];
  return {
    code: typeof code === 'string' ? code : '',
    statusCode: typeof record['statusCode'] === 'number' ? record['statusCode'] : 0,
    message:
      typeof record['message'] === 'string' ? record['message'] : String(error).slice(0, 500),
  };
}

/** The problem code for a failed check or download. */
export function classifyUpdateError(error: unknown): UpdateProblem {
  const { code, statusCode, message } = factsOf(error);
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch/i.test(message))
    return 'checksum';
  if (code === ERR_DOWNLOAD_OVER_SIZE) return 'oversize';
  if (code === ERR_INSTALLER_VERSION) return 'installer_version';
  if (code === 'ERR_UPDATER_PRERELEASE_FOR_STABLE') return 'prerelease';
  if (FEED_MISSING.has(code) || (statusCode >= 400 && statusCode < 500)) return 'feed_missing';
  if (FEED_INVALID.has(code) || /YAMLException|Cannot parse update info/i.test(message))
    return 'feed_invalid';
  if (
    OFFLINE_CODES.has(code) ||
    /net::ERR_(INTERNET_DISCONNECTED|NAME_NOT_RESOLVED|CONNECTION_|ADDRESS_UNREACHABLE|NETWORK_|TIMED_OUT|PROXY_)/.test(
      message,
    )
  )
    return 'offline';
  return 'failed';
}

/** The error's own words for the log: its code and first line, never more than 300 characters. */
export function describeUpdateError(error: unknown): string {
  const { code, statusCode, message } = factsOf(error);
  const head = (message.split('\n')[0] ?? '').slice(0, 300);
  return [code, statusCode > 0 ? `HTTP ${statusCode}` : '', head].filter(Boolean).join(' ');
}
