/**
 * Exports the whole library, or the tasks named, to one ZIP archive (yazl): each task's sidecar
 * (written from the history, which is the truth, not from the file on disk) and its saved images
 * with their XMP sidecars (an image with Content Credentials keeps its XMP beside it), at the same
 * paths as in the gallery, the input images their edits were made from (export-inputs.ts), then `pictor-export.json` listing every file with its task,
 * size and SHA-256. The summary counts the images written whose own metadata lost a held key
 * when they were saved (`keyRemoved`), as the viewer says of each. Images are stored (they do not compress), sidecars and the manifest deflated.
 *
 * Gallery files are read as the gallery reads crafted folders (regular-file.ts: no links, no
 * FIFOs, size-capped, kind sniffed); one that fails is left out and named in the summary. The
 * archive is written to a new `.part` file beside the target and renamed into place at the end
 * (export-target.ts); cancelled or failed, the `.part` file is removed and the target is
 * untouched, and a failure of that file itself (its folder gone, the disk full…) is the export's
 * sentence naming the file and why.
 *
 * A task a newer Pictor made (a status or a service this version does not know) is not read here,
 * so it is not in the archive: each is named in the summary as left out, and why (it stays in the
 * library as it is), whether the whole library or the task by its id was asked for. A task's
 * sidecar keeps the fields a newer Pictor added to a task this version reads (sidecarOf).
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import type { HistoryStore } from '../../history';
import {
  copyWithRecordPacket,
  detectC2paInBytes,
  imageNames,
  MAX_SIDECAR_BYTES,
  MAX_XMP_SIDECAR_BYTES,
  SIDECAR_NAME,
  sidecarText,
  taskFolderName,
} from '../../gallery';
import { readRegularFile, resolveInside } from '../../fs';
import { metadataCarriesKey, sniffImage } from '../../images';
import { DEFAULT_ARCHIVE_LIMITS } from './archive-limits';
import { sentence } from '../../../../shared/i18n/sentence';
import { refusal, throwIfAborted, type Refusal } from './archive-errors';
import { collisionKey, pathRefusal, pathRuleSentence } from './entry-path';
import type { LibraryProgress } from './library-progress';
import {
  MANIFEST_FORMAT,
  MANIFEST_NAME,
  MANIFEST_VERSION,
  MANIFEST_VERSION_WITH_XMP,
  MANIFEST_VERSION_WITHOUT_XMP,
  manifestText,
  type ManifestEntry,
} from './manifest';
import { sha256Of } from './stream-copy';
import { ExportedInputs } from './export-inputs';
import { type ExportKeyScrubber, ownOf, scrubbedTask, xmpWithoutKeys } from './export-scrub';
import { writeExportTarget } from './export-target';

export interface ExportOptions {
  readonly root: string;
  readonly history: Pick<
    HistoryStore,
    'get' | 'list' | 'count' | 'newerTaskIds' | 'textWithNewerFields'
  >;
  /** The archive to write. */
  readonly target: string;
  /** Replace `target` if it exists (the save dialog asked); otherwise an existing file is refused. */
  readonly overwrite?: boolean;
  /** Only these tasks (local ids); absent: every task. */
  readonly localIds?: readonly string[];
  readonly pictorVersion: string;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: LibraryProgress) => void;
  /** The scrubber of every key the process holds (the core's): the archive carries none. */
  readonly keyScrubber?: () => Promise<ExportKeyScrubber>;
}

export interface ExportSummary {
  readonly file: string;
  readonly tasks: number;
  readonly images: number;
  readonly bytes: number;
  /**
   * Of `images`, those whose own metadata lost a held key when they were saved
   * (`ImageRecord.keyRemoved`): the summary says how many (shared/i18n/key-removed.ts).
   */
  readonly keyRemoved: number;
  readonly skipped: Refusal[];
}

/**
 * Exported tasks, a page of the history at a time (or the ones named). Those a newer Pictor made,
 * which no read here returns, are named in `skipped` as left out.
 */
