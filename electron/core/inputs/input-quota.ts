/**
 * The bound on what the page may add to the input store (`inputs:pickFile`, `inputs:fromLibrary`,
 * `inputs:putMask`, `inputs:downscale`). Each distinct image is a new file of up to 64 MiB, and the
 * page may be compromised: unbounded, a loop of distinct masks fills the disk.
 *
 * What is bounded is the inputs no task record names (`request.inputs`, by digest: the history's
 * `inputDigests`): at most {@link INPUT_QUOTA}'s bytes and files of them. A record's inputs are what
 * runs its task again and what its stack shows, so they are never counted and never removed. When
 * a new input would pass the bound, unnamed inputs untouched for a day are removed, oldest first:
 * an input the page holds for an edit not yet sent is younger than that (the store touches an input
 * each time the page names it again: adds it, plans with it, asks for its address), and a submit stores its task, naming its inputs, before it
 * sends. When that frees too little, the new input is refused with a sentence: the user loses
 * nothing they made, a compromised page gets refusals, and the disk holds at most the bound beyond
 * what tasks use. Without the history's lineage columns nothing can be known unnamed: nothing is
 * removed and the bound is on the whole folder.
 *
 * Only the page's additions pass here; an archive's import and a rebuild write inputs that records
 * name. Additions run one at a time, so two cannot both fit in the last room.
 *
 * Counting reads the whole folder and asks the history for every digest a record names: paid on
 * each new input, a compromised page adding distinct masks in a loop made main pay it per call,
 * and more once the bound was reached (every refusal counted again). So a kept tally stands in for
 * the count: the unnamed inputs as last counted plus every input admitted since. It can only be
 * too high (a record naming an input, a file removed, a write that failed, all lower the truth),
 * so an input it admits fits. When it does not admit, the folder is counted again (records may
 * name inputs since, old ones may go); after a refusal, not again for {@link RECOUNT_MS}: a page
 * asking in a loop gets the refusal from the tally. A task deleted since the count makes its inputs
 * unnamed without the tally knowing: they were on the disk already, and the next count sees them.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { sentence } from '../../../shared/i18n/sentence';
import { systemErrorCode } from '../errors';
import { checkContained, removeFile } from '../fs';
import { INPUTS_DIR, InputStoreError, type InputStore, type InputStoreRoot } from './input-store';

/** How much the inputs no task names may hold. */
export interface InputQuotaLimits {
  readonly bytes: number;
  readonly files: number;
}

/** The bound the app runs with: a few dozen large photos and their masks, or many small ones. */
const INPUT_QUOTA: InputQuotaLimits = { bytes: 2 * 1024 ** 3, files: 2_000 };

/** How long an unnamed input is kept whatever the bound: an edit in hand may still send it. */
const KEPT_MS = 24 * 60 * 60 * 1000;

/** After a refusal, how long further ones come from the tally without counting the folder again. */
export const RECOUNT_MS = 5_000;

const STORED_NAME = /^([0-9a-f]{64})\.(?:png|jpg|webp)$/;

interface InputQuotaDeps {
  readonly store: Pick<InputStore, 'put'>;
  readonly library: InputStoreRoot;
  /** Every input digest a task record names; null when the history cannot say. */
  readonly named: () => ReadonlySet<string> | null;
  readonly now: () => number;
  readonly limits?: InputQuotaLimits;
}

/** What the unnamed inputs hold. */
interface Tally {
  readonly bytes: number;
  readonly files: number;
}

interface Kept {
  readonly name: string;
  readonly sha256: string;
  readonly size: number;
  readonly touchedMs: number;
}

/**
 * The store as the page's additions reach it (core/edit/edit-inputs.ts): `put` within the bound,
 * every read the store's own.
 */
