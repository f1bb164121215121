/**
 * The library archive's IPC shapes (export, import, their progress), kept beside the contract
 * so it stays one line per channel. Summaries are bounded: a long list of refusals is cut to its
 * first {@link MAX_LISTED_REFUSALS}, with the full count beside it.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { MAX_LOCAL_ID_CHARS } from '../domain/limits';
import { sentenceSchema } from '../i18n/sentence';

export const MAX_LISTED_REFUSALS = 200;
/** Most tasks one export of a selection names. */
const MAX_EXPORT_IDS = 100_000;

const count = lazySchema(() => z.number().int().min(0));
/** A path left out and why (an export's, an import's, a rebuild's of a library opened). */
export const refusalSchema = lazySchema(() =>
  z.object({
    path: z.string().max(4_096),
    reason: z.string().max(1_000),
    /** `reason` as a catalogue sentence, shown in the window's language (one that does not parse is dropped). */
    reasonSentence: sentenceSchema().optional().catch(undefined),
  }),
);

export const archiveExportInputSchema = lazySchema(() =>
  z
    .object({
      /** Only these tasks; absent: the whole library. */
      localIds: z
        .array(z.string().min(1).max(MAX_LOCAL_ID_CHARS))
        .min(1)
        .max(MAX_EXPORT_IDS)
        .optional(),
    })
    .strict(),
);

export const exportSummarySchema = lazySchema(() =>
  z.object({
    /** Where the archive was written (the path the user chose in main's dialog). */
    file: z.string(),
    tasks: count(),
    images: count(),
    bytes: count(),
    /** Of `images`, those saved with their key-carrying metadata removed (ImageRecord.keyRemoved). */
    keyRemoved: count(),
    skipped: z.array(refusalSchema()).max(MAX_LISTED_REFUSALS),
    skippedTotal: count(),
  }),
);
export type ExportSummaryView = z.infer<ReturnType<typeof exportSummarySchema>>;

export const archiveImportInputSchema = lazySchema(() =>
  z
    .object({
      /** Which open dialog main shows: an archive file, or a folder. */
      from: z.enum(['archive', 'folder']),
    })
    .strict(),
);

export const importSummarySchema = lazySchema(() =>
  z.object({
    addedTasks: count(),
    addedImages: count(),
    duplicateTasks: count(),
    duplicateImages: count(),
    refused: z.array(refusalSchema()).max(MAX_LISTED_REFUSALS),
    refusedTotal: count(),
    cancelled: z.boolean(),
    /** What the import did not keep of the images' triage (tags and boards past the limits). */
    notes: z.array(sentenceSchema()).max(MAX_LISTED_REFUSALS),
  }),
);
export type ImportSummaryView = z.infer<ReturnType<typeof importSummarySchema>>;

export const archiveProgressSchema = lazySchema(() =>
  z.object({
    operation: z.enum(['export', 'import']),
    done: count(),
    total: count(),
    bytes: count(),
  }),
);
export type ArchiveProgressView = z.infer<ReturnType<typeof archiveProgressSchema>>;
