/**
 * Uploads that stay usable for a while (DashScope's `oss://`: 48 hours), remembered so a task sent
 * again soon reuses its input's link instead of uploading it again. A link is reused while more
 * than an hour of it remains (a queued task still reaches the service in time), else the input is
 * uploaded again. Kept in the data folder (not the library: a link is the account's, not the
 * image's), written atomically, read through a schema; a damaged file is a memory lost, never an
 * error. It is read as a regular file of at most MAX_UPLOAD_MEMORY_BYTES, never through a link
 * (core/fs/regular-file.ts): a huge file, a link to another file or a FIFO put in its place is
 * damage too, not read whole into memory, followed or waited on; and a write keeps the file within
 * that size (the entries expiring soonest left out), so what it writes it reads back. An entry is
 * named by a digest of the upload endpoint, the key's fingerprint (the one every task record
 * already carries as its `account`) and the image's digest: nothing derived from the key itself
 * is written, so the file is no oracle to test a guessed key against.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ensureFolder, PRIVATE_FILE_MODE, readRegularFile, TEMP_DIR, writeFileAtomic } from '../fs';

/** The file, in the data folder. */
export const UPLOAD_MEMORY_FILE = 'input-uploads.json';
/** A link with less than this left is not reused. */
const REUSE_MARGIN_MS = 60 * 60 * 1000;
/** Entries kept at most (the oldest expiry goes first). */
const MAX_ENTRIES = 2_000;
/**
 * The largest file read: 2,000 entries of a DashScope link (about 250 bytes each) twice over.
 * Larger is damage (a crafted or broken file), not read; a write never makes one.
 */
export const MAX_UPLOAD_MEMORY_BYTES = 1024 * 1024;

const entrySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  link: z.string().min(1).max(4_096),
  expiresAt: z.number().int().nonnegative(),
});
const fileSchema = z.object({
  version: z.literal(1),
  entries: z.array(entrySchema).max(MAX_ENTRIES),
});
type Entry = z.infer<typeof entrySchema>;

/** What names one upload: where it went, for whose account (its key's fingerprint), of which image. */
export interface UploadKey {
  readonly endpoint: string;
  readonly account: string;
  readonly sha256: string;
}

/**
 * The file holding the entries that expire last, as many as fit MAX_ENTRIES and
 * MAX_UPLOAD_MEMORY_BYTES (long links make fewer fit).
 */
function fileText(entries: readonly Entry[]): string {
  const newest = [...entries].sort((a, b) => b.expiresAt - a.expiresAt).slice(0, MAX_ENTRIES);
  let size = JSON.stringify({ version: 1, entries: [] }).length;
  let kept = 0;
  for (const entry of newest) {
    // Each entry's JSON, and a comma before all but the first: what the file grows by.
    size += Buffer.byteLength(JSON.stringify(entry)) + (kept === 0 ? 0 : 1);
    if (size > MAX_UPLOAD_MEMORY_BYTES) break;
    kept += 1;
  }
  return JSON.stringify({ version: 1, entries: newest.slice(0, kept) });
}

function idOf(upload: UploadKey): string {
  return createHash('sha256')
    .update(`pictor-upload\n${upload.endpoint}\n${upload.account}\n${upload.sha256}`)
    .digest('hex');
}

export class UploadMemory {
  /** Writes one at a time, in order: a later remember never loses to an earlier one. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    /** The data folder (private to the user). */
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** The remembered link of `upload` while more than an hour of it remains; else null. */
  async recall(upload: UploadKey): Promise<string | null> {
    const id = idOf(upload);
    const entry = (await this.entries()).find((one) => one.id === id);
    return entry && entry.expiresAt - this.now() > REUSE_MARGIN_MS ? entry.link : null;
  }

  /** Remembers `link` for `upload` until `expiresAt`; a failed write is a memory lost. */
  remember(upload: UploadKey, link: string, expiresAt: number): Promise<void> {
    const id = idOf(upload);
    this.writing = this.writing.then(async () => {
      const now = this.now();
      const kept = (await this.entries()).filter((one) => one.id !== id && one.expiresAt > now);
      await ensureFolder(this.dataDir, join(this.dataDir, TEMP_DIR));
      await writeFileAtomic(
        this.dataDir,
        join(this.dataDir, UPLOAD_MEMORY_FILE),
        fileText([...kept, { id, link, expiresAt }]),
        PRIVATE_FILE_MODE,
      );
    });
    this.writing = this.writing.catch(() => undefined);
    return this.writing;
  }

  /** What the file remembers; nothing when it is missing, damaged, too large or no regular file. */
  private async entries(): Promise<Entry[]> {
    try {
      const path = join(this.dataDir, UPLOAD_MEMORY_FILE);
      const bytes = await readRegularFile(this.dataDir, path, MAX_UPLOAD_MEMORY_BYTES);
      const parsed = fileSchema.safeParse(JSON.parse(bytes.toString('utf8')));
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }
}
