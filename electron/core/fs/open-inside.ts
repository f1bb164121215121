/**
 * Opening a file that must lie inside a folder (the gallery, a folder being imported) while
 * another local process may swap any folder on the way for a link, at any moment. A check made
 * before the open cannot settle that: Node has no `openat`, so the open walks the path again, and
 * a link swapped in after the check leads it outside. So the file is opened first, and then what
 * was opened is compared with the root:
 *
 * - Linux: the kernel's own path of the open descriptor (`readlink` of `/proc/self/fd/<n>`) must
 *   lie inside the root's real path. Exact: whatever was swapped, and when, the descriptor names
 *   the folder the opened file is in.
 * - macOS: the open itself refuses a link in any component of the path (`O_NOFOLLOW_ANY`,
 *   macOS 11 and later; Electron 45 needs 12), and the path is built on the root's real path, so
 *   it holds no link of its own. The identity walk below runs as well.
 * - Windows, and Linux without `/proc`: the identity walk. Every component from the root's real
 *   path down is `lstat`ed before the open (none may be a link: `lstat` reports junctions as
 *   links), the file is opened and its handle `fstat`ed, and every component is `lstat`ed again:
 *   each device and inode must be what it was, and the file's must be the handle's (bigint stats:
 *   NTFS's 64-bit file ids, exact). One swap at any moment is refused. A process that swaps back
 *   and forth faster than these few calls can still, rarely, line its swaps up with them; on
 *   Windows it needs write access to a folder in the gallery (a junction needs no privilege).
 *
 * The root itself is trusted as given (a gallery folder that is a link to another disk is the
 * user's choice): its real path is asked for on each open, unless the caller has just asked
 * (the gallery protocol asks once for a burst of requests: app/protocol/real-roots.ts).
 */
import { constants, existsSync, promises as fs, type BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { systemErrorCode } from '../errors';

/** macOS `O_NOFOLLOW_ANY` (sys/fcntl.h): the open fails with ELOOP on a link anywhere in the path. */
const DARWIN_NOFOLLOW_ANY = 0x20000000;

/**
 * Read only, never through a link at the last component (everywhere but Windows, which has no
 * such flag), never waiting: a FIFO named like an image opens at once (and is then refused by
 * its caller as not a regular file) instead of holding a thread until something writes to it.
 */
const OPEN_FLAGS =
  constants.O_RDONLY |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0) |
  (process.platform === 'darwin' ? DARWIN_NOFOLLOW_ANY : 0);

/** How what was opened is compared with the root (see the file's comment). */
export type Containment = 'descriptor' | 'walk';

let platformContainment: Containment | undefined;

/** The descriptor's path where the kernel gives it (Linux's `/proc`), else the identity walk. */
export function defaultContainment(): Containment {
  platformContainment ??=
    process.platform === 'linux' && existsSync('/proc/self/fd') ? 'descriptor' : 'walk';
  return platformContainment;
}

export interface OpenInsideOptions {
  /** Test seam: after the checks that come before the open, right before it. */
  readonly beforeOpen?: () => Promise<void>;
  /** Test seam: right after the open, before what was opened is compared with the root. */
  readonly afterOpen?: () => Promise<void>;
  /** Default: the platform's (see the file's comment). Tests choose to cover both on one OS. */
  readonly containment?: Containment;
  /**
   * The root's real path when the caller has just asked for it (the gallery protocol, for a burst
   * of requests): not asked again. What was opened is still checked against it.
   */
  readonly realRoot?: Buffer;
}

/**
 * A file opened inside the root, or why not: a link on the way, or it was not inside. `openedPath`
 * is the kernel's path of what was opened where the containment check asked for it (Linux's `/proc`:
 * the real path, no link in it), else null.
 */
export type InsideOpen =
  | {
      readonly ok: true;
      readonly handle: FileHandle;
      readonly stats: BigIntStats;
      readonly openedPath: Buffer | null;
    }
  | { readonly ok: false; readonly why: 'link' | 'outside' };

const LINK: InsideOpen = { ok: false, why: 'link' };
const OUTSIDE: InsideOpen = { ok: false, why: 'outside' };

/**
 * `root`'s real path, or null when it is not an absolute path to something that exists. As bytes:
 * exact whatever the name (what was opened is compared with it byte for byte). For a caller that
 * opens many files below one root and asks once ({@link OpenInsideOptions.realRoot}).
 */
export async function realRootOf(root: string): Promise<Buffer | null> {
  if (root === '' || !isAbsolute(root)) return null;
  try {
    return await fs.realpath(root, { encoding: 'buffer' });
  } catch {
    return null;
  }
}

/** The names from `base` down to `path`, or null when `path` is not below `base` by its text. */
function namesBelow(base: string, path: string): string[] | null {
  const inside = relative(base, path);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return null;
  }
  return inside.split(sep);
}

const SEPARATOR = Buffer.from(sep);

/** `path` without a trailing separator (a root such as `/` has one). */
function trimmed(path: Buffer): Buffer {
  return path.subarray(-SEPARATOR.length).equals(SEPARATOR)
    ? path.subarray(0, -SEPARATOR.length)
    : path;
}

/** `realRoot` and each path below it down to `names`' last, as bytes (exact, whatever the name). */
function componentPaths(realRoot: Buffer, names: readonly string[]): Buffer[] {
  const paths = [realRoot];
  let at = trimmed(realRoot);
  for (const name of names) {
    at = Buffer.concat([at, SEPARATOR, Buffer.from(name)]);
    paths.push(at);
  }
  return paths;
}