export function boundedInputs(
  store: InputStore,
  deps: Omit<InputQuotaDeps, 'store'>,
): Pick<InputStore, 'put' | 'read' | 'describe' | 'relativePath' | 'touch'> {
  const quota = new InputQuota({ ...deps, store });
  return {
    put: (bytes) => quota.put(bytes),
    touch: (image) => store.touch(image),
    read: (wanted) => store.read(wanted),
    describe: (wanted) => store.describe(wanted),
    relativePath: (image) => store.relativePath(image),
  };
}

class InputQuota {
  private queue: Promise<unknown> = Promise.resolve();
  /** At most what the unnamed inputs of `root` hold (see the file's comment); null: not counted. */
  private tally: { readonly root: string; readonly held: Tally } | null = null;
  /** Until when a refusal is the tally's, without counting again. */
  private recountAfter = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: InputQuotaDeps) {}

  /**
   * The store's `put` within the bound.
   * @throws InputStoreError (`error.inputs.storeFull`) when the bound leaves no room; the store's.
   */
  put(bytes: Uint8Array): Promise<InputImage> {
    const next = this.queue.then(() => this.deps.store.put(bytes, (image) => this.makeRoom(image)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async makeRoom(image: InputImage): Promise<void> {
    const limits = this.deps.limits ?? INPUT_QUOTA;
    const fits = (held: Tally) =>
      held.bytes + image.bytes <= limits.bytes && held.files + 1 <= limits.files;
    const { root } = this.deps.library;
    // A moved library is another folder: its tally is counted anew.
    let held = this.tally?.root === root ? this.tally.held : null;
    if (held === null || !fits(held)) {
      if (held !== null && this.deps.now() < this.recountAfter) throw full(limits);
      held = await this.countMakingRoom(image, fits);
      this.tally = { root, held };
      if (!fits(held)) {
        this.recountAfter = this.deps.now() + RECOUNT_MS;
        throw full(limits);
      }
    }
    this.tally = { root, held: { bytes: held.bytes + image.bytes, files: held.files + 1 } };
  }

  /**
   * Counts the unnamed inputs (`image` aside) and, when `image` does not fit, removes unnamed ones
   * untouched for a day, oldest first, until it does; what they hold then.
   */
  private async countMakingRoom(image: InputImage, fits: (held: Tally) => boolean): Promise<Tally> {
    const kept = (await this.kept()).filter((entry) => entry.sha256 !== image.sha256);
    const named = this.deps.named();
    const unnamed = named ? kept.filter((entry) => !named.has(entry.sha256)) : kept;
    let bytes = unnamed.reduce((sum, entry) => sum + entry.size, 0);
    let files = unnamed.length;
    if (fits({ bytes, files })) return { bytes, files };
    const before = this.deps.now() - KEPT_MS;
    const removable = named
      ? unnamed
          .filter((entry) => entry.touchedMs <= before)
          .sort((a, b) => a.touchedMs - b.touchedMs)
      : [];
    const { root } = this.deps.library;
    for (const entry of removable) {
      if (fits({ bytes, files })) break;
      await removeFile(root, join(root, INPUTS_DIR, entry.name));
      bytes -= entry.size;
      files -= 1;
    }
    return { bytes, files };
  }

  /** The store's files, each with its size and when it was last written or named. */
  private async kept(): Promise<Kept[]> {
    const { root } = this.deps.library;
    const dir = join(root, INPUTS_DIR);
    let entries: Dirent[];
    try {
      await checkContained(root, dir);
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = systemErrorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
    const kept: Kept[] = [];
    for (const entry of entries) {
      const match = STORED_NAME.exec(entry.name);
      // A link or a folder is not the store's own; its target is never counted or removed.
      if (!match || !entry.isFile()) continue;
      const info = await lstat(join(dir, entry.name)).catch(() => null);
      if (!info?.isFile()) continue;
      const [, sha256 = ''] = match;
      kept.push({ name: entry.name, sha256, size: info.size, touchedMs: info.mtimeMs });
    }
    return kept;
  }
}

function full(limits: InputQuotaLimits): InputStoreError {
  return new InputStoreError(
    sentence('error.inputs.storeFull', { bytes: limits.bytes, files: limits.files }),
  );
}
