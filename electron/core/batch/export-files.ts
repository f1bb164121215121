/**
 * The files an export creates in the folder the user chose: names made from the gallery's own
 * (`<task folder>-image-1.png`), each created new (`wx`: an existing file or link at the name is
 * never written through or replaced) under the first free variant, `name (2).png` and so on, an
 * image and its XMP sidecar under one stem.
 */
import { constants } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { systemErrorCode } from '../errors';

/** How many `name (n)` variants are tried before an image is skipped. */
const MAX_NAME_TRIES = 1_000;
/** New files only, never through a link at the name (O_EXCL refuses one), private to the user. */
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const FILE_MODE = 0o600;

/** Only `[A-Za-z0-9._-]`, no leading dot, at most 120 characters; never empty. */
function safeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return clean.slice(0, 120) || 'image';
}

/** `<task folder>-image-1.png`: the gallery's own names, readable and unique per image. */
export function exportName(file: string): string {
  const folder = basename(dirname(file));
  const extension = safeName(extname(file)).replace(/^-/, '');
  const stem = safeName(`${folder}-${basename(file, extname(file))}`);
  return extension ? `${stem}.${extension.replace(/^\./, '')}` : stem;
}

/** `name`, `name (2)`, `name (3)`… (the stem of `name.png`, `name (2).png`…). */
function variant(stem: string, attempt: number): string {
  return attempt === 1 ? stem : `${stem} (${attempt})`;
}

/** A file created for the copy: where, and its handle. */
export interface Created {
  readonly path: string;
  readonly handle: FileHandle;
}

/** Closes and removes files an export created, when the copy into them did not finish. */
export async function removeCreated(created: readonly Created[]): Promise<void> {
  for (const { path, handle } of created) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
  }
}

/** Creates `<base><extension>` in `folder` for each extension; none is left when one fails. */
async function createAll(
  folder: string,
  base: string,
  extensions: readonly string[],
): Promise<Created[]> {
  const created: Created[] = [];
  try {
    for (const extension of extensions) {
      const path = join(folder, `${base}${extension}`);
      created.push({ path, handle: await open(path, CREATE_FLAGS, FILE_MODE) });
    }
    return created;
  } catch (error) {
    await removeCreated(created);
    throw error;
  }
}

/**
 * Creates new files in `folder` under the first variant of `name` free for every extension given:
 * the image's own, then its XMP sidecar's (`name (2).png` with `name (2).xmp`, so the pair keeps
 * one stem, as readers of sidecars pair them).
 */
export async function createUnique(
  folder: string,
  name: string,
  extensions: readonly string[],
): Promise<Created[]> {
  const stem = name.slice(0, name.length - extname(name).length);
  for (let attempt = 1; attempt <= MAX_NAME_TRIES; attempt += 1) {
    try {
      return await createAll(folder, variant(stem, attempt), extensions);
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') throw error;
    }
  }
  throw new Error(`No free name for ${name} in the export folder.`);
}
