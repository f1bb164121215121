/**
 * Imports an archive (a ZIP made by {@link exportLibrary}) or a folder (a Pictor gallery folder, or
 * an export unpacked) into the gallery and the history, merging without overwriting (see
 * import-task.ts), with progress, cancellation and a summary.
 *
 * What is refused, and what is then written:
 * - An archive whose central directory shows anything crafted (zip-source.ts), or whose manifest
 *   is missing, too big or invalid, is refused as a whole before anything is written; so is a
 *   source whose files would not fit on the library's disk (with a margin to spare), by the sizes
 *   it declares (every byte read is counted against them again).
 * - What only shows while reading (an entry that inflates past its size or its cap, bytes that do
 *   not match the manifest, a file that is not the image its name says or that fails the check a
 *   download passes, an invalid sidecar) is refused entry by entry: that image (or, for a sidecar,
 *   its task) is left out and recorded `invalid` with its reason, the rest comes in.
 * - An input image (`inputs/<sha256>.<ext>`) whose bytes do not match its name, or that is not
 *   the image it says, is refused alone (import-inputs.ts); the tasks made from it keep their
 *   records.
 * - Cancelled, the task being imported is discarded whole (or, added to an existing task, keeps
 *   the images already published), every task before it stays, and the summary says `cancelled`.
 */
import { realpath, stat } from 'node:fs/promises';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import { addDropped, NOTHING_DROPPED, type TriageDropped } from '../../history';
import { importTriageNotes } from './import-triage';
import { diskFreeBytes, ensureFolder, type FreeSpace, isWithin, TEMP_DIR } from '../../fs';
import type { ImageIntake } from '../../download';
import { join } from 'node:path';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import { ArchiveRefusedError, asLibraryDiskError, isAbort, type Refusal } from './archive-errors';
import { openFolderSource } from './folder-source';
import { planImport } from './import-plan';
import { importTask, type ImportContext, type TaskOutcome } from './import-task';
import { importInputs } from './import-inputs';
import type { ImportKeyScrubber } from './import-kept-id';
import type { PlannedTask } from './import-plan';
import { KeyedLock } from './keyed-lock';
import { MANIFEST_NAME, parseManifest, type ManifestEntry } from './manifest';
import { readBounded } from './stream-copy';
import { BatchedHistory, type ImportStore } from './batched-history';
import { openZipSource, type ImportSource } from './zip-source';
import type { LibraryProgress } from './library-progress';

/** Tasks imported at once. */
const TASKS_AT_ONCE = 4;

export interface ImportOptions {
  /** The gallery imported into, as its intake sees it: its folder, and the check downloads pass. */
  readonly intake: Pick<ImageIntake, 'root' | 'checkImage'>;
  /** Its writes of many records may run in the history worker (history-writes.ts). */
  readonly history: ImportStore;
  /** An archive file or a folder, chosen by the user. */
  readonly source: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: LibraryProgress) => void;
  readonly limits?: Partial<ArchiveLimits>;
  /** The free space of the gallery's disk; default the operating system's (tests simulate one). */
  readonly freeSpace?: FreeSpace;
  /**
   * Awaited before each task starts, told how many are done: the command line's test build holds
   * the import there (electron/cli/import-hold.ts); nothing else gives one.
   */
  readonly beforeTask?: (done: number) => Promise<void>;
  /**
   * The scrubber of every key the process holds (the core's: pictor-core.ts), made once at the
   * start: a task id that carries one comes in with it redacted (import-kept-id.ts). None when
   * absent.
   */
  readonly keyScrubber?: () => Promise<ImportKeyScrubber>;
}

export interface ImportSummary {
  readonly addedTasks: number;
  readonly addedImages: number;
  /** Tasks already in the library that gained nothing. */
  readonly duplicateTasks: number;
  /** Images already in their task (same bytes). */
  readonly duplicateImages: number;
  readonly refused: Refusal[];
  readonly cancelled: boolean;
  /**
   * What the library did not keep of the source's triage, one sentence for each kind: tags and
   * boards past an image's limits or not valid, past the library's limits (import-triage.ts).
   */
  readonly notes: Sentence[];
}

