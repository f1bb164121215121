/**
 * The code of a failed system call or network request, and the disk problems a user can act on,
 * in the words the disk sentences (`error.gallery.*` with a `problem`) take; and the problems of a
 * place the user chose to write to (a file or folder an export writes), which add a path that
 * does not lead to a folder.
 */
import { systemErrorCode } from '../errors';

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

/** Codes of a chosen path that does not lead to a folder Pictor can write in. */
const PATH_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'noFolder',
  ENOTDIR: 'notFolder',
  ENAMETOOLONG: 'nameTooLong',
};

/**
 * The values of a sentence about a place the user chose to write to (`error.library.export…`
 * with a `problem`): its path's problem (no such folder, a file where a folder should be, a name
 * too long) or, when it is none of those, the disk's ({@link diskParams}).
 */
export function chosenPlaceParams(error: unknown): { problem: string; code: string } {
  const code = errorCode(error);
  const path = code === undefined ? undefined : PATH_PROBLEMS[code];
  return code !== undefined && path !== undefined ? { problem: path, code } : diskParams(error);
}

/**
 * Whether `error` says that the chosen place cannot take a file at all (missing, not a folder,
 * not writable, full): what is being written cannot be the cause, and the next file fails alike.
 */
export function isPlaceRefused(error: unknown): boolean {
  const code = errorCode(error);
  return (
    code !== undefined && (Object.hasOwn(PATH_PROBLEMS, code) || Object.hasOwn(DISK_PROBLEMS, code))
  );
}
