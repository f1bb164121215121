/**
 * The version a downloaded installer says it installs, read from the file itself before it may
 * be installed. The feed's channel file carries no signature: whoever can answer for the feed can
 * offer an OLDER release's installer, genuinely signed by the publisher (so Windows' publisher
 * check and Squirrel.Mac's signature check both pass), labelled with a newer version and its own
 * sha512 — a rollback to a version with known flaws. The version inside the installer is covered
 * by that signature: a Windows installer's version resource (electron-builder's NSIS script sets
 * `ProductVersion` to the app's version), a macOS zip's `*.app/Contents/Info.plist`
 * (`CFBundleShortVersionString`). It must be the version the feed offered, which electron-updater
 * has found newer than the running one; anything else, or none readable, is refused before the
 * file is kept. An AppImage, a deb or an rpm carries nothing cheap to read (docs/RELIABILITY.md).
 *
 * Reads are bounded: the PE headers and its resource section (at most 8 MiB), the zip's central
 * directory (at most 200,000 entries) and one plist of at most 1 MiB.
 */
import { open, type FileHandle } from 'node:fs/promises';
import yauzl, { type Entry } from 'yauzl';
import { ERR_INSTALLER_VERSION } from '../app/updates/update-problems';

const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;
const MAX_PLIST_BYTES = 1024 * 1024;
const MAX_ZIP_ENTRIES = 200_000;
/** A version as it may be said in the log (the file's text is not trusted). */
const LOGGABLE = /^[0-9A-Za-z.+-]{1,64}$/;

function refused(message: string): Error {
  return Object.assign(new Error(message), { code: ERR_INSTALLER_VERSION });
}

/** The installers read: a Windows PE file (NSIS), a macOS app in a zip (Squirrel.Mac). */
export type InstallerFormat = 'pe' | 'zip';

/** Refuses `file` unless it is, read as `format`, an installer of `offered`. */
export async function checkInstallerVersion(
  file: string,
  format: InstallerFormat,
  offered: string,
): Promise<void> {
  let found: string | null;
  try {
    found = format === 'pe' ? await windowsProductVersion(file) : await macBundleVersion(file);
  } catch {
    found = null;
  }
  if (found === offered) return;
  const said = found !== null && LOGGABLE.test(found) ? found : 'no readable version';
  throw refused(`The installer holds ${said}, not the version ${offered} the feed offered.`);
}

// ---- Windows: the PE file's version resource -------------------------------------------------

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Error('The file ends early.');
  return buffer;
}

