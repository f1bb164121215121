/**
 * A rebuild's numbers and the sentences it skips a copy of a task with (rebuild.ts), said once
 * here: the kept-id redaction reads copies by the same limits and finds them again by those
 * sentences (rebuild-kept-copies.ts).
 *
 * And the task folders a rebuild takes: those whose path a library can hold, by the rule a folder
 * import names its files by (archive/entry-path.ts `pathRefusal`, judged in NFC: macOS spells a
 * folder the user named `Café` in NFD). A name with a control, invisible or look-alike
 * character, or one Windows reads otherwise, could be neither shown (the window's protocol
 * refuses it) nor exported. Only a crafted folder holds one, so its task is left out, the rule
 * its reason, and nothing in the folder is changed: renamed, it comes back with the next
 * rebuild, every image with it. Of two folders whose names are one in NFC (a disk that keeps
 * both), the NFC one is taken, as a folder import takes its files (entry-path.ts `spelledTwins`).
 */
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { Refusal } from './archive/archive-errors';
import { errorCode, UnsafeFileError } from '../fs';
import type { SidecarRefusal } from '../gallery';
import { SIDECAR_NAME } from '../gallery';
import { DEFAULT_ARCHIVE_LIMITS } from './archive/archive-limits';
import { pathRefusal, pathRuleSentence, type PathRule, spelledTwins } from './archive/entry-path';

/** The download's default cap: a bigger file was not saved by Pictor. */
export const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;
/** Image files read at once: whole for their metadata (recover.ts), a few ranges for a header. */
export const IMAGE_READS = 2;
/** Why a copy of a task's sidecar (a copied folder) is skipped: its path is the sidecar's. */
export const SAME_TASK_SIDECAR = sentence('error.library.sameTaskSidecar');
/** Why a copy of a task's folder without its sidecar is skipped: its path is the folder's. */
export const SAME_TASK_FOLDER = sentence('error.library.sameTaskFolder');

/** Whether `skip` was left out for the reason `said` (a copy of a task, above). */
export function skippedFor(skip: Refusal, said: Sentence): boolean {
  return skip.reasonSentence?.key === said.key;
}

/** Why a folder or sidecar was not read, as a skip says it: a catalogue sentence. */
export function fsReason(
  what: 'folder' | 'sidecar',
  error: unknown,
): { reason: string; reasonSentence: Sentence } {
  const said =
    error instanceof UnsafeFileError
      ? error.sentenceFor(what)
      : sentence('error.library.unreadable', { what, code: errorCode(error) ?? 'none' });
  return { reason: englishText(said), reasonSentence: said };
}

/** `refused` as what a rebuild or an import left out: the sidecar at `path`. */
export function skipOf(path: string, refused: SidecarRefusal): Refusal {
  return { path, reason: refused.reason, reasonSentence: refused.reasonSentence };
}

/**
 * What a rebuild says of a task folder whose path the library cannot hold, after the rule it
 * breaks: the CLI prints both sentences, the window lists the rule by each folder and says this
 * once under the list (renderer/features/settings/gallery-folder-flow.tsx).
 */
const TASK_FOLDER_LEFT_OUT = sentence('error.library.taskFolderLeftOut');

/** A task folder (as `shown`) left out for the path rule it breaks. */
function refusedName(shown: string, rule: PathRule): Refusal {
  const said = pathRuleSentence(rule);
  return {
    path: JSON.stringify(shown),
    reason: `${englishText(said)} ${englishText(TASK_FOLDER_LEFT_OUT)}`,
    reasonSentence: said,
  };
}

/**
 * `found` without the task folders whose path the library cannot hold (see the file's comment),
 * each skipped with its reason and its path escaped as a folder import shows it (a new line
 * shows as `\n`). A sidecar's skip names the sidecar, a bare folder's the folder. Both lists are
 * sorted first, so which of two spellings is taken does not hang on the order a disk lists.
 * Returns the sidecars held; the bare folders held are appended to `bare`.
 */
export function heldFolders(
  found: { sidecars: string[]; bare: string[] },
  /** rebuild.ts `Skipped`. */
  skipped: Refusal[],
  bare: string[],
): string[] {
  found.sidecars.sort();
  found.bare.sort();
  const folders = found.sidecars.map((path) => path.slice(0, -SIDECAR_NAME.length - 1));
  folders.push(...found.bare);
  const twins = spelledTwins(folders);
  const held = (folder: string, index: number, shown: string): boolean => {
    const rule = twins.has(index)
      ? 'nfc'
      : pathRefusal(`${folder.normalize('NFC')}/${SIDECAR_NAME}`, DEFAULT_ARCHIVE_LIMITS);
    if (rule) skipped.push(refusedName(shown, rule));
    return rule === null;
  };
  const sidecars = found.sidecars.filter((path, index) => held(folders[index] ?? '', index, path));
  const offset = found.sidecars.length;
  bare.push(...found.bare.filter((folder, index) => held(folder, offset + index, folder)));
  return sidecars;
}

/**
 * Whether the sidecar at `relative` (root-relative, as the disk spells it) sits in the folder its
 * record names: compared in NFC, as macOS lists a folder named `Café` in NFD whichever form the
 * record wrote. A record that names no folder has none to be at.
 */
export function isAtHome(relative: string, folder: string | null): boolean {
  if (folder === null) return false;
  return relative.normalize('NFC') === `${folder}/${SIDECAR_NAME}`.normalize('NFC');
}
