/**
 * A gallery move and the input store (`inputs/` at the root, core/inputs/input-store.ts): the
 * images edits were made from, which tasks' records name by digest (`request.inputs`). It holds
 * no task folder, so the task folders' plan (relocate-plan.ts) never sees it; without this a move
 * left every input in the old folder, and the moved library's edits named images it did not have.
 *
 * Carried: each regular file named as the store names one (`<sha256>.<png|jpg|webp>`) whose bytes
 * still hash to its name, read as every gallery file is (inside the root, never through a link,
 * never a FIFO: regular-file.ts) and written as the store writes (atomic-file.ts), before the
 * switch, and once more after it for an input kept in the old folder meanwhile; one the target
 * already holds intact is kept. Removed from the old folder after the switch, exactly what was
 * carried. Anything else there (a link, a FIFO, another name, a file
 * that no longer matches its name) stays, named as left behind; an `inputs` that is itself a link
 * is not followed.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_INPUT_BYTES } from '../../../shared/domain/image-inputs';
import {
  ensureFolder,
  readRegularFile,
  removeEmptyFolder,
  removeFile,
  TEMP_DIR,
  writeFileAtomic,
} from '../fs';
import { INPUTS_DIR } from '../inputs';

/** A name the input store gives (input-store.ts `relativePath`). */
const INPUT_NAME = /^([0-9a-f]{64})\.(png|jpg|webp)$/;

/** The input store's files a move carries, and what of its folder it leaves. */
interface InputsPlan {
  /** File names inside `inputs/`. */
  readonly names: readonly string[];
  /** Root-relative paths (`/` separators) left in the old folder. */
  readonly notCarried: readonly string[];
}

/** Lists `root`'s `inputs/` without following a link. */
async function planInputs(root: string): Promise<InputsPlan> {
  const folder = join(root, INPUTS_DIR);
  const info = await lstat(folder).catch(() => null);
  if (info === null) return { names: [], notCarried: [] };
  if (!info.isDirectory()) return { names: [], notCarried: [INPUTS_DIR] };
  const names: string[] = [];
  const notCarried: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isFile() && INPUT_NAME.test(entry.name)) names.push(entry.name);
    else notCarried.push(`${INPUTS_DIR}/${entry.name}`);
  }
  return { names: names.sort(), notCarried };
}

/** The bytes at `name` in `root`'s store when they hash to the name; null otherwise. */
async function intact(root: string, name: string): Promise<Buffer | null> {
  const digest = INPUT_NAME.exec(name)?.[1];
  try {
    const bytes = await readRegularFile(root, join(root, INPUTS_DIR, name), MAX_INPUT_BYTES);
    return createHash('sha256').update(bytes).digest('hex') === digest ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * The input store's part of one move: carried after the task folders (before the switch), undone
 * with them when the move is cancelled, and removed from the old folder after the switch.
 */
export class InputsMove {
  /** Names this move wrote into the target (a cancel removes them). */
  private readonly written: string[] = [];
  private readonly carried = new Set<string>();
  /** Root-relative paths of what the store holds that is not carried. */
  private notCarried: string[] = [];

  constructor(
    private readonly source: string,
    private readonly target: string,
  ) {}

  /**
   * Copies the store as it is now (see the file's comment), after the task folders: an input
   * kept while they were copied (an edit begun meanwhile) is in it.
   * @throws UnsafePathError for a link where it would write; file-system errors (a full disk).
   */
  async carry(signal?: AbortSignal): Promise<void> {
    const plan = await planInputs(this.source);
    this.notCarried = [...plan.notCarried];
    if (plan.names.length === 0) return;
    await ensureFolder(this.target, join(this.target, INPUTS_DIR));
    await ensureFolder(this.target, join(this.target, TEMP_DIR));
    for (const name of plan.names) {
      signal?.throwIfAborted();
      await this.copy(name);
    }
  }

  /** A cancelled move: what it wrote into the target goes again. */
  async undo(): Promise<void> {
    await removeAll(this.target, this.written, []);
  }

  /**
   * After the switch: an input kept in the old folder after the copy and before the switch is
   * carried now (later ones go to the new folder), then what was carried goes from the old folder;
   * what stays is named in `left`.
   */
  async removeOld(left: string[]): Promise<void> {
    const late = await planInputs(this.source);
    for (const name of late.names) {
      if (this.carried.has(name)) continue;
      await ensureFolder(this.target, join(this.target, INPUTS_DIR))
        .then(() => this.copy(name))
        .catch(() => this.notCarried.push(`${INPUTS_DIR}/${name}`));
    }
    const stays = new Set([...late.notCarried, ...this.notCarried]);
    left.push(...[...stays].map((path) => join(this.source, ...path.split('/'))));
    await removeAll(this.source, [...this.carried], left);
  }

  /** Copies one input whose bytes match its name, unless the target holds it intact already. */
  private async copy(name: string): Promise<void> {
    const bytes = await intact(this.source, name);
    if (bytes === null) {
      this.notCarried.push(`${INPUTS_DIR}/${name}`);
      return;
    }
    if ((await intact(this.target, name)) === null) {
      await writeFileAtomic(this.target, join(this.target, INPUTS_DIR, name), bytes, 0o644);
      this.written.push(name);
    }
    this.carried.add(name);
  }
}

/** Removes `names` from `root`'s store, then the folder if that left it empty. */
async function removeAll(root: string, names: readonly string[], left: string[]): Promise<void> {
  for (const name of names) {
    const path = join(root, INPUTS_DIR, name);
    await removeFile(root, path).catch(() => left.push(path));
  }
  await removeEmptyFolder(root, join(root, INPUTS_DIR)).catch(() => false);
}
