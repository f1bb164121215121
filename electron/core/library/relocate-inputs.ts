/**
 * A gallery move and the input store (`inputs/` at the root, core/inputs/input-store.ts): the
 * images edits were made from, which tasks' records name by digest (`request.inputs`). It holds
 * no task folder, so the task folders' plan (relocate-plan.ts) never sees it; without this a move
 * left every input in the old folder, and the moved library's edits named images it did not have.
 *
 * Carried: each regular file named as the store names one (`<sha256>.<png|jpg|webp>`) whose bytes
 * still hash to its name, read as every gallery file is (inside the root, never through a link,
 * never a FIFO: regular-file.ts) and written as the store writes (atomic-file.ts), before the
 * switch; one the target already holds intact is kept. Removed from the old folder after the
 * switch, exactly what was carried. Anything else there (a link, a FIFO, another name, a file
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

const NONE: InputsPlan = { names: [], notCarried: [] };

/** Lists `root`'s `inputs/` without following a link. */
async function planInputs(root: string): Promise<InputsPlan> {
  const folder = join(root, INPUTS_DIR);
  const info = await lstat(folder).catch(() => null);
  if (info === null) return NONE;
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
 * The input store's part of one move: planned with the task folders, carried after them (before
 * the switch), undone with them when the move is cancelled, and removed from the old folder after
 * the switch.
 */
export class InputsMove {
  private plan: InputsPlan = NONE;
  /** Names this move wrote into the target (a cancel removes them). */
  private readonly written: string[] = [];
  private readonly carried: string[] = [];
  private readonly notCarried: string[] = [];

  constructor(
    private readonly source: string,
    private readonly target: string,
  ) {}

  async planned(): Promise<void> {
    this.plan = await planInputs(this.source);
    this.notCarried.push(...this.plan.notCarried);
  }

  /**
   * Copies the planned inputs (see the file's comment).
   * @throws UnsafePathError for a link where it would write; file-system errors (a full disk).
   */
  async carry(signal?: AbortSignal): Promise<void> {
    const { source, target } = this;
    if (this.plan.names.length === 0) return;
    await ensureFolder(target, join(target, INPUTS_DIR));
    await ensureFolder(target, join(target, TEMP_DIR));
    for (const name of this.plan.names) {
      signal?.throwIfAborted();
      const bytes = await intact(source, name);
      if (bytes === null) {
        this.notCarried.push(`${INPUTS_DIR}/${name}`);
        continue;
      }
      if ((await intact(target, name)) === null) {
        await writeFileAtomic(target, join(target, INPUTS_DIR, name), bytes, 0o644);
        this.written.push(name);
      }
      this.carried.push(name);
    }
  }

  /** A cancelled move: what it wrote into the target goes again. */
  async undo(): Promise<void> {
    await removeAll(this.target, this.written, []);
  }

  /** After the switch: what was carried goes from the old folder; what stays, into `left`. */
  async removeOld(left: string[]): Promise<void> {
    left.push(...this.notCarried.map((path) => join(this.source, ...path.split('/'))));
    await removeAll(this.source, this.carried, left);
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
