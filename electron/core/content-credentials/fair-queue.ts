/**
 * Work in lanes that take turns: each lane (a service whose images are verified) runs one job at
 * a time, in the order its jobs came; up to `parallel` lanes run at once; a lane that has run
 * goes to the back of the line. So a lane with a long line (a service sending many slow stores)
 * never keeps another lane's job waiting behind more than the jobs running when it came, and a
 * job waits only behind its own lane's when fewer than `parallel` lanes have work.
 */

interface Job {
  readonly lane: string;
  readonly work: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Stops listening to the job's abort signal. */
  detach: () => void;
}

export class FairQueue {
  /** Each lane's waiting jobs; the map's order is the order lanes take their turns in. */
  private readonly lanes = new Map<string, Job[]>();
  private readonly running = new Set<string>();
  private closed: Error | null = null;

  constructor(private readonly parallel: number) {}

  /**
   * Runs `work` in `lane` when its turn comes. A job still waiting when `signal` aborts is taken
   * out of its lane and rejects with the signal's reason; a running one is `work`'s to end.
   */
  run<T>(lane: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    if (signal?.aborted) return Promise.reject(reasonOf(signal));
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        lane,
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        detach: () => undefined,
      };
      if (signal) {
        const onAbort = () => this.drop(job, reasonOf(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => signal.removeEventListener('abort', onAbort);
      }
      const waiting = this.lanes.get(lane) ?? [];
      waiting.push(job);
      this.lanes.set(lane, waiting);
      this.pump();
    });
  }

  /** Rejects every waiting job with `error`, and every later one; running jobs end on their own. */
  close(error: Error): void {
    this.closed = error;
    for (const waiting of this.lanes.values()) {
      for (const job of waiting) {
        job.detach();
        job.reject(error);
      }
    }
    this.lanes.clear();
  }

  private pump(): void {
    while (this.running.size < this.parallel) {
      const lane = [...this.lanes.keys()].find((name) => !this.running.has(name));
      if (lane === undefined) return;
      const waiting = this.lanes.get(lane) ?? [];
      const job = waiting.shift();
      if (waiting.length === 0) this.lanes.delete(lane);
      if (job) this.start(job);
    }
  }

  /** A lane whose job ended goes to the back of the line, behind those that waited meanwhile. */
  private ended(lane: string): void {
    this.running.delete(lane);
    const waiting = this.lanes.get(lane);
    if (waiting) {
      this.lanes.delete(lane);
      this.lanes.set(lane, waiting);
    }
    this.pump();
  }

  private start(job: Job): void {
    job.detach();
    this.running.add(job.lane);
    const done = () => this.ended(job.lane);
    let running: Promise<unknown>;
    try {
      running = job.work();
    } catch (error) {
      running = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    running.then(
      (value) => {
        done();
        job.resolve(value);
      },
      (error: unknown) => {
        done();
        job.reject(error);
      },
    );
  }

  private drop(job: Job, reason: unknown): void {
    const waiting = this.lanes.get(job.lane);
    const index = waiting?.indexOf(job) ?? -1;
    if (!waiting || index === -1) return;
    waiting.splice(index, 1);
    if (waiting.length === 0) this.lanes.delete(job.lane);
    job.reject(reason);
  }
}

function reasonOf(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new Error('Aborted.');
}
