/**
 * The trash's journal: what a delete put aside for Undo, and which Undo is under way, on disk
 * before any file moves or any record changes, so that a quit, a crash or a kill at any moment is
 * finished at the next start (trash-replay.ts). It lives in the data folder (0700), not in the
 * gallery: only what Pictor itself wrote decides where a file goes back to or which task record
 * comes back, never a file a crafted gallery folder brought along.
 *
 * Files, each written whole under a temporary name, synced and renamed into place:
 * - `batch-<id>.json`: one delete (images of one gallery root) or one removal (task records);
 * - `restore-<id>.json`: one Undo under way, naming the entries it brings back.
 */
import { randomUUID } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { MAX_LOCAL_ID_CHARS, MAX_PATH_CHARS } from '../../../shared/domain/limits';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { silentLogger, type Logger } from '../../ports/logger';
import { messageOf } from '../errors';
import { ensurePrivateFolderBelow, fsyncDir, openRegularFile, PRIVATE_FILE_MODE } from '../fs';
import { IMAGE_FILE_ROLES } from '../gallery';

/** The journal's folder inside the data folder. */
export const TRASH_JOURNAL_DIR = 'trash-journal';
/** A journal file larger than this is not Pictor's (1,000 task records fit many times over). */
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;
/** The most entries one batch or restore holds (the IPC batches are smaller). */
const MAX_ENTRIES = 5_000;

const entryId = z.string().uuid();
/** A name Pictor gave a held file inside its entry's trash folder. */
const heldName = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/);

/** One file of a held image: what it is, where it was, its name in the trash. */
const heldFileSchema = z.object({
  role: z.enum(IMAGE_FILE_ROLES),
  path: z.string().min(1).max(MAX_PATH_CHARS),
  held: heldName,
});

/** An image put aside: its files are in `<root>/.pictor-trash/<id>/`. */
const imageEntrySchema = z.object({
  id: entryId,
  localId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
  index: z.number().int().min(0).max(10_000),
  files: z.array(heldFileSchema).min(1).max(16),
});
export type ImageEntry = z.infer<typeof imageEntrySchema>;

/** A task removed from the history, its whole record kept to put back. */
const taskEntrySchema = z.object({ id: entryId, record: taskRecordSchema() });
export type TaskEntry = z.infer<typeof taskEntrySchema>;

const imageBatchSchema = z.object({
  v: z.literal(1),
  kind: z.literal('images'),
  id: entryId,
  /** The gallery root the images were in (absolute). */
  root: z.string().min(1).max(4_096),
  at: z.number(),
  entries: z.array(imageEntrySchema).max(MAX_ENTRIES),
});
const taskBatchSchema = z.object({
  v: z.literal(1),
  kind: z.literal('tasks'),
  id: entryId,
  at: z.number(),
  entries: z.array(taskEntrySchema).max(MAX_ENTRIES),
});
const batchSchema = z.discriminatedUnion('kind', [imageBatchSchema, taskBatchSchema]);
export type ImageBatch = z.infer<typeof imageBatchSchema>;
export type TaskBatch = z.infer<typeof taskBatchSchema>;
export type Batch = z.infer<typeof batchSchema>;

/** An Undo under way: the entries (of any batches) it brings back. */
const restoreSchema = z.object({
  v: z.literal(1),
  id: entryId,
  entries: z.array(z.object({ batch: entryId, entry: entryId })).max(MAX_ENTRIES),
});
export type Restore = z.infer<typeof restoreSchema>;

/** What the journal holds. */
export interface JournalState {
  readonly batches: Batch[];
  readonly restores: Restore[];
}

const BATCH = 'batch-';
const RESTORE = 'restore-';
const TEMP = '.tmp-';

/** The journal in one folder; every write is on disk when its promise resolves. */
export class TrashJournal {
  private readonly logger: Logger;
  private ready: Promise<void> | null = null;

  constructor(
    readonly folder: string,
    logger?: Logger,
  ) {
    this.logger = logger ?? silentLogger;
  }

  saveBatch(batch: Batch): Promise<void> {
    return this.write(`${BATCH}${batch.id}.json`, batchSchema.parse(batch));
  }

  dropBatch(id: string): Promise<void> {
    return this.remove(`${BATCH}${entryId.parse(id)}.json`);
  }

  saveRestore(restore: Restore): Promise<void> {
    return this.write(`${RESTORE}${restore.id}.json`, restoreSchema.parse(restore));
  }

  dropRestore(id: string): Promise<void> {
    return this.remove(`${RESTORE}${entryId.parse(id)}.json`);
  }

  /**
   * Everything the journal holds. A file that does not parse (not Pictor's, or from a newer
   * version) is logged and left out; temporary files of an interrupted write are removed.
   */
  async load(): Promise<JournalState> {
    await this.prepare();
    const batches: Batch[] = [];
    const restores: Restore[] = [];
    for (const name of (await readdir(this.folder)).sort()) {
      if (name.startsWith(TEMP)) {
        await rm(join(this.folder, name), { force: true });
      } else if (name.startsWith(BATCH)) {
        const batch = await this.read(name, batchSchema);
        if (batch) batches.push(batch);
      } else if (name.startsWith(RESTORE)) {
        const restore = await this.read(name, restoreSchema);
        if (restore) restores.push(restore);
      }
    }
    return { batches, restores };
  }

  private async read<T>(name: string, schema: z.ZodType<T>): Promise<T | null> {
    try {
      const { handle } = await openRegularFile(
        this.folder,
        join(this.folder, name),
        MAX_JOURNAL_BYTES,
      );
      try {
        const parsed = schema.safeParse(JSON.parse(await handle.readFile('utf8')));
        if (parsed.success) return parsed.data;
        this.logger.warn('a trash journal file does not parse; left as it is', { name });
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.logger.warn('a trash journal file could not be read', {
        name,
        detail: messageOf(error),
      });
    }
    return null;
  }

  private prepare(): Promise<void> {
    // A real folder in the data folder: a link left there while the data folder was open to others
    // is refused, never followed (the journal names the user's prompts and files).
    this.ready ??= ensurePrivateFolderBelow(dirname(this.folder), this.folder).catch(
      (error: unknown) => {
        this.ready = null;
        throw error;
      },
    );
    return this.ready;
  }

  private async write(name: string, value: unknown): Promise<void> {
    await this.prepare();
    const temp = join(this.folder, `${TEMP}${randomUUID()}`);
    try {
      // Owner-only, as everything in the data folder: it names the user's prompts and files.
      const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
      try {
        await handle.writeFile(JSON.stringify(value));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, join(this.folder, name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await fsyncDir(this.folder);
  }

  private async remove(name: string): Promise<void> {
    await rm(join(this.folder, name), { force: true });
  }
}