/** The `ProductVersion` string of the version resource of the PE file at `file`. */
export async function windowsProductVersion(file: string): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    const dos = await readAt(handle, 0, 64);
    if (dos.toString('latin1', 0, 2) !== 'MZ') return null;
    const peAt = dos.readUInt32LE(0x3c);
    const coff = await readAt(handle, peAt, 24);
    if (coff.toString('latin1', 0, 4) !== 'PE\0\0') return null;
    const sections = coff.readUInt16LE(6);
    const optionalSize = coff.readUInt16LE(20);
    const optional = await readAt(handle, peAt + 24, optionalSize);
    const magic = optional.readUInt16LE(0);
    const directories = magic === 0x20b ? 112 : magic === 0x10b ? 96 : -1;
    if (directories < 0 || optionalSize < directories + 3 * 8) return null;
    const resourceRva = optional.readUInt32LE(directories + 2 * 8);
    if (resourceRva === 0) return null;
    const table = await readAt(handle, peAt + 24 + optionalSize, sections * 40);
    for (let index = 0; index < sections; index++) {
      const at = index * 40;
      const virtualAddress = table.readUInt32LE(at + 12);
      const rawSize = table.readUInt32LE(at + 16);
      const rawAt = table.readUInt32LE(at + 20);
      const virtualSize = Math.max(table.readUInt32LE(at + 8), rawSize);
      if (resourceRva < virtualAddress || resourceRva >= virtualAddress + virtualSize) continue;
      if (rawSize > MAX_RESOURCE_BYTES) return null;
      const section = await readAt(handle, rawAt, rawSize);
      return versionFromResources(section, resourceRva - virtualAddress, virtualAddress);
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** The first entry of the resource directory at `at` with `id` (any, when null). */
function entryOf(section: Buffer, at: number, id: number | null): number | null {
  const named = section.readUInt16LE(at + 12);
  const ids = section.readUInt16LE(at + 14);
  for (let index = 0; index < named + ids && index < 4096; index++) {
    const entry = at + 16 + index * 8;
    const name = section.readUInt32LE(entry);
    if (id === null || ((name & 0x80000000) === 0 && name === id))
      return section.readUInt32LE(entry + 4);
  }
  return null;
}

/** RT_VERSION (16) → its first name → its first language's data → the VS_VERSIONINFO block. */
function versionFromResources(section: Buffer, root: number, sectionRva: number): string | null {
  let offset: number | null = root;
  for (const id of [16, null]) {
    offset = entryOf(section, offset, id);
    if (offset === null || (offset & 0x80000000) === 0) return null;
    offset &= 0x7fffffff;
  }
  const leaf = entryOf(section, offset, null);
  if (leaf === null || (leaf & 0x80000000) !== 0) return null;
  const dataAt = section.readUInt32LE(leaf) - sectionRva;
  const size = section.readUInt32LE(leaf + 4);
  if (dataAt < 0 || dataAt + size > section.length) return null;
  return productVersion(section.subarray(dataAt, dataAt + size));
}

const align4 = (at: number): number => (at + 3) & ~3;

/** One node of a version resource: its key, where its value and its children lie. */
function nodeAt(block: Buffer, at: number) {
  const length = block.readUInt16LE(at);
  const valueLength = block.readUInt16LE(at + 2);
  const text = block.readUInt16LE(at + 4) === 1;
  let keyEnd = at + 6;
  while (keyEnd + 1 < block.length && block.readUInt16LE(keyEnd) !== 0) keyEnd += 2;
  const key = block.toString('utf16le', at + 6, keyEnd);
  const valueAt = align4(keyEnd + 2);
  const valueBytes = text ? valueLength * 2 : valueLength;
  const end = Math.min(at + length, block.length);
  if (length < 6 || valueAt > end) throw new Error('A version resource node is malformed.');
  return { key, valueAt, valueBytes, childrenAt: align4(valueAt + valueBytes), end };
}

function children(block: Buffer, parent: ReturnType<typeof nodeAt>) {
  const found: ReturnType<typeof nodeAt>[] = [];
  for (let at = parent.childrenAt; at + 6 <= parent.end && found.length < 256;) {
    const child = nodeAt(block, at);
    found.push(child);
    at = align4(child.end);
  }
  return found;
}

/** VS_VERSIONINFO → StringFileInfo → each string table → `ProductVersion`. */
function productVersion(block: Buffer): string | null {
  const root = nodeAt(block, 0);
  if (root.key !== 'VS_VERSION_INFO') return null;
  const entry = children(block, root)
    .filter((info) => info.key === 'StringFileInfo')
    .flatMap((info) => children(block, info))
    .flatMap((strings) => children(block, strings))
    .find((string) => string.key === 'ProductVersion');
  if (!entry) return null;
  return block
    .toString('utf16le', entry.valueAt, entry.valueAt + entry.valueBytes)
    .replace(/\0+$/, '');
}

// ---- macOS: the zip's Info.plist ----------------------------------------------------------------

const INFO_PLIST = /^[^/]+\.app\/Contents\/Info\.plist$/;

/** `CFBundleShortVersionString` of the app bundle's Info.plist in the zip at `file`. */
export function macBundleVersion(file: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error) return reject(error);
      let seen = 0;
      let settled = false;
      const done = (value: string | null, failure?: unknown): void => {
        if (settled) return;
        settled = true;
        zip.close();
        if (failure === undefined) resolve(value);
        else reject(failure instanceof Error ? failure : new Error(String(failure)));
      };
      zip.on('error', (failure: unknown) => done(null, failure));
      zip.on('end', () => done(null));
      zip.on('entry', (entry: Entry) => {
        if (++seen > MAX_ZIP_ENTRIES) return done(null);
        if (!INFO_PLIST.test(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > MAX_PLIST_BYTES) return done(null);
        zip.openReadStream(entry, (failure, stream) => {
          if (failure) return done(null, failure);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_PLIST_BYTES) stream.destroy(new Error('Info.plist is too large.'));
            else chunks.push(chunk);
          });
          stream.on('error', (streamFailure: unknown) => done(null, streamFailure));
          stream.on('end', () => done(shortVersion(Buffer.concat(chunks).toString('utf8'))));
        });
      });
      zip.readEntry();
    });
  });
}

function shortVersion(plist: string): string | null {
  const match = /<key>CFBundleShortVersionString<\/key>\s*<string>([^<]{1,200})<\/string>/.exec(
    plist,
  );
  return match?.[1]?.trim() ?? null;
}
