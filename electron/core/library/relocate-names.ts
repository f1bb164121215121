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

/** Every root-relative name a move creates for `tasks` in the target: folders, then files. */
function plannedNames(tasks: readonly TaskFolderPlan[]): string[] {
  const names = new Set<string>();
  for (const task of tasks) {
    const parts = task.relative.split('/');
    for (let i = 1; i <= parts.length; i += 1) names.add(parts.slice(0, i).join('/'));
    for (const folder of task.folders) names.add(`${task.relative}/${folder}`);
    for (const file of task.files) names.add(`${task.relative}/${file.path}`);
  }
  return [...names];
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The names of `tasks` a disk that does what `disk` says cannot hold, in path order: each name
 * with a character it refuses, an ending it drops or more bytes than it holds, and the second of two names it takes for one.
 */
export function refusedNames(tasks: readonly TaskFolderPlan[], disk: DiskNames): RefusedName[] {
  const refused: RefusedName[] = [];
  const seen = new Map<string, string>();
  for (const path of plannedNames(tasks).sort()) {
    const segment = lastSegment(path);
    const characters = [...new Set(segment)].filter((c) => disk.refusedCharacters.includes(c));
    if (characters.length > 0) {
      refused.push({ path, problem: 'characters', detail: characters.join(' ') });
    } else if (disk.changesEndings && /[. ]$/.test(segment)) {
      refused.push({ path, problem: 'ending' });
    } else if (disk.limitsBytes && Buffer.byteLength(segment) > MAX_NAME_BYTES) {
      refused.push({ path, problem: 'tooLong' });
    }
    if (!disk.foldsNames) continue;
    const key = foldedName(path);
    const other = seen.get(key);
    if (other === undefined) seen.set(key, path);
    else refused.push({ path, problem: 'twin', other });
  }
  return refused;
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
