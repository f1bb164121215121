/**
 * Names the disk a gallery moves to cannot hold. A library made on Linux can hold two names that
 * differ only in case or in how an accent is spelled (`Image-1.png` and `image-1.png`), names
 * with `:` `?` `*` `"` `<` `>` `|` `\`, and names ending in a dot or a space; a USB stick
 * formatted exFAT or FAT, an NTFS disk, or a folder on APFS takes two such names for one file,
 * refuses the characters (EINVAL) or drops the ending. A name may also be longer than the new
 * disk allows (ENAMETOOLONG). Found mid-copy, each of these stopped the move with "a file could
 * not be copied (EINVAL)" and no word of which file or why.
 *
 * So before anything is copied the target's disk is asked what it does with names (a few
 * probe files in its `.pictor-tmp`: whether it folds case, which of those characters it refuses,
 * whether it keeps a trailing dot, whether it counts a name's length in bytes), and every name of the library is judged against that answer
 * (a pure function, so each disk's rules are tested on any machine). What the probe cannot
 * foresee (a name too long, a rule no probe asked about) is caught at the copy step instead, where
 * the file the disk refused is named with the reason its error code gives. Either way the move
 * stops before the switch: the old library is whole and in use.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ownTempName } from '../fs';
import { systemErrorCode } from '../errors';
import { foldedName } from '../../../shared/text/file-names';
import type { TaskFolderPlan } from './relocate-plan';

/** What a disk does with names, as far as a move needs to know. */
export interface DiskNames {
  /** Two names differing only in case or Unicode form are one file there. */
  readonly foldsNames: boolean;
  /** Of {@link WINDOWS_CHARACTERS}, those the disk refuses in a name. */
  readonly refusedCharacters: string;
  /** A name ending in a dot or a space is refused or stored without its ending. */
  readonly changesEndings: boolean;
  /**
   * A name is limited to {@link MAX_NAME_BYTES} bytes of UTF-8 (ext4, Btrfs, XFS), not to 255
   * characters (exFAT, NTFS, APFS): a name a Mac or Windows holds may be too long here.
   */
  readonly limitsBytes: boolean;
}

/** The longest name in bytes of UTF-8 a disk that counts bytes holds. */
const MAX_NAME_BYTES = 255;

/** The characters FAT, exFAT and Windows' NTFS refuse in a name (besides `/` and controls). */
export const WINDOWS_CHARACTERS = '<>:"|?*\\';

/** Why a disk cannot hold a name: `twin` names the library's other name it takes it for. */
export type NameProblem = 'twin' | 'characters' | 'ending' | 'tooLong' | 'code';

/** One name of the library the target cannot hold (root-relative paths, `/` separators). */
export interface RefusedName {
  readonly path: string;
  readonly problem: NameProblem;
  /** The library's other name the disk takes this one for (`twin`). */
  readonly other?: string;
  /** The refused characters in it (`characters`), or the system's error code (`code`). */
  readonly detail?: string;
}

/** A name the target's disk refused while the move copied: see {@link RefusedName}. */
export class NameRefusedError extends Error {
  override readonly name = 'NameRefusedError';