type Counts = Omit<ImportSummary, 'cancelled' | 'notes'> & { readonly dropped: TriageDropped };

async function openSource(source: string, limits: ArchiveLimits): Promise<ImportSource> {
  const info = await stat(source);
  if (info.isDirectory()) return openFolderSource(source, limits);
  if (!info.isFile())
    throw new ArchiveRefusedError(sentence('error.library.sourceNotFileOrFolder'));
  return openZipSource(source, info.size, limits);
}

async function readManifest(
  source: ImportSource,
  limits: ArchiveLimits,
  signal?: AbortSignal,
): Promise<Map<string, ManifestEntry> | null> {
  const file = source.files.find((candidate) => candidate.path === MANIFEST_NAME);
  if (!file) {
    if (source.kind === 'folder') return null;
    throw new ArchiveRefusedError(
      sentence('error.library.archiveNoManifest', { name: MANIFEST_NAME }),
    );
  }
  const what = source.kind;
  let text: string;
  try {
    text = (await readBounded(await file.open(), limits.maxManifestBytes, signal)).toString('utf8');
  } catch (error) {
    // The source's own refusal (a crafted entry found as it is opened) says what it found.
    if (isAbort(error) || error instanceof ArchiveRefusedError) throw error;
    throw new ArchiveRefusedError(
      sentence('error.library.manifestTooLarge', {
        what,
        max: String(limits.maxManifestBytes),
      }),
    );
  }
  const parsed = parseManifest(text, limits.maxEntries);
  if (!parsed.ok) {
    throw new ArchiveRefusedError(sentence(parsed.problem.key, { ...parsed.problem.params, what }));
  }
  return new Map(parsed.manifest.entries.map((entry) => [entry.path, entry]));
}

/** Refuses a source whose `bytes` would not leave the margin free on the gallery's disk. */
async function refuseWithoutRoom(
  root: string,
  bytes: number,
  what: ImportSource['kind'],
  options: { limits: ArchiveLimits; freeSpace: FreeSpace },
): Promise<void> {
  const needed = bytes + options.limits.freeSpaceMarginBytes;
  const free = await options.freeSpace(root);
  if (needed > free) {
    throw new ArchiveRefusedError(
      sentence('error.library.notEnoughSpace', {
        what,
        needed: String(needed),
        free: String(Math.max(0, free)),
      }),
    );
  }
}

/** The library's own folder is not a source: importing it into itself would copy it again. */
async function refuseOwnGallery(root: string, source: string): Promise<void> {
  const [realRoot, realSource] = await Promise.all([realpath(root), realpath(source)]);
  if (isWithin(realRoot, realSource) || isWithin(realSource, realRoot)) {
    throw new ArchiveRefusedError(sentence('error.library.sourceIsLibrary'));
  }
}

function add(summary: Counts, outcome: TaskOutcome): Counts {
  return {
    addedTasks: summary.addedTasks + (outcome.addedTask ? 1 : 0),
    addedImages: summary.addedImages + outcome.addedImages,
    duplicateTasks: summary.duplicateTasks + (outcome.duplicateTask ? 1 : 0),
    duplicateImages: summary.duplicateImages + outcome.duplicateImages,
    refused: summary.refused.concat(outcome.refused),
    dropped: addDropped(summary.dropped, outcome.dropped ?? NOTHING_DROPPED),
  };
}

/** How the tasks of a plan ended: counted, then stopped or failed as the first to do so. */
interface Run {
  summary: Counts;
  done: number;
  stopped: boolean;
  failure: { error: unknown } | null;
}

/**
 * Imports the plan's tasks a few at once (each waits mostly on the disk's flushes, which then
 * overlap); after a cancellation or a failure no task starts, and those under way end first.
 */
