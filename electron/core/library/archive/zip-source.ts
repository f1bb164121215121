/**
 * Reads an archive's central directory with yauzl and refuses the whole archive, before one byte
 * is inflated or written, when any entry is crafted: a path out of the target or otherwise
 * refused (entry-path.ts), a link or special file (Unix mode in the external attributes),
 * encryption, a compression other than store or deflate, duplicate names (case-folded), sizes
 * that claim ZIP64 without its field or point past the file, entries whose data overlap (the
 * overlapping zip bomb), more entries, bytes or compression ratio than the limits allow (the ratio
 * of each entry above a small floor, and of the archive as a whole).
 * Where an entry's data begins is its local header's to say (its own name and extra lengths),
 * read only as the entry is opened: one whose header moves its data past the next entry's header
 * (into another's data, with a directory that looks whole) is refused then, never read.
 * Declared sizes only decide refusals; what is read is counted again (stream-copy.ts).
 * Every byte is read through the archive's own reader (archive-file.ts), and the source keeps the
 * entry streams it opened: closing it destroys those still open, then closes the file once every
 * read on it has settled, so an import stopped at any point leaves no read behind.
 */
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ArchiveFile } from './archive-file';
import type { ArchiveLimits } from './archive-limits';
import { ArchiveRefusedError } from './archive-errors';
import { keepingErrors } from './stream-copy';
import { collisionKey, pathRefusal } from './entry-path';
import { MANIFEST_NAME } from './manifest';
import { SIDECAR_NAME } from '../../gallery';

/** One file of a source (archive or folder), its path checked. */
export interface SourceFile {
  readonly path: string;
  /** Declared (archive) or found (folder) size; never trusted for reading. */
  readonly size: number;
  open(): Promise<Readable>;
}

export interface ImportSource {
  readonly kind: 'archive' | 'folder';
  readonly files: readonly SourceFile[];
  /** Files left out while listing (a folder's links, FIFOs, unreadable folders). */
  readonly refused: readonly { path: string; reason: string }[];
  /**
   * Ends every read of the source: streams still open are destroyed, and it resolves once the
   * source's file is closed (nothing of it is read afterwards; a later `open` is refused).
   */
  close(): Promise<void>;
}

const UTF8_FLAG = 0x800;
const ENCRYPTED = 0x1 | 0x40;
const UNICODE_PATH_EXTRA = 0x7075;
const ZIP32_MAX = 0xffffffff;
const LOCAL_HEADER = 30;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

function openZip(archive: ArchiveFile): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      archive,
      archive.size,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error ? reject(error) : resolve(zip)),
    ),
  );
}

function readEntries(zip: ZipFile, limits: ArchiveLimits): Promise<Entry[]> {
  if (zip.entryCount > limits.maxEntries) {
    throw new ArchiveRefusedError(
      sentence('error.library.archiveTooManyEntries', { max: String(limits.maxEntries) }),
    );
  }
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** The entry's name as text: UTF-8 when flagged so, else ASCII only (no guessing of code pages). */
function entryName(entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  if ((entry.generalPurposeBitFlag & UTF8_FLAG) !== 0) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw new ArchiveRefusedError(sentence('error.library.archiveNameNotUtf8'));
    }
  }
  if (raw.some((byte) => byte > 0x7f)) {
    throw new ArchiveRefusedError(
      sentence('error.library.archiveNameCharset'),
      raw.toString('latin1'),
    );
  }
  return raw.toString('ascii');
}

function maxBytesFor(path: string, limits: ArchiveLimits): number {
  if (path === MANIFEST_NAME) return limits.maxManifestBytes;
  if (path.endsWith(`/${SIDECAR_NAME}`)) return limits.maxSidecarBytes;
  return limits.maxImageBytes;
}

/** Refuses what the entry's metadata shows, returning its checked path (null for a folder). */
function checkEntry(entry: Entry, fileSize: number, limits: ArchiveLimits): string | null {
  const name = entryName(entry);
  const folder = name.endsWith('/');
  const path = folder ? name.slice(0, -1) : name;
  const refuse = (said: Sentence): never => {
    throw new ArchiveRefusedError(said, JSON.stringify(name));
  };
  const rule = pathRefusal(path, limits);
  if (rule) refuse(sentence('error.library.archiveEntryPath', { rule }));
  if ((entry.generalPurposeBitFlag & ENCRYPTED) !== 0)
    refuse(sentence('error.library.archiveEntryEncrypted'));
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    refuse(sentence('error.library.archiveEntryMethod'));
  }
  if (entry.extraFields.some((field) => field.id === UNICODE_PATH_EXTRA)) {
    refuse(sentence('error.library.archiveEntrySecondName'));
  }
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === S_IFLNK) refuse(sentence('error.library.archiveEntryLink'));
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    refuse(sentence('error.library.archiveEntrySpecial'));
  if (folder !== (type === S_IFDIR) && type !== 0)
    refuse(sentence('error.library.archiveEntryFolderAndFile'));
  const sizes = [entry.compressedSize, entry.uncompressedSize, entry.relativeOffsetOfLocalHeader];
  if (sizes.includes(ZIP32_MAX)) refuse(sentence('error.library.archiveEntryZip64'));
  if (entry.relativeOffsetOfLocalHeader + LOCAL_HEADER + entry.compressedSize > fileSize) {
    refuse(sentence('error.library.archiveEntryBeyondEnd'));
  }
  if (folder) {
    if (entry.uncompressedSize !== 0) refuse(sentence('error.library.archiveFolderEntryData'));
    return null;
  }
  const max = maxBytesFor(path, limits);
  if (entry.uncompressedSize > max)
    refuse(sentence('error.library.archiveEntryTooLarge', { max: String(max) }));
  const size = entry.uncompressedSize;
  if (size > limits.ratioFloorBytes && size > entry.compressedSize * limits.maxRatio) {
    refuse(sentence('error.library.archiveEntryBomb'));
  }
  return path;
}