function* recordsOf(
  options: ExportOptions,
  skipped: Refusal[],
  newerIds: () => ReadonlySet<string>,
): Generator<TaskRecord> {
  const leftOut = (localId: string) =>
    skipped.push(refusal(localId, sentence('error.library.exportNewerTask')));
  if (options.localIds) {
    for (const localId of new Set(options.localIds)) {
      const record = options.history.get(localId);
      if (record) yield record;
      else if (newerIds().has(localId)) leftOut(localId);
      else skipped.push(refusal(localId, sentence('error.library.exportNoTask')));
    }
    return;
  }
  let cursor: string | null = null;
  do {
    const page = options.history.list({ limit: 500, cursor });
    yield* page.items;
    cursor = page.nextCursor;
  } while (cursor);
  for (const localId of [...newerIds()].sort()) leftOut(localId);
}

/**
 * A stream of `bytes` that lets go of them once read: yazl keeps every entry's stream until the
 * archive ends, and a stream holding its buffer kept every image in memory (+600 MB peak RSS at
 * 10,000 images, measured).
 */
function onceStream(bytes: Buffer): Readable {
  let held: Buffer | null = bytes;
  return new Readable({
    read() {
      if (held) this.push(held);
      held = null;
      this.push(null);
    },
  });
}

/** yazl's callback for one entry: a stream of the holder's bytes, made when yazl reaches it. */
function lazyOpener(
  holder: { bytes: Buffer | null },
  resolve: () => void,
  reject: (error: unknown) => void,
): (done: (error: unknown, stream: Readable) => void) => void {
  return (done) => {
    const stream = onceStream(holder.bytes ?? Buffer.alloc(0));
    holder.bytes = null;
    stream.on('end', resolve).on('error', reject);
    done(null, stream);
  };
}

/** Archive bytes allowed to wait in memory for the disk. */
const QUEUED_BYTES = 16 * 1024 * 1024;

/** DOS dates start in 1980. */
const mtimeOf = (at: number) => new Date(Math.max(at, Date.UTC(1980, 0, 2)));

class ArchiveWriter {
  readonly zip = new yazl.ZipFile();
  readonly entries: ManifestEntry[] = [];
  readonly names = new Set<string>();
  bytes = 0;
  images = 0;
  /** Of `images`, those saved with their key-carrying metadata removed (ImageRecord.keyRemoved). */
  keyRemoved = 0;
  tasks = 0;

  /** Rejects when writing the archive failed, so no wait for the archive hangs. */
  failed: Promise<never> = new Promise(() => undefined);
  /** Archive bytes waiting in memory for the file (yazl queues whatever it is given). */
  backlog: () => number = () => 0;

  private readonly inputs: ExportedInputs;

  constructor(
    private readonly root: string,
    private readonly skipped: Refusal[],
    private readonly history: ExportOptions['history'],
    private readonly scrub: ExportKeyScrubber | undefined,
  ) {
    this.inputs = new ExportedInputs(root, skipped);
  }

