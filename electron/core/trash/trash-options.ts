/** What the trash operations (trash-operations.ts) are given: the journal, the core, the ports. */
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { ClosingGate } from '../base';
import type { SystemTrash } from '../../ports/system-trash';
import type { TaskEngine } from '../engine';
import type { Library } from '../library';
import type { TrashJournal } from './trash-journal';

/**
 * What the trash uses of the engine: records, taking tasks out and back, and an image's files
 * moved aside and back (each written by the history worker); and, when given, the wait for the
 * tasks' sidecar writes under way, so none lands after their files moved (absent: none to wait for).
 */
export type TrashEngine = Pick<TaskEngine, 'get' | 'editImageFiles' | 'remove' | 'reinstate'> &
  Partial<Pick<TaskEngine, 'whenWritten'>>;

export interface TrashOperationsOptions {
  readonly journal: TrashJournal;
  /**
   * The core's engine, gallery and closing gate: the trash is the gallery's trash folder
   * (TRASH_DIR) in the gallery's root as it is at each operation, so it follows the gallery when
   * that changes folder (see TrashOperations.reroot).
   */
  readonly core: {
    readonly engine: TrashEngine;
    readonly gallery: { readonly root: string; resolve(relative: string): string };
    /**
     * The core's library: when given, every change of its folder, whoever asks for it, runs
     * through TrashOperations.reroot (until the trash is disposed).
     */
    readonly library?: Pick<Library, 'aroundChanges'>;
    /**
     * Where deletes, removals and Undos are asked: the core's closing gate (refused once the
     * core closes); default a gate of the trash's own, which TrashOperations.close closes.
     */
    readonly gate?: ClosingGate;
  };
  /** Moves a file to the system's trash (the host's); throws when it cannot. */
  readonly sendToSystemTrash: SystemTrash;
  /** Default: the process's own timers, which never keep it alive. */
  readonly clock?: Clock;
  readonly keepMs?: number;
  readonly logger?: Logger;
}

/** What a delete or a removal may be given by its caller. */
export interface TrashRunOptions {
  /** Stops it (the CLI's Ctrl+C), as an Undo of its items does: what it moved comes back. */
  readonly signal?: AbortSignal;
}