/**
 * Entries whose data start inside another's: one stretch of bytes inflated many times. Returns
 * where each entry's place ends (the next entry's local header; the last has no bound here), which
 * its data must not pass once its local header says where they begin (ZipEntries).
 */
function checkOverlaps(entries: readonly Entry[]): Map<Entry, number> {
  const sorted = [...entries].sort(
    (a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader,
  );
  const ends = new Map<Entry, number>();
  for (let i = 1; i < sorted.length; i += 1) {
    const previous = sorted[i - 1] as Entry;
    const next = (sorted[i] as Entry).relativeOffsetOfLocalHeader;
    const end =
      previous.relativeOffsetOfLocalHeader +
      LOCAL_HEADER +
      previous.fileNameLength +
      previous.compressedSize;
    if (next < end) throw new ArchiveRefusedError(sentence('error.library.archiveOverlap'));
    ends.set(previous, next);
  }
  return ends;
}

function describeZipError(error: unknown): ArchiveRefusedError {
  const detail = error instanceof Error ? error.message : String(error);
  const refused = new ArchiveRefusedError(sentence('error.library.archiveNotZip'));
  return Object.assign(refused, { detail });
}

/**
 * Opens `file` as an archive and checks every entry (see the file's comment).
 * @throws ArchiveRefusedError, with nothing read but the central directory.
 */
export async function openZipSource(
  file: string,
  fileSize: number,
  limits: ArchiveLimits,
): Promise<ImportSource> {
  let archive: ArchiveFile;
  let zip: ZipFile;
  try {
    archive = await ArchiveFile.open(file);
  } catch (error) {
    throw describeZipError(error);
  }
  try {
    zip = await openZip(archive);
  } catch (error) {
    await archive.closeFile();
    throw describeZipError(error);
  }
  const entries = new ZipEntries(zip, archive);
  try {
    const { files: checked, ends } = await checkedEntries(zip, fileSize, limits);
    const files = checked.map(([entry, path]) => entries.file(entry, path, ends.get(entry)));
    return { kind: 'archive', files, refused: [], close: () => entries.close() };
  } catch (error) {
    await entries.close();
    throw error;
  }
}

/**
 * Each file entry of `zip` with its checked path, once the whole directory passed, and where each
 * entry's place ends (checkOverlaps).
 */
async function checkedEntries(
  zip: ZipFile,
  fileSize: number,
  limits: ArchiveLimits,
): Promise<{ files: [Entry, string][]; ends: Map<Entry, number> }> {
  const entries = await readEntries(zip, limits).catch((error: unknown) => {
    throw error instanceof ArchiveRefusedError ? error : describeZipError(error);
  });
  const files: [Entry, string][] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    const path = checkEntry(entry, fileSize, limits);
    const key = collisionKey(path ?? (entry.fileName as unknown as Buffer).toString());
    if (seen.has(key))
      throw new ArchiveRefusedError(sentence('error.library.archiveDuplicateName'), key);
    seen.add(key);
    total += entry.uncompressedSize;
    if (total > limits.maxTotalBytes) {
      throw new ArchiveRefusedError(
        sentence('error.library.archiveTooLarge', { max: String(limits.maxTotalBytes) }),
      );
    }
    if (path !== null) files.push([entry, path]);
  }
  if (total > limits.ratioFloorBytes && total > fileSize * limits.maxArchiveRatio) {
    throw new ArchiveRefusedError(sentence('error.library.archiveBomb'));
  }
  return { files, ends: checkOverlaps(entries) };
}

/** The entries of an open archive as source files, and the streams opened on them. */
class ZipEntries {
  private readonly open = new Set<Readable>();
  private closing: Promise<void> | null = null;

  constructor(
    private readonly zip: ZipFile,
    private readonly archive: ArchiveFile,
  ) {}

  /** The entry at `path`, its data to end by `end` (its place, checkOverlaps) when one is given. */
  file(entry: Entry, path: string, end = Number.POSITIVE_INFINITY): SourceFile {
    return { path, size: entry.uncompressedSize, open: () => this.stream(entry, end) };
  }

  /** Destroys the streams still open, then closes the file once every read has settled. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const stream of this.open) stream.destroy();
      this.zip.close();
      await this.archive.closeFile();
    })();
    return this.closing;
  }

  /**
   * The entry's data, read where its local header says they begin (the one read of the header
   * yauzl's `openReadStream` makes) and refused when they would pass `end`; inflated when deflated
   * (checkEntry let through only store and deflate, unencrypted).
   */
  private stream(entry: Entry, end: number): Promise<Readable> {
    const { compressedSize: size } = entry;
    // What openReadStream refused first: nothing read of an archive being closed.
    if (this.closing) return Promise.reject(new Error('The archive is closed.'));
    return new Promise((resolve, reject) =>
      this.zip.readLocalFileHeader(entry, { minimal: true }, (failed, header) => {
        if (failed) return reject(failed);
        if (header.fileDataStart + size > end)
          return reject(new ArchiveRefusedError(sentence('error.library.archiveOverlap')));
        const inflate = entry.compressionMethod === 8;
        const at = header.fileDataStart;
        this.zip.openReadStreamLowLevel(
          at,
          size,
          0,
          size,
          inflate,
          entry.uncompressedSize,
          (error, stream) => {
            if (error) return reject(error);
            if (this.closing) {
              stream.destroy();
              return reject(new Error('The archive is closed.'));
            }
            this.open.add(stream);
            stream.once('close', () => this.open.delete(stream));
            resolve(keepingErrors(stream));
          },
        );
      }),
    );
  }
}
