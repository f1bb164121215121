/**
 * Writes a task's sidecar without letting an older snapshot land after a newer one: one write
 * per task at a time, and a change during a write triggers exactly one more with the latest record.
 * A change of triage alone asks for its triage's files only (`writeTriage`: the XMP sidecars);
 * any other change asked for meanwhile makes the next write a whole one. At most
 * {@link MAX_RUNNING} tasks are written at once; the others wait their turn in the order asked (a
 * triage of thousands of tasks would otherwise start thousands of reads and file writes in one
 * turn of main's loop).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import { codeOrMessage } from '../errors';
import { within } from './bounded-wait';
import type { SidecarRecord } from './sidecar-records';

/** Tasks whose sidecars are written at once. */
const MAX_RUNNING = 16;

/** The longest a wait for tasks' sidecar writes lasts ({@link SidecarWriter.written}). */
export const SIDECAR_WAIT_MS = 30_000;

/** A queued task's turn: settled once its write has run. */
interface Turn {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function turn(): Turn {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

export class SidecarWriter {
  private readonly running = new Map<string, Promise<void>>();
  /** Asked for while {@link MAX_RUNNING} were running: started in this order, each once. */
  private readonly queued = new Map<string, Turn>();
  private readonly dirty = new Set<string>();
  /** Tasks a whole write was asked for since their last one began. */
  private readonly whole = new Set<string>();
  /** Asked for while held: written on {@link release}. Null when not held. */
  private held: Set<string> | null = null;

  constructor(
    private readonly write: (record: TaskRecord) => Promise<void>,
    /** The task's latest record, now or once read (sidecar-records.ts: off main's thread). */
    private readonly latest: SidecarRecord,
    private readonly logger: Logger,
    private readonly writeTriage: (record: TaskRecord) => Promise<void> = write,
  ) {}

  /**
   * Schedules a write of the latest version of the task's record; `scope` `triage`: only its
   * triage changed, and only what holds triage is written.
   */
  request(localId: string, scope: 'record' | 'triage' = 'record'): void {
    if (scope === 'record') this.whole.add(localId);
    if (this.held) {
      this.held.add(localId);
      return;
    }
    if (this.running.has(localId)) {
      this.dirty.add(localId);
      return;
    }
    // A queued task reads its latest record when its turn comes.
    if (this.queued.has(localId)) return;
    if (this.running.size >= MAX_RUNNING) this.queued.set(localId, turn());
    else this.running.set(localId, this.loop(localId));
  }

  /** Writes asked for from now on wait (the gallery is changing folder); those under way go on. */
  hold(): void {
    this.held ??= new Set();
  }

  /** Writes what was asked for while held, with each task's latest record. */
  release(): void {
    const held = this.held;
    this.held = null;
    for (const localId of held ?? []) this.request(localId);
  }

  /** Resolves when the task's writes under way (or asked for) have finished. */
  settled(localId: string): Promise<void> {
    return this.running.get(localId) ?? this.queued.get(localId)?.promise ?? Promise.resolve();
  }

  /**
   * Resolves once none of the tasks has a write under way or waiting its turn, those asked for
   * meanwhile included (a failed write is logged and counts as done), or after
   * {@link SIDECAR_WAIT_MS} on `clock`: a write that hangs (a stalled disk, a history worker that
   * never answers) is logged and no longer waited for, so a CLI waiting on a task never waits
   * forever. Writes asked for while held wait for {@link release} and are not waited for.
   * @returns true when it waited for writes that ended (the records may have changed meanwhile).
   */
  written(localIds: readonly string[], clock: Clock): Promise<boolean> {
    if (this.writesOf(localIds).length === 0) return Promise.resolve(false);
    return within(clock, SIDECAR_WAIT_MS, this.allWritten(localIds), () => {
      this.logger.warn('sidecar writes still under way', { tasks: localIds.length });
      return false;
    });
  }

  private async allWritten(localIds: readonly string[]): Promise<boolean> {
    for (let writes = this.writesOf(localIds); writes.length > 0; writes = this.writesOf(localIds))
      await Promise.all(writes);
    return true;
  }

  /** The tasks' writes under way or waiting their turn. */
  private writesOf(localIds: readonly string[]): Promise<void>[] {
    return localIds.flatMap((localId) => {
      const write = this.running.get(localId) ?? this.queued.get(localId)?.promise;
      return write ? [write] : [];
    });
  }

  /** Resolves when every requested write has finished. */
  async flush(): Promise<void> {
    while (this.running.size > 0 || this.queued.size > 0) {
      const waiting = [...this.queued.values()].map((turn) => turn.promise);
      await Promise.all([...this.running.values(), ...waiting]);
    }
  }

  /** Starts the queued tasks' writes while fewer than {@link MAX_RUNNING} run. */
  private startQueued(): void {
    for (const [localId, turn] of this.queued) {
      if (this.running.size >= MAX_RUNNING) return;
      this.queued.delete(localId);
      const run = this.loop(localId);
      this.running.set(localId, run);
      void run.then(turn.resolve);
    }
  }

  /** The task's latest record written (whole, or its triage alone); none when it has no folder. */
  private async writeLatest(localId: string, whole: boolean): Promise<void> {
    const record = await this.latest(localId);
    if (!record?.folder) return;
    await (whole ? this.write(record) : this.writeTriage(record));
  }

  private async loop(localId: string): Promise<void> {
    // Yield first so `running` is set before the loop can finish; the `finally` then runs in the
    // same turn as the last `dirty` check, leaving no gap in which a request could be lost.
    await null;
    try {
      do {
        this.dirty.delete(localId);
        const whole = this.whole.delete(localId);
        try {
          await this.writeLatest(localId, whole);
        } catch (error) {
          this.logger.warn('sidecar write failed', { localId, reason: codeOrMessage(error) });
        }
      } while (this.dirty.has(localId));
    } finally {
      this.running.delete(localId);
      this.startQueued();
    }
  }
}
