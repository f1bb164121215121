/**
 * The code of a failed system call or network request, and the disk problems a user can act on,
 * in the words the disk sentences (`error.gallery.*` with a `problem`) take.
 */
import { systemErrorCode } from '../errors/thrown-value';

/** The code of a Node/undici network error (`ECONNRESET`, `UND_ERR_SOCKET`…), if any. */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = systemErrorCode(current);
    if (code !== undefined && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** File-system error codes a user can act on, as the `problem` of the disk sentences. */
const DISK_PROBLEMS: Readonly<Record<string, string>> = {
  ENOSPC: 'full',
  EDQUOT: 'quota',
  EROFS: 'readOnly',
  EACCES: 'denied',
  EPERM: 'denied',
};

/**
 * The values of a disk sentence (`error.gallery.*` with a `problem`): the reason in plain words
 * when the error is a known disk problem, and its code for a support request: "… because the
 * disk is full (no space left) (ENOSPC)".
 */
export function diskParams(error: unknown): { problem: string; code: string } {
  const code = errorCode(error);
  if (!code) return { problem: 'none', code: '' };
  return { problem: DISK_PROBLEMS[code] ?? 'code', code };
}