  /** Adds `bytes` and waits until the archive has taken them in (memory stays one file deep). */
  private async add(
    entry: Omit<ManifestEntry, 'size' | 'sha256'>,
    bytes: Buffer,
    mtime: Date,
  ): Promise<void> {
    this.entries.push({ ...entry, size: bytes.length, sha256: sha256Of(bytes) });
    this.names.add(collisionKey(entry.path));
    const size = bytes.length;
    // Only the holder is kept (emptied once read): a closure here that named `bytes` would keep
    // every image alive as long as yazl keeps the entry, that is until the archive ends.
    const holder: { bytes: Buffer | null } = { bytes };
    const options = { compress: entry.kind === 'sidecar', size, mtime };
    const taken = new Promise<void>((resolve, reject) =>
      this.zip.addReadStreamLazy(entry.path, options, lazyOpener(holder, resolve, reject)),
    );
    await Promise.race([taken, this.failed]);
    this.bytes += size;
    // yazl pushes into its output without waiting for the disk: wait here instead, so memory
    // holds a few megabytes of the archive, not all of it (600 MB at 10,000 images, measured).
    while (this.backlog() > QUEUED_BYTES) {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 5)), this.failed]);
    }
  }

  async addTask(record: TaskRecord, signal?: AbortSignal): Promise<void> {
    // Named in NFC, as an archive's names are (entry-path.ts): macOS spells the folders a user
    // named (`Café`) in NFD. Its files are read where the record says.
    const named = (record.folder ?? taskFolderName(record)).normalize('NFC');
    const text = this.sidecarOf({ ...record, folder: named });
    // With a key the process holds in any of its fields, the task as it is with the key out.
    const scrubbed = this.scrub ? scrubbedTask(text, named, this.scrub) : null;
    const folder = scrubbed?.folder ?? named;
    const sidecarPath = `${folder}/${SIDECAR_NAME}`;
    const rule = pathRefusal(sidecarPath, DEFAULT_ARCHIVE_LIMITS);
    if (rule || this.names.has(collisionKey(sidecarPath))) {
      const why = rule ? pathRuleSentence(rule) : sentence('error.library.exportFolderShared');
      this.skipped.push(refusal(folder, why));
      return;
    }
    const mtime = mtimeOf(record.updatedAt);
    const kept = [];
    for (const image of record.images) {
      throwIfAborted(signal);
      if (image.state !== 'saved' || !image.file) continue;
      const read = await this.readImage(image.file);
      if ('key' in read) {
        this.skipped.push(refusal(image.file, read));
        continue;
      }
      const names = imageNames(image.index, read.kind);
      const path = `${folder}/${names.image}`;
      const of = { ...ownOf(scrubbed?.record ?? record, image), kind: read.kind };
      const copied = await this.copyOf(read.bytes, { ...of, remake: scrubbed !== null });
      if ('key' in copied) {
        this.skipped.push(refusal(image.file, copied));
        continue;
      }
      await this.add({ taskId: record.localId, path, kind: 'image' }, copied.bytes, mtime);
      kept.push(image.index);
      this.images += 1;
      if (image.keyRemoved) this.keyRemoved += 1;
      if (image.xmpFile) await this.addXmp(of, image.xmpFile, `${folder}/${names.xmp}`, mtime);
    }
    for await (const input of this.inputs.filesOf(record)) {
      await this.add(
        { taskId: record.localId, path: input.path, kind: 'input' },
        input.bytes,
        mtime,
      );
    }
    const sidecar = Buffer.from(scrubbed?.sidecar ?? text);
    await this.add({ taskId: record.localId, path: sidecarPath, kind: 'sidecar' }, sidecar, mtime);
    this.tasks += 1;
  }

  /**
   * The task's sidecar, with the fields a newer Pictor added to its stored record (history
   * textWithNewerFields): an archive taken to that Pictor brings them back. Only carried, never
   * read here; a sidecar they would take past the reader's cap is written without them.
   */
  private sidecarOf(record: TaskRecord): string {
    const own = sidecarText(record);
    const kept = this.history.textWithNewerFields(record);
    if (kept === null) return own;
    const whole = sidecarText(JSON.parse(kept) as TaskRecord);
    return Buffer.byteLength(whole) <= MAX_SIDECAR_BYTES ? whole : own;
  }

  /**
   * An image's XMP sidecar, under its image's name; one that cannot be read is left out, named.
   * Pictor's packet naming another task id than the record is made again from it, and no key
   * the process holds stays in it (export-scrub.ts).
   */
  private async addXmp(
    of: { readonly record: TaskRecord; readonly image: ImageRecord },
    file: string,
    path: string,
    mtime: Date,
  ) {
    const { record } = of;
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(
        this.root,
        resolveInside(this.root, file),
        MAX_XMP_SIDECAR_BYTES,
      );
    } catch {
      this.skipped.push(refusal(file, sentence('error.library.exportXmpUnreadable')));
      return;
    }
    if (this.scrub) bytes = xmpWithoutKeys(bytes, of, this.scrub);
    await this.add({ taskId: record.localId, path, kind: 'xmp' }, bytes, mtime);
  }

  /**
   * An image's bytes as the archive holds them, with no key the process holds (export-scrub.ts),
   * or why it is left out. A signed image (Content Credentials) goes byte for byte (editing it
   * would break its signature, so Pictor's packet is never made again in it: copy-packet.ts); its
   * own metadata is the service's and may carry a key (one the user added after it was saved,
   * or an image kept before the download's search, images/metadata-keys.ts): an archive leaves
   * the computer, so such an image is left out and named, and the library keeps it as it is. An
   * unsigned copy with the key cut out was the other way, not taken: in an archive it would show
   * as a tampered image.
   */
  private async copyOf(bytes: Buffer, of: Parameters<typeof copyWithRecordPacket>[1]) {
    if (!this.scrub) return { bytes };
    const copied = await copyWithRecordPacket(bytes, of);
    if ('refused' in copied) {
      return sentence('error.library.exportImageUnsafe', { reason: copied.refused });
    }
    const signed = (await detectC2paInBytes(copied.bytes, of.kind)).found;
    return signed && metadataCarriesKey(copied.bytes, of.kind, this.scrub)
      ? sentence('error.library.exportSignedImageKey')
      : copied;
  }

  private async readImage(file: string) {
    try {
      const bytes = await readRegularFile(
        this.root,
        resolveInside(this.root, file),
        DEFAULT_ARCHIVE_LIMITS.maxImageBytes,
      );
      const kind = sniffImage(bytes.subarray(0, 12));
      return kind ? { bytes, kind } : sentence('error.library.exportNotImage');
    } catch (error) {
      // A file the gallery would not read (a link, too large): its words follow.
      return error instanceof Error && 'reason' in error
        ? sentence('error.library.exportImageUnsafe', { reason: String(error.reason) })
        : sentence('error.library.exportImageUnreadable');
    }
  }
}