async function importTasks(
  tasks: readonly PlannedTask[],
  context: ImportContext,
  run: Run,
  steps: { readonly report: () => void; readonly beforeTask?: (done: number) => Promise<void> },
): Promise<void> {
  const { report, beforeTask } = steps;
  let next = 0;
  const more = () => !run.stopped && run.failure === null && next < tasks.length;
  const worker = async (): Promise<void> => {
    while (more()) {
      if (beforeTask) {
        await beforeTask(run.done);
        if (!more()) break;
      }
      const task = tasks[next++] as PlannedTask;
      try {
        const outcome = await importTask(task, context);
        run.summary = add(run.summary, outcome);
        run.done += 1;
        report();
        if (outcome.stopped) run.stopped = true;
      } catch (error) {
        if (isAbort(error)) run.stopped = true;
        else run.failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(TASKS_AT_ONCE, tasks.length) }, worker));
}

/** What importing a task needs from `options`, its progress added to `bytes`. */
function contextFor(
  options: ImportOptions,
  limits: ArchiveLimits,
  history: BatchedHistory,
  scrubKeys: ImportKeyScrubber,
) {
  const lock = new KeyedLock();
  const bytes = { read: 0 };
  const context: ImportContext = {
    root: options.intake.root,
    history,
    limits,
    check: (file, kind) => options.intake.checkImage(file, kind),
    ...(options.signal ? { signal: options.signal } : {}),
    onBytes: (count: number) => void (bytes.read += count),
    reservedFolders: new Set<string>(),
    oneAtATime: (keys, work) => lock.run(keys, work),
    scrubKeys,
  };
  return { context, bytes };
}

/**
 * Imports `options.source` (see the file's comment). Whatever ends it (done, cancelled, a refusal,
 * a disk that cannot be written, a failure), every read of the source has ended and its file is
 * closed when this settles, and no staged file is left.
 * @throws ArchiveRefusedError (nothing written); LibraryDiskError (the library's disk refused a
 *   write: the tasks before stay whole); the history's errors; other file-system errors.
 */
export async function importLibrary(options: ImportOptions): Promise<ImportSummary> {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
  const { root } = options.intake;
  await refuseOwnGallery(root, options.source);
  await ensureFolder(root, join(root, TEMP_DIR)).catch((error: unknown) => {
    throw asLibraryDiskError(error);
  });
  const source = await openSource(options.source, limits);
  const history = new BatchedHistory(options.history);
  const run: Run = { summary: emptyCounts(source.refused), done: 0, stopped: false, failure: null };
  try {
    const manifest = await readManifest(source, limits, options.signal);
    const plan = planImport(source.files, manifest, source.kind === 'archive');
    run.summary.refused.push(...plan.refused);
    await refuseWithoutRoom(root, plan.bytes, source.kind, {
      limits,
      freeSpace: options.freeSpace ?? diskFreeBytes,
    });
    const scrub = (await options.keyScrubber?.()) ?? ((text: string) => text);
    const { context, bytes } = contextFor(options, limits, history, scrub);
    const total = plan.tasks.length;
    const report = () =>
      options.onProgress?.({ operation: 'import', done: run.done, total, bytes: bytes.read });
    report();
    // The inputs first: a task that comes in can be run again at once.
    const inputs = await importInputs(plan.inputs, root, context);
    run.summary.refused.push(...inputs);
    const { beforeTask } = options;
    await importTasks(plan.tasks, context, run, { report, ...(beforeTask ? { beforeTask } : {}) });
    if (run.failure !== null) throw run.failure.error;
  } catch (error) {
    if (!isAbort(error)) throw asLibraryDiskError(error);
    run.stopped = true;
  } finally {
    try {
      await history.flush().catch((error: unknown) => {
        throw asLibraryDiskError(error);
      });
    } finally {
      await source.close();
    }
  }
  const { dropped, ...counts } = run.summary;
  return { ...counts, cancelled: run.stopped, notes: importTriageNotes(dropped, history.dropped) };
}

function emptyCounts(refused: readonly Refusal[]): Counts {
  return {
    addedTasks: 0,
    addedImages: 0,
    duplicateTasks: 0,
    duplicateImages: 0,
    refused: [...refused],
    dropped: NOTHING_DROPPED,
  };
}
