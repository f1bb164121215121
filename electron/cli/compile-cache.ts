/**
 * Keeps V8's compiled code of the modules a command loads for the next start (node:module's compile
 * cache): most of a one-record command's CPU is compiling the bundle's chunks, the same on every
 * run. The cache lives in the user's own cache folder, made 0700, never Node's default (the shared
 * system temp folder, where another local user could leave code for this one to run). Where
 * `NODE_COMPILE_CACHE` names a folder, Node has already started its cache there. A folder that
 * cannot be made is a start without the cache, never a refusal.
 *
 * Node names each entry for the module's path and keeps a folder per Node version, and the bundle's
 * chunks are named for their content: every upgrade of Pictor (and of the Node or Electron it runs
 * on) leaves the old entries behind, read by nothing. `pruneCompileCache` takes them away.
 *
 * This file imports Node's modules alone: it is compiled before the cache is on.
 */
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { enableCompileCache, getCompileCacheDir } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An entry not written for this long is taken away (a used one is compiled again, once). */
export const COMPILE_CACHE_MAX_AGE_MS = 30 * DAY_MS;

/** The folder is looked over at most this often: a start reads one file's time, nothing more. */
export const COMPILE_CACHE_PRUNE_EVERY_MS = DAY_MS;

/** The file whose modification time says when the folder was last looked over. */
export const PRUNED_MARK = '.pruned';

/**
 * A folder only this user can write: a real directory (not a link), the user's own, closed to
 * group and others. A cache folder made earlier with wider rights, or left by someone else, is
 * not used (mkdir keeps an existing folder's rights as they are).
 */
function isPrivateFolder(folder: string): boolean {
  const found = lstatSync(folder);
  if (!found.isDirectory()) return false;
  if (process.platform === 'win32' || process.getuid === undefined) return true;
  return found.uid === process.getuid() && (found.mode & 0o022) === 0;
}

/** The cache's folder for `env`: under XDG_CACHE_HOME, else the home folder's `.cache`. */
function compileCacheFolder(env: NodeJS.ProcessEnv): string {
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'Pictor', 'compile-cache');
}

/**
 * Turns the cache on in the user's private folder; the folder it uses, or undefined when none
 * (`NODE_COMPILE_CACHE` set, or no private folder to be had).
 */
export function keepCompiledCode(env: NodeJS.ProcessEnv): string | undefined {
  if (env.NODE_COMPILE_CACHE) return undefined;
  const folder = compileCacheFolder(env);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(folder) || !isPrivateFolder(dirname(folder))) return undefined;
    enableCompileCache(folder);
    return folder;
  } catch {
    // No cache: this start compiles as Node does by default.
    return undefined;
  }
}

/** Milliseconds since the folder was last looked over, Infinity when never. */
function sinceLastPrune(folder: string, now: number): number {
  try {
    return now - lstatSync(join(folder, PRUNED_MARK)).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function markPruned(folder: string, now: number): void {
  const mark = join(folder, PRUNED_MARK);
  closeSync(openSync(mark, 'a', 0o600));
  utimesSync(mark, now / 1000, now / 1000);
}

/** Removes `folder`'s plain files older than `maxAgeMs`; true when the folder is left empty. */
function pruneEntries(folder: string, now: number, maxAgeMs: number): boolean {
  let kept = 0;
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const found = lstatSync(path);
    if (found.isFile() && now - found.mtimeMs > maxAgeMs) unlinkSync(path);
    else kept += 1;
  }
  return kept === 0;
}

/**
 * Takes away the entries of `folder` (the private cache folder keepCompiledCode used) that nothing
 * has written for `maxAgeMs`, and the per-version folders left empty but the one in use (`inUse`,
 * where Node writes this start's new entries at exit); at most once per `everyMs`. Node rewrites an entry only when its module changed, so an entry still in use may
 * go too: the next start compiles that module again and writes it anew. Only plain files inside
 * the per-version folders are removed; a link, or anything else, is left where it is. A failure
 * leaves the cache as it was: it is never the command's.
 */
export function pruneCompileCache(
  folder: string,
  now: number,
  {
    inUse = getCompileCacheDir(),
    maxAgeMs = COMPILE_CACHE_MAX_AGE_MS,
    everyMs = COMPILE_CACHE_PRUNE_EVERY_MS,
  }: {
    readonly inUse?: string | undefined;
    readonly maxAgeMs?: number;
    readonly everyMs?: number;
  } = {},
): void {
  try {
    if (sinceLastPrune(folder, now) < everyMs) return;
    markPruned(folder, now);
    const inUseAt = inUse === undefined ? undefined : resolve(inUse);
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (!lstatSync(path).isDirectory()) continue;
      if (pruneEntries(path, now, maxAgeMs) && resolve(path) !== inUseAt) rmdirSync(path);
    }
  } catch {
    // Left for the next look: a cache that keeps old entries still works.
  }
}
