/**
 * The app's own cleaning of tasks the library kept under an id that carries a key (stored before
 * ids were checked; the engine refuses such an id as it arrives now). `pictor track <id>` cleans
 * the one task it is asked for; the app never is asked: such a task's id went on to the page in
 * every list of tasks and gallery page, and into its `pictor.json` at every rating. So once the
 * keys' text is known (app-runtime.ts `redactKeyIn`, where the log's redactor gets it: at start,
 * and again at each change of a key, since a new key may be in an old id), the history worker
 * walks the task ids for the keys (history/kept-key-ids.ts: in slices, off main's loop; the
 * window and the engine go on meanwhile; the cost ledger's rows of removed tasks it cleans
 * itself) and each task found is cleaned by the one function the CLI's track uses
 * (batch/kept-key-id.ts `redactKeptKeyId`: the history, the ledger, the log line, the page's
 * copy, pictor.json, the XMP sidecars and the images' own metadata). Until the walk reaches a
 * task, what the page is sent of it has the key scrubbed at the wiring (kept-id-page.ts).
 *
 * Only what can hold something is walked. A sweep that walked to its end and cleaned all it found
 * keeps, in {@link SWEPT_FILE}, the marks of the keys it swept (ServiceKeys.readableKeysMarked:
 * each key's service and the time it was stored, nothing made from the key) and where the
 * history's change log stood as it began (history/kept-key-ids.ts `KeptIdMark`). The next sweep
 * with no key but those walks only the tasks the log names after that point: an id enters the
 * library only with a write of a task row, which the log names (by any process or version). A new
 * key, a key without a mark, a log that no longer names the point (pruned, another library), a
 * missing or unreadable file: every id is walked again.
 *
 * What other processes write while the app runs (an older Pictor, a command), and the imports and
 * rebuilds the history worker writes (the history's change feed tells of both), is swept as it
 * arrives, with the keys of the last sweep: the tasks written since it, some milliseconds.
 *
 * Sweeps run one at a time; keys that change while one runs are swept once it ends (the newest
 * keys only). A sweep that fails is logged by the tasks' local ids, never their ids.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { redactKeptKeyId } from '../core/batch';
import { readRegularFile, writePrivateFile } from '../core/fs';
import type { PictorCore } from '../core/pictor-core';
import { scrubKey } from '../core/secrets';
import type { Disposable } from '../ports/disposable';
import type { Logger } from '../ports/logger';
import { codeOrMessage } from '../core/errors';

/** Where the last whole sweep stood, in the data folder. */
export const SWEPT_FILE = 'kept-ids-swept.json';
const SWEPT_MAX_BYTES = 16_384;

const sweptSchema = z.object({
  version: z.literal(1),
  /** The marks of the keys swept (`<service>@<stored at>`). */
  keys: z.array(z.string().max(200)).max(64),
  mark: z.object({ seq: z.number().int().nonnegative(), localId: z.string().max(200) }),
});
type Swept = z.infer<typeof sweptSchema>;

/** The keys of a sweep, as ServiceKeys.readableKeysMarked reads them. */
export interface SweptKeys {
  readonly keys: readonly string[];
  /** A mark per key that has one (a key without is always swept whole). */
  readonly marks: readonly string[];
}

export class KeptKeySweep {
  #running: Promise<void> = Promise.resolve();
  /** The keys of the sweep asked for while one runs (only the newest are swept). */
  #next: SweptKeys | null = null;
  #closed = false;
  /** The keys of the last sweep asked for: what others write is swept with them. */
  #last: SweptKeys | null = null;
  /** Where the last whole sweep stood, as this process kept it (its file may not be written). */
  #swept: Swept | null = null;
  readonly #elsewhere: Disposable;

  constructor(
    private readonly core: Pick<PictorCore, 'engine' | 'gallery' | 'libraryReads' | 'history'>,
    private readonly logger: Logger,
    /** The data folder, where {@link SWEPT_FILE} is kept. */
    private readonly dataDir: string,
  ) {
    this.#elsewhere = core.history.onDidChangeElsewhere(() => {
      if (this.#last !== null) this.sweep(this.#last);
    });
  }

  /** Sweeps the library for ids that carry any of `keys` once the sweep under way has ended. */
  sweep(keys: SweptKeys): void {
    if (this.#closed) return;
    this.#last = keys.keys.length > 0 ? keys : null;
    if (this.#last === null) return;
    const idle = this.#next === null;
    this.#next = keys;
    if (!idle) return;
    this.#running = this.#running.then(async () => {
      const next = this.#next;
      this.#next = null;
      if (next !== null && !this.#closed) await this.#run(next);
    });
  }

  /** Resolves once the sweeps asked for so far have ended (tests; the runtime's close). */
  async swept(): Promise<void> {
    let running: Promise<void>;
    do {
      running = this.#running;
      await running;
    } while (running !== this.#running);
  }

  /**
   * No slice of the walk is read and no task cleaned after the one under way; resolves once that
   * one is done (a quit waits one slice or one task at most, never the whole walk).
   */
  close(): Promise<void> {
    this.#closed = true;
    this.#elsewhere.dispose();
    this.#next = null;
    this.#last = null;
    return this.#running;
  }

  async #run({ keys, marks }: SweptKeys): Promise<void> {
    const swept = this.#swept ?? (await this.#readSwept());
    const sweptAll = keys.length === marks.length && marks.every((m) => swept?.keys.includes(m));
    let found;
    try {
      found = await this.core.libraryReads.keptKeyIds(keys, {
        since: sweptAll ? (swept?.mark ?? null) : null,
        stopped: () => this.#closed,
      });
    } catch (error) {
      if (!this.#closed)
        this.logger.warn('kept task ids not swept', { detail: codeOrMessage(error) });
      return;
    }
    const cleaned = await this.#clean(keys, found.localIds);
    if (!cleaned || this.#closed || found.mark === null) return;
    if (found.whole) this.logger.info('kept task ids: every id walked', { keys: keys.length });
    this.#swept = { version: 1, keys: [...marks], mark: found.mark };
    await this.#writeSwept(this.#swept);
  }

  /** Cleans each task of `localIds`; false when one could not be, or a quit came first. */
  async #clean(keys: readonly string[], localIds: readonly string[]): Promise<boolean> {
    const scrub = (text: string): string => scrubKey(text, keys);
    const deps = { records: this.core.engine, gallery: this.core.gallery, logger: this.logger };
    let all = true;
    for (const localId of localIds) {
      if (this.#closed) return false;
      try {
        if ((await redactKeptKeyId(deps, localId, scrub)) !== null)
          this.logger.info('a task kept under an id that carried a key: its id redacted', {
            localId,
          });
      } catch (error) {
        all = false;
        this.logger.warn('a kept task id not redacted', { localId, detail: codeOrMessage(error) });
      }
    }
    return all;
  }

  async #readSwept(): Promise<Swept | null> {
    try {
      const path = join(this.dataDir, SWEPT_FILE);
      const bytes = await readRegularFile(this.dataDir, path, SWEPT_MAX_BYTES);
      const parsed = sweptSchema.safeParse(JSON.parse(bytes.toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      // None yet, or unreadable: every id is walked.
      return null;
    }
  }

  async #writeSwept(swept: Swept): Promise<void> {
    try {
      await writePrivateFile(this.dataDir, join(this.dataDir, SWEPT_FILE), JSON.stringify(swept));
    } catch (error) {
      // The next sweep walks every id again: it costs time, never a task left uncleaned.
      this.logger.warn('where the kept-id sweep stood was not kept', {
        detail: codeOrMessage(error),
      });
    }
  }
}
