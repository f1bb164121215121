/**
 * What a packed target gives the packaged-boot test to run, as one digest: every file of its
 * resources folder (app.asar, the files unpacked beside it, the extra resources), by relative
 * path and bytes, and every link by its target. The boot test runs a target's files with plain
 * `node` and the recording stand-in, on this machine, whatever the target's OS: two targets
 * whose digests are equal run the same bytes with the same inputs, so they end the same way.
 * electron-builder packs the same app.asar for every target (the production node_modules are
 * the same on every OS: electron-builder.yml's npmRebuild), and the two macOS targets (and
 * Windows and Linux) the same resources folder; a target whose files differ in one byte has a
 * digest of its own and its own runs.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/** The SHA-256 of every entry under `dir` (relative path, kind, bytes or link target), sorted. */
export async function treeDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const named = entries
    .map((entry) => ({ entry, name: path.relative(dir, path.join(entry.parentPath, entry.name)) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { entry, name } of named) {
    const full = path.join(dir, name);
    if (entry.isSymbolicLink()) hash.update(`link\0${name}\0${await readlink(full)}\0`);
    else if (entry.isFile()) {
      const bytes = await readFile(full);
      hash.update(`file\0${name}\0${String(bytes.length)}\0`).update(bytes);
    } else if (entry.isDirectory()) hash.update(`dir\0${name}\0`);
    else hash.update(`other\0${name}\0`);
  }
  return hash.digest('hex');
}

/**
 * Groups `names` by `digestOf`: each name's first name with the same digest (itself for the
 * first of its group).
 */
export function firstWithSameDigest(
  names: readonly string[],
  digestOf: ReadonlyMap<string, string>,
): Map<string, string> {
  const firstOf = new Map<string, string>();
  const byDigest = new Map<string, string>();
  for (const name of names) {
    const digest = digestOf.get(name);
    if (digest === undefined) throw new Error(`no digest for ${name}`);
    const first = byDigest.get(digest) ?? name;
    byDigest.set(digest, first);
    firstOf.set(name, first);
  }
  return firstOf;
}
