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

/** The entries of a resources folder its app folder is extracted from: app.asar and its unpacked files. */
export const isAppEntry = (name: string): boolean =>
  name === 'app.asar' ||
  name === 'app.asar.unpacked' ||
  name.startsWith(`app.asar.unpacked${path.sep}`);

/**
 * The SHA-256 of every entry under `dir` (relative path, kind, bytes or link target), sorted; and
 * in the same reading, that of the entries `part` takes (each file read once).
 */
export async function treeDigest(
  dir: string,
  part: (name: string) => boolean = () => true,
): Promise<{ readonly all: string; readonly part: string }> {
  const all = createHash('sha256');
  const some = createHash('sha256');
  const update = (name: string, ...chunks: (string | Buffer)[]) => {
    for (const hash of part(name) ? [all, some] : [all])
      for (const chunk of chunks) hash.update(chunk);
  };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const named = entries
    .map((entry) => ({ entry, name: path.relative(dir, path.join(entry.parentPath, entry.name)) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { entry, name } of named) {
    const full = path.join(dir, name);
    if (entry.isSymbolicLink()) update(name, `link\0${name}\0${await readlink(full)}\0`);
    else if (entry.isFile()) {
      const bytes = await readFile(full);
      update(name, `file\0${name}\0${String(bytes.length)}\0`, bytes);
    } else if (entry.isDirectory()) update(name, `dir\0${name}\0`);
    else update(name, `other\0${name}\0`);
  }
  return { all: all.digest('hex'), part: some.digest('hex') };
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