  constructor(readonly refused: RefusedName) {
    super(`The new disk cannot hold the name ${refused.path} (${refused.problem}).`);
  }
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Letters, digits, `_` and `-` between dots (a leading one too): a name every disk holds as it is
 * (Pictor's own: `2025/05`, `image-1.png`, `.thumbs`), judged without a look at each character.
 */
const PLAIN = /^\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/** Printable ASCII: folded by its lower case alone. */
const ASCII = /^[ -~]*$/;

/** What a disk that does what `disk` says has against the last name of `name` alone, or null. */
function segmentProblem(name: string, disk: DiskNames): Omit<RefusedName, 'path'> | null {
  const segment = lastSegment(name);
  if (segment.length <= MAX_NAME_BYTES && PLAIN.test(segment)) return null;
  if (disk.refusedCharacters !== '') {
    const characters = [...new Set(segment)].filter((c) => disk.refusedCharacters.includes(c));
    if (characters.length > 0) return { problem: 'characters', detail: characters.join(' ') };
  }
  if (disk.changesEndings && /[. ]$/.test(segment)) return { problem: 'ending' };
  if (disk.limitsBytes && Buffer.byteLength(segment) > MAX_NAME_BYTES)
    return { problem: 'tooLong' };
  return null;
}

const under = (prefix: string, name: string) => (prefix === '' ? name : `${prefix}/${name}`);

/**
 * Judges the names of one folder (or of the folders above the task folders) one at a time: each
 * alone, and against those before it that fold alike. Paths are made only for a refusal.
 */
class NameJudge {
  private seen: Map<string, string> | null = null;

  constructor(
    private readonly disk: DiskNames,
    private readonly prefix: string,
  ) {}

  judge(name: string): RefusedName | null {
    const alone = segmentProblem(name, this.disk);
    if (alone !== null) return { path: under(this.prefix, name), ...alone };
    if (!this.disk.foldsNames) return null;
    // An ASCII name folds as its lower case (foldedName, at a tenth of the cost).
    const folded = ASCII.test(name) ? name.toLowerCase() : foldedName(name);
    this.seen ??= new Map();
    const other = this.seen.get(folded);
    if (other === undefined) {
      this.seen.set(folded, name);
      return null;
    }
    return { path: under(this.prefix, name), problem: 'twin', other: under(this.prefix, other) };
  }
}

/** The names inside `task`'s folder, in path order where the order decides which twin is named. */
function namesInside(task: TaskFolderPlan, disk: DiskNames): readonly string[] {
  const names = [...task.folders, ...task.files.map((file) => file.path)];
  return disk.foldsNames ? names.sort() : names;
}

/**
 * Judges a library's names, a task folder at a time in path order (root-relative), against what a
 * disk does (`disk`): a name with a character it refuses, an ending it drops or more bytes than
 * it holds, or the second of two names it takes for one. Folders above the task folders are
 * judged once each; the names inside a task folder only against each other (a twin across two
 * task folders is a twin of the task folders themselves), so memory stays with the task count. A
 * task at a time, so a caller on the main thread can let other work run between tasks.
 */
export class NameCheck {
  private readonly folders: NameJudge;
  private readonly judged = new Set<string>();

  constructor(private readonly disk: DiskNames) {
    this.folders = new NameJudge(disk, '');
  }

  /** The first name of `task`'s (its folder, those above it, those inside) the disk cannot hold. */
  task(task: TaskFolderPlan): RefusedName | null {
    const { relative } = task;
    for (let end = 0; end !== relative.length;) {
      const slash = relative.indexOf('/', end + 1);
      end = slash === -1 ? relative.length : slash;
      const path = relative.slice(0, end);
      // Folders above the task folders are judged once; task folders are each one of a kind.
      const above = end !== relative.length;
      if (above && this.judged.has(path)) continue;
      if (above) this.judged.add(path);
      const refused = this.folders.judge(path);
      if (refused !== null) return refused;
    }
    const inside = new NameJudge(this.disk, relative);
    for (const name of namesInside(task, this.disk)) {
      const refused = inside.judge(name);
      if (refused !== null) return refused;
    }
    return null;
  }
}

/**
 * The problem a disk's error at a create (a file, a folder, a rename into place) says about the
 * name it was given, or null when it says nothing about the name (a full disk, no permission).
 * `EEXIST`/`ENOTEMPTY` is a name question only where nothing was at the name when the move
 * looked: the disk took it for another name there.
 */
function nameProblemOf(error: unknown): NameProblem | null {
  switch (systemErrorCode(error)) {
    case 'EINVAL':
    case 'EILSEQ':
      return 'characters';
    case 'ENAMETOOLONG':
      return 'tooLong';
    case 'EEXIST':
    case 'ENOTEMPTY':
      return 'twin';
    default:
      return null;
  }
}

/**
 * Runs `create` (which makes the name `path`, root-relative, in the target) and turns an error
 * that says the disk cannot hold that name into a {@link NameRefusedError} naming it; `sourceDir`
 * is the folder of the library holding the name, searched for the twin the disk took it for.
 */
export async function creatingName<T>(
  path: string,
  sourceDir: string,
  create: () => Promise<T>,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const problem = nameProblemOf(error);
    if (problem === null) throw error;
    throw new NameRefusedError(await refusalAt(path, sourceDir, problem, error));
  }
}

/** What the disk's `problem` at `path` says, as precisely as the library's own names tell. */
async function refusalAt(
  path: string,
  sourceDir: string,
  problem: NameProblem,
  error: unknown,
): Promise<RefusedName> {
  const segment = lastSegment(path);
  const code: RefusedName = { path, problem: 'code', detail: systemErrorCode(error) ?? '' };
  if (problem === 'twin') {
    const other = await twinIn(sourceDir, segment);
    const at = path.slice(0, path.length - segment.length);
    return other === null ? code : { path, problem, other: `${at}${other}` };
  }
  if (problem !== 'characters') return { path, problem };
  const characters = [...new Set(segment)].filter((c) => WINDOWS_CHARACTERS.includes(c));
  if (characters.length > 0) return { path, problem, detail: characters.join(' ') };
  return /[. ]$/.test(segment) ? { path, problem: 'ending' } : code;
}

/** Another name in `dir` that folds to the same as `name`, or null. */
async function twinIn(dir: string, name: string): Promise<string | null> {
  const key = foldedName(name);
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.find((other) => other !== name && foldedName(other) === key) ?? null;
}

/** Creates the probe file `name` in `dir`; false when the disk refuses the name. */
async function made(dir: string, name: string, made: string[]): Promise<boolean> {
  try {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
    await (await open(join(dir, name), flags, 0o600)).close();
    made.push(name);
    return true;
  } catch (error) {
    const problem = nameProblemOf(error);
    if (problem === 'characters' || problem === 'tooLong') return false;
    throw error;
  }
}

/**
 * What the disk holding `temp` (the target's own `.pictor-tmp`, a real folder) does with names,
 * from a few empty probe files made there under this process's temporary names and removed.
 * @throws a file-system error when the folder cannot take a file at all (the move's own error).
 */
export async function probeDiskNames(temp: string): Promise<DiskNames> {
  const base = ownTempName('.names-');
  const created: string[] = [];
  try {
    await made(temp, `${base}A`, created);
    const foldsNames = (await lstat(join(temp, `${base}a`)).catch(() => null)) !== null;
    let refusedCharacters = '';
    for (const [i, c] of [...WINDOWS_CHARACTERS].entries()) {
      if (!(await made(temp, `${base}${i}${c}`, created))) refusedCharacters += c;
    }
    const dotted = `${base}e.`;
    const changesEndings =
      !(await made(temp, dotted, created)) || !(await readdir(temp)).includes(dotted);
    // 255 characters, more than 255 bytes: too long only where a name's bytes are counted.
    const wide = `${base}L${'\u00e9'.repeat(MAX_NAME_BYTES - base.length - 1)}`;
    const limitsBytes = !(await made(temp, wide, created));
    return { foldsNames, refusedCharacters, changesEndings, limitsBytes };
  } finally {
    for (const name of created) await unlink(join(temp, name)).catch(() => undefined);
  }
}