function sameIdentity(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Every component's lstat, from the root down, one after the other, or 'link' at the first that
 * is a link. One after the other, not all at once: the lstats of a folder and of a file below it
 * made at once could meet the folder before a swap and the file through the link after it, so a
 * swapper needed one well-timed swap to pass; in order, it needs one between each pair of calls.
 */
async function identities(paths: readonly Buffer[]): Promise<BigIntStats[] | 'link'> {
  const infos: BigIntStats[] = [];
  for (const path of paths) {
    const info = await fs.lstat(path, { bigint: true });
    if (info.isSymbolicLink()) return 'link';
    infos.push(info);
  }
  return infos;
}

/** What Linux writes after the path of a descriptor whose file no longer has a name. */
const UNLINKED = Buffer.from(' (deleted)');

/** The kernel's path of the open `handle` when it lies below `realRoot`, else null. */
async function descriptorInside(handle: FileHandle, realRoot: Buffer): Promise<Buffer | null> {
  const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`, { encoding: 'buffer' });
  const prefix = Buffer.concat([trimmed(realRoot), SEPARATOR]);
  const inside = opened.length > prefix.length && opened.subarray(0, prefix.length).equals(prefix);
  return inside ? opened : null;
}

/**
 * `opened` (a descriptor's kernel path) as the name its file had: a file removed or replaced
 * (renamed over: every rewrite of a gallery file) once opened keeps its old path, with
 * " (deleted)" after it, which is no name it had (the gallery refused its image as of a kind not
 * served). Taken off only when the file has no name left (no link counted); a file really named
 * so keeps it.
 */
async function nameOfUnlinked(handle: FileHandle, opened: Buffer): Promise<Buffer> {
  if (!opened.subarray(-UNLINKED.length).equals(UNLINKED)) return opened;
  // Asked after the path: the fstat made with it may have come before the removal.
  const { nlink } = await handle.stat({ bigint: true });
  return nlink === 0n ? opened.subarray(0, -UNLINKED.length) : opened;
}

/** What {@link checkOpened} found: the handle's `fstat`, and its path where it was asked. */
interface Checked {
  readonly stats: BigIntStats;
  readonly openedPath: Buffer | null;
  /** Null when what was opened is inside the root, else why not. */
  readonly refused: InsideOpen | null;
}

/**
 * The handle's `fstat`, and whether what it opened is inside the root. The descriptor's path and
 * its `fstat` are asked for at once (one trip through the thread pool); the walk compares the
 * stats with the components', so it asks after.
 */
async function checkOpened(
  containment: Containment,
  handle: FileHandle,
  paths: readonly Buffer[],
  before: readonly BigIntStats[] | null,
): Promise<Checked> {
  if (containment === 'descriptor') {
    const [stats, inside] = await Promise.all([
      handle.stat({ bigint: true }),
      descriptorInside(handle, paths[0] as Buffer),
    ]);
    if (inside === null) return { stats, openedPath: null, refused: OUTSIDE };
    return { stats, openedPath: await nameOfUnlinked(handle, inside), refused: null };
  }
  const stats = await handle.stat({ bigint: true });
  return { stats, openedPath: null, refused: await walkContained(stats, paths, before) };
}

async function walkContained(
  stats: BigIntStats,
  paths: readonly Buffer[],
  before: readonly BigIntStats[] | null,
): Promise<InsideOpen | null> {
  const after = await identities(paths);
  if (after === 'link') return LINK;
  const unchanged = after.every((info, i) => before?.[i] && sameIdentity(info, before[i]));
  const leaf = after[after.length - 1];
  return unchanged && leaf && sameIdentity(leaf, stats) ? null : OUTSIDE;
}

/**
 * Opens `path` for reading if it lies inside `root` when opened (see the file's comment), never
 * through a link at its last component and never blocking. `path` is absolute, below `root` as
 * given or below its real path. The caller checks what kind of file it is (the stats are the
 * handle's own) and closes the handle.
 * @returns the open handle and its `fstat`, or why it was refused (nothing is left open).
 * @throws file-system errors (ENOENT when the root or the file does not exist).
 */
export async function openInside(
  root: string,
  path: string,
  options: OpenInsideOptions = {},
): Promise<InsideOpen> {
  const realRoot =
    options.realRoot === undefined
      ? await fs.realpath(root, { encoding: 'buffer' })
      : options.realRoot;
  const names = namesBelow(root, path) ?? namesBelow(realRoot.toString(), path);
  if (names === null) return OUTSIDE;
  const paths = componentPaths(realRoot, names);
  const containment = options.containment ?? defaultContainment();
  const before = containment === 'walk' ? await identities(paths) : null;
  if (before === 'link') return LINK;
  await options.beforeOpen?.();
  let handle: FileHandle;
  try {
    handle = await fs.open(paths[paths.length - 1] as Buffer, OPEN_FLAGS);
  } catch (error) {
    // ELOOP: O_NOFOLLOW (or macOS's O_NOFOLLOW_ANY) met a link.
    if (systemErrorCode(error) === 'ELOOP') return LINK;
    throw error;
  }
  try {
    await options.afterOpen?.();
    const { stats, openedPath, refused } = await checkOpened(containment, handle, paths, before);
    if (refused === null) return { ok: true, handle, stats, openedPath };
    await handle.close();
    return refused;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
