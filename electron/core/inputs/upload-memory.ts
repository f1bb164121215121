/**
 * Uploads that stay usable for a while (DashScope's `oss://`: 48 hours), remembered so a task sent
 * again soon reuses its input's link instead of uploading it again. A link is reused while more
 * than an hour of it remains (a queued task still reaches the service in time), else the input is
 * uploaded again. Kept in the data folder (not the library: a link is the account's, not the
 * image's), written atomically, read through a schema; a damaged file is a memory lost, never an
 * error. An entry is named by a digest of the upload endpoint, the key's fingerprint (the one
 * every task record already carries as its `account`) and the image's digest: nothing derived
 * from the key itself is written, so the file is no oracle to test a guessed key against.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-file';
import { ensureFolder } from '../fs/contained-fs';
import { PRIVATE_FILE_MODE } from '../fs/private-files';
import { TEMP_DIR } from '../fs/temp-names';

/** The file, in the data folder. */
export const UPLOAD_MEMORY_FILE = 'input-uploads.json';
/** A link with less than this left is not reused. */
const REUSE_MARGIN_MS = 60 * 60 * 1000;
/** Entries kept at most (the oldest expiry goes first). */
const MAX_ENTRIES = 2_000;

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
      const next = [...kept, { id, link, expiresAt }]
        .sort((a, b) => b.expiresAt - a.expiresAt)
        .slice(0, MAX_ENTRIES);
      await ensureFolder(this.dataDir, join(this.dataDir, TEMP_DIR));
      await writeFileAtomic(
        this.dataDir,
        join(this.dataDir, UPLOAD_MEMORY_FILE),
        JSON.stringify({ version: 1, entries: next }),
        PRIVATE_FILE_MODE,
      );
    });
    this.writing = this.writing.catch(() => undefined);
    return this.writing;
  }

  private async entries(): Promise<Entry[]> {
    try {
      const text = await readFile(join(this.dataDir, UPLOAD_MEMORY_FILE), 'utf8');
      const parsed = fileSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.entries : [];
    } catch {
      return [];
    }
  }
}
