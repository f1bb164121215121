/**
 * When the poller last sent each task's poll: what keeps a task's polls one interval apart,
 * across a resume. A task's stamp outlives its watch for the rest of its interval (a task
 * watched again at once must still wait); every task ends right after a poll, so without an end
 * to that each one's stamp stayed for the process's life.
 */
export class PollStamps {
  /** The last poll sent of each task (a poll in flight has no stamp of it yet). */
  private readonly sent = new Map<string, number>();
  /** The stamps {@link release} left for the rest of their interval, in the order it left them. */
  private readonly left = new Map<string, number>();

  constructor(
    private readonly intervalMs: number,
    /** Whether a task is watched again (a timer or a poll of its own): its stamp stays. */
    private readonly watched: (localId: string) => boolean,
  ) {}

  get(localId: string): number | undefined {
    return this.sent.get(localId);
  }

  set(localId: string, at: number): void {
    this.sent.set(localId, at);
  }

  /** How many tasks' last polls are remembered (bounded; exposed for tests). */
  get size(): number {
    return this.sent.size;
  }

  /**
   * The task is no longer watched: its stamp is kept while it still bounds the next poll, and
   * dropped with the others' once their interval is over; one stamped before the clock was set
   * back no longer bounds anything.
   */
  release(localId: string, now: number): void {
    const stamp = this.sent.get(localId);
    if (stamp !== undefined && this.running(stamp, now)) {
      this.left.delete(localId);
      this.left.set(localId, stamp);
    } else this.sent.delete(localId);
    this.dropPassed(now);
  }

  private running(stamp: number, now: number): boolean {
    return now - stamp < this.intervalMs && now >= stamp;
  }

  /** Oldest first, up to the first still running: about one interval's worth of ended tasks. */
  private dropPassed(now: number): void {
    for (const [localId, stamp] of this.left) {
      if (this.running(stamp, now)) return;
      this.left.delete(localId);
      if (!this.watched(localId) && this.sent.get(localId) === stamp) this.sent.delete(localId);
    }
  }
}
