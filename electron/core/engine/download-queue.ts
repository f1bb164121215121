/**
 * Downloads waiting for a slot, those whose links expire soonest first; equal ones (and those
 * whose service gives no lifetime) in the order they came.
 */
interface Waiting {
  readonly run: () => Promise<void>;
  readonly expiresAt: number;
}

export class DownloadQueue {
  private readonly waiting: Waiting[] = [];

  /** Adds a download; `expiresAt`: when its task's links stop working (undefined: never said). */
  add(run: () => Promise<void>, expiresAt: number | undefined): void {
    const at = expiresAt ?? Number.POSITIVE_INFINITY;
    let index = this.waiting.length;
    while (index > 0 && (this.waiting[index - 1]?.expiresAt ?? 0) > at) index -= 1;
    this.waiting.splice(index, 0, { run, expiresAt: at });
  }

  /** The next download to start, or undefined when none waits. */
  next(): (() => Promise<void>) | undefined {
    return this.waiting.shift()?.run;
  }

  clear(): void {
    this.waiting.length = 0;
  }
}
