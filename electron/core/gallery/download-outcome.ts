/**
 * What one download attempt ended with, and the sentences the user reads. Messages are built
 * from fixed text, status codes and error codes only: never a URL (it may carry a signed
 * token) and never a key (the gallery does not have one).
 */
import { systemErrorCode } from '../errors/thrown-value';

/** The outcome of {@link Gallery.downloadImage}. */
export type DownloadOutcome =
  | {
      state: 'saved';
      /** Root-relative path of the image. */
      file: string;
      /**
       * Root-relative path of its WebP thumbnail, and the displayed size; all three absent when
       * the image code could not load (the image is kept unchecked, see core/images).
       */
      thumbnail?: string;
      width?: number;
      height?: number;
      bytes: number;
      mime: 'image/png' | 'image/jpeg' | 'image/webp';
    }
  /** The image host says the URL is dead: 401/403/404/410. */
  | { state: 'expired'; error: string }
  /** Not an acceptable image, too big, a decompression bomb, a refused URL, or no URL. */
  | { state: 'invalid'; error: string }
  /** Network error, timeout, 5xx, 408, 429, body cut mid-way, disk trouble: try again later. */
  | { state: 'retry'; error: string; retryAfterMs?: number };

export type FailedOutcome = Exclude<DownloadOutcome, { state: 'saved' }>;

const TRY_AGAIN = 'Pictor will try again.';

export function invalid(error: string): FailedOutcome {
  return { state: 'invalid', error };
}

export function expired(status: number): FailedOutcome {
  return {
    state: 'expired',
    error: `The image is no longer available: the image server answered ${status}. Image addresses from the service expire after a while.`,
  };
}

export function retry(reason: string, retryAfterMs?: number): FailedOutcome {
  const error = `The image could not be downloaded: ${reason}. ${TRY_AGAIN}`;
  return retryAfterMs === undefined
    ? { state: 'retry', error }
    : { state: 'retry', error, retryAfterMs };
}

/** The code of a Node/undici network error (`ECONNRESET`, `UND_ERR_SOCKET`…), if any. */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = systemErrorCode(current);
    if (code !== undefined && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** File-system error codes a user can act on, in plain words. */
const DISK_PROBLEMS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full (no space left)',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EACCES: 'Pictor is not allowed to write there',
  EPERM: 'Pictor is not allowed to write there',
};

/**
 * `what` failed, with the reason in plain words when the error is a known disk problem, and
 * its code for a support request: "… because the disk is full (no space left) (ENOSPC)".
 */
export function diskReason(what: string, error: unknown): string {
  const code = errorCode(error);
  if (!code) return what;
  const problem = DISK_PROBLEMS[code];
  return problem ? `${what} because ${problem} (${code})` : `${what} (${code})`;
}

/** Binary units for size limits in messages: "64 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
