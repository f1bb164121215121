/**
 * Writes a task's sidecar without letting an older snapshot land after a newer one: one write
 * per task at a time, and a change during a write triggers exactly one more with the latest record.
 * A change of triage alone asks for its triage's files only (`writeTriage`: the XMP sidecars);
 * any other change asked for meanwhile makes the next write a whole one.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Logger } from '../../ports/logger';
import { codeOrMessage } from '../errors';

export class SidecarWriter {
  private readonly running = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  /** Tasks a whole write was asked for since their last one began. */
  private readonly whole = new Set<string>();
  /** Asked for while held: written on {@link release}. Null when not held. */
  private held: Set<string> | null = null;

  constructor(
    private readonly write: (record: TaskRecord) => Promise<void>,
    private readonly latest: (localId: string) => TaskRecord | undefined,
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
    this.running.set(localId, this.loop(localId));
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
    return this.running.get(localId) ?? Promise.resolve();
  }

  /** Resolves when every requested write has finished. */
  async flush(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  private async loop(localId: string): Promise<void> {
    // Yield first so `running` is set before the loop can finish; the `finally` then runs in the
    // same turn as the last `dirty` check, leaving no gap in which a request could be lost.
    await null;
    try {
      do {
        this.dirty.delete(localId);
        const whole = this.whole.delete(localId);
        const record = this.latest(localId);
        if (!record?.folder) return;
        try {
          await (whole ? this.write(record) : this.writeTriage(record));
        } catch (error) {
          this.logger.warn('sidecar write failed', { localId, reason: codeOrMessage(error) });
        }
      } while (this.dirty.has(localId));
    } finally {
      this.running.delete(localId);
    }
  }
}