/** The oldest manifest format that holds `entries`, so older Pictors read what they can. */
function manifestVersionOf(entries: readonly ManifestEntry[]): number {
  if (entries.some((entry) => entry.kind === 'input')) return MANIFEST_VERSION;
  if (entries.some((entry) => entry.kind === 'xmp')) return MANIFEST_VERSION_WITH_XMP;
  return MANIFEST_VERSION_WITHOUT_XMP;
}

/**
 * Exports the library (see the file's comment).
 * @throws AbortError; ArchiveNotWrittenError (the archive's own file); UserFacingError.
 */
export async function exportLibrary(options: ExportOptions): Promise<ExportSummary> {
  const skipped: Refusal[] = [];
  const scrub = await options.keyScrubber?.();
  const writer = new ArchiveWriter(options.root, skipped, options.history, scrub);
  const target = writeExportTarget(options.target, writer.zip.outputStream as Readable);
  writer.backlog = target.backlog;
  writer.failed = target.written.then(() => new Promise<never>(() => undefined));
  writer.failed.catch(() => undefined);
  let newer: ReadonlySet<string> | undefined;
  const newerIds = () => (newer ??= new Set(options.history.newerTaskIds()));
  // The history's count holds the tasks a newer Pictor made, which the export leaves out.
  const total = options.localIds
    ? new Set(options.localIds).size
    : Math.max(0, options.history.count() - newerIds().size);
  const report = () =>
    options.onProgress?.({ operation: 'export', done: writer.tasks, total, bytes: writer.bytes });
  try {
    report();
    for (const record of recordsOf(options, skipped, newerIds)) {
      throwIfAborted(options.signal);
      await writer.addTask(record, options.signal);
      report();
    }
    const manifest = manifestText({
      format: MANIFEST_FORMAT,
      version: manifestVersionOf(writer.entries),
      pictorVersion: options.pictorVersion,
      createdAt: new Date((options.now ?? Date.now)()).toISOString(),
      entries: writer.entries,
    });
    writer.zip.addBuffer(Buffer.from(manifest), MANIFEST_NAME);
    writer.zip.end();
    await target.written;
    await target.publish(options.overwrite ?? false);
  } catch (error) {
    await target.discard();
    throw error;
  }
  return {
    file: options.target,
    tasks: writer.tasks,
    images: writer.images,
    bytes: writer.bytes,
    keyRemoved: writer.keyRemoved,
    skipped,
  };
}
