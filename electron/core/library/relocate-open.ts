/**
 * Changing the gallery folder without moving anything (Settings › Gallery folder): what a chosen
 * folder holds (`inspectLibrary`: Pictor's task folders, found as a move would find them, never
 * through a link), and making it the gallery as it is (`openLibraryAt`) with the tasks its
 * sidecars describe added to the history (`importGalleryTasks`, as `pictor rebuild` does). The
 * current library is left where it is, untouched. The folder comes from the main process's own
 * dialog, and is refused for the same reasons as a move's target.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  addDropped,
  type HistoryStore,
  limitSentences,
  type ManyRecordWrites,
  NOTHING_DROPPED,
} from '../history';
import { englishText } from '../../../shared/i18n/sentence';
import { linkRefusal, PRIVATE_FOLDER_MODE, TEMP_DIR } from '../fs';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { throwIfAborted } from './archive/archive-errors';
import type { KeptIdScrubber } from './archive/import-kept-id';
import type { RebuildResult, Skipped } from './rebuild';
import { redactedInPlace, redactKeptCopies } from './rebuild-kept-copies';
import { rebuildLibrary, type RebuildIntake } from './rebuild-verified';
import { planSource } from './relocate-plan';
import { refuseTarget, type RelocateOptions } from './relocate';

/** What a folder the user chose holds, and what the current library holds (for the question). */
export interface LibraryFacts {
  /** Pictor task folders found (0: not a Pictor library, or empty). */
  readonly tasks: number;
  readonly files: number;
  readonly bytes: number;
}

/**
 * The result of opening a library: how many of its tasks were new to the history, and what its
 * rebuild left out and why (a task folder under a name the library cannot hold, a sidecar that
 * could not be read), as `pictor rebuild` prints it.
 */
export interface OpenedLibrary {
  readonly imported: number;
  readonly skipped: readonly Skipped[];
}

/** Pictor's task folders under `folder` (none when it does not exist), with their files' sizes. */
export async function inspectLibrary(folder: string): Promise<LibraryFacts> {
  const info = await lstat(folder).catch(() => null);
  if (info === null || !info.isDirectory()) return { tasks: 0, files: 0, bytes: 0 };
  const plan = await planSource(folder);
  const files = plan.tasks.flatMap((task) => task.files);
  return {
    tasks: plan.tasks.length,
    files: files.length,
    bytes: files.reduce((sum, file) => sum + file.size, 0),
  };
}

/**
 * Makes `to` the gallery in place of `from`: refused like a move's target (inside or around the
 * current gallery, home, system and data folders), created when missing, a link where the
 * gallery keeps its temporary files refused; then `switchTo` changes the setting.
 * @throws GalleryMoveError / UnsafePathError: nothing changed.
 */
export async function openLibraryAt(
  from: string,
  to: string,
  options: Pick<RelocateOptions, 'home' | 'dataDir' | 'platform'> & {
    readonly switchTo: (target: string) => void | Promise<void>;
  },
): Promise<void> {
  const source = resolve(from);
  const target = resolve(to);
  if (source !== target) await refuseTarget(source, target, options);
  await mkdir(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const temp = join(target, TEMP_DIR);
  if ((await lstat(temp).catch(() => null))?.isSymbolicLink()) throw linkRefusal(temp);
  await options.switchTo(target);
}

/** What reading the gallery's sidecars gave the history. */
export interface GalleryTasksAdded {
  /** Tasks the gallery's folders describe. */
  readonly found: number;
  /** Of those, the ones the history lacked, now added. */
  readonly added: number;
  /** Folders or files that could not be read, and why. */
  readonly skipped: RebuildResult['skipped'];
  /**
   * What sidecars said that their records do not keep (rebuild.ts), and, at the gallery's root
   * (`.`), how many tags and boards the library's limits left out.
   */
  readonly notes: RebuildResult['notes'];
}

/**
 * Adds the tasks the gallery's sidecars describe and the history lacks, a batch at a time (each
 * batch one transaction, so memory stays flat for a folder of any size). An aborted `signal`
 * stops it between batches: what was added stays. A task kept under an id that carries a key the
 * process holds comes in with the key redacted, its folder's files made again from the redacted
 * record first (archive/import-kept-id.ts, as an import takes it): the page, the log and
 * `pictor list` never show such an id until the app's sweep reaches it, which it then never
 * would (the history's id no longer carries the key).
 */
export async function importGalleryTasks(
  core: {
    readonly intake: RebuildIntake;
    readonly history: Pick<HistoryStore, 'getMany'> & ManyRecordWrites;
    /** The scrubber of every key the process holds (the core's: pictor-core.ts). */
    readonly keyScrubber?: () => Promise<KeptIdScrubber>;
  },
  signal?: AbortSignal,
): Promise<GalleryTasksAdded> {
  let added = 0;
  let dropped = NOTHING_DROPPED;
  const scrub = await core.keyScrubber?.();
  // The kept tasks' folders whose files could not be made again (rebuild-kept-copies.ts).
  const kept: Skipped[] = [];
  const { count, skipped, notes } = await rebuildLibrary(core.intake, {
    ...(signal ? { signal } : {}),
    onBatch: async (records) => {
      throwIfAborted(signal);
      // One read a chunk of ids at a time (getMany), not a statement per record.
      const known = core.history.getMany(records.map((record) => record.localId));
      const present = new Set(known.map((record) => record.localId));
      const unknown = records.filter((record) => !present.has(record.localId));
      const missing = scrub
        ? await withKeptIdsRedacted(unknown, scrub, core.intake.root, kept)
        : unknown;
      if (missing.length > 0) {
        dropped = addDropped(dropped, await core.history.putManyCounted(missing));
      }
      added += missing.length;
    },
  });
  // Copies of a task taken in redacted, skipped as the same task: made again too.
  if (scrub) kept.push(...(await redactKeptCopies(skipped, scrub, core.intake.root)));
  // Past the library's limits (history/triage-limits.ts): said once, of the whole gallery.
  const limits = limitSentences(dropped).map((said) => ({ path: '.', reason: englishText(said) }));
  return { found: count, added, skipped, notes: [...notes, ...kept, ...limits] };
}

/**
 * `records` (of the library's folder `root`), each whose id carries a key with it redacted and its
 * folder made again from the redacted record (see {@link importGalleryTasks}). The ids are
 * searched together (`carriers`): a folder of a million tasks costs some seconds more, not a
 * search per id.
 */
async function withKeptIdsRedacted(
  records: TaskRecord[],
  scrub: KeptIdScrubber,
  root: string,
  notes: Skipped[],
): Promise<TaskRecord[]> {
  const withIds = records.filter((record) => record.taskId !== null);
  const out = [...records];
  for (const at of scrub.carriers(withIds.map((record) => record.taskId ?? ''))) {
    const found = withIds[at];
    if (!found) continue;
    // A folder that cannot be written keeps its files as they are, and is named in the notes;
    // the id is redacted all the same.
    const redacted = await redactedInPlace(found, scrub, root);
    if (redacted?.note) notes.push(redacted.note);
    if (redacted) out[out.indexOf(found)] = redacted.record;
  }
  return out;
}
