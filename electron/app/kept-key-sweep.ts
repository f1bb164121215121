/**
 * The app's own cleaning of tasks the library kept under an id that carries a key (stored before
 * ids were checked; the engine refuses such an id as it arrives now). `pictor track <id>` cleans
 * the one task it is asked for; the app never is asked: such a task's id went on to the page in
 * every list of tasks and gallery page, and into its `pictor.json` at every rating. So once the
 * keys' text is known (app-runtime.ts `redactKeyIn`, where the log's redactor gets it: at start,
 * and again at each change of a key, since a new key may be in an old id), the history worker
 * walks every task id for the keys (history/kept-key-ids.ts: in slices, off main's loop; the
 * window and the engine go on meanwhile) and each task found is cleaned by the one function the
 * CLI's track uses (batch/kept-key-id.ts `redactKeptKeyId`: the history, the ledger, the log
 * line, the page's copy, pictor.json, the XMP sidecars and the images' own metadata).
 *
 * Sweeps run one at a time; keys that change while one runs are swept once it ends (the newest
 * keys only). A sweep that fails is logged by the tasks' local ids, never their ids.
 */
import { redactKeptKeyId } from '../core/batch';
import type { PictorCore } from '../core/pictor-core';
import { scrubKey } from '../core/secrets';
import type { Logger } from '../ports/logger';
import { codeOrMessage } from '../core/errors';

export class KeptKeySweep {
  #running: Promise<void> = Promise.resolve();
  /** The keys of the sweep asked for while one runs (only the newest are swept). */
  #next: readonly string[] | null = null;
  #closed = false;

  constructor(
    private readonly core: Pick<PictorCore, 'engine' | 'gallery' | 'libraryReads'>,
    private readonly logger: Logger,
  ) {}

  /** Sweeps the library for ids that carry any of `keys` once the sweep under way has ended. */
  sweep(keys: readonly string[]): void {
    if (this.#closed || keys.length === 0) return;
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
    this.#next = null;
    return this.#running;
  }

  async #run(keys: readonly string[]): Promise<void> {
    const scrub = (text: string): string => scrubKey(text, keys);
    const deps = { records: this.core.engine, gallery: this.core.gallery, logger: this.logger };
    let found: string[];
    try {
      found = await this.core.libraryReads.keptKeyIds(keys, () => this.#closed);
    } catch (error) {
      if (!this.#closed)
        this.logger.warn('kept task ids not swept', { detail: codeOrMessage(error) });
      return;
    }
    for (const localId of found) {
      if (this.#closed) return;
      try {
        if ((await redactKeptKeyId(deps, localId, scrub)) !== null)
          this.logger.info('a task kept under an id that carried a key: its id redacted', {
            localId,
          });
      } catch (error) {
        this.logger.warn('a kept task id not redacted', { localId, detail: codeOrMessage(error) });
      }
    }
  }
}
