/**
 * The engine's work on tasks that a sleep can cut: polls (poller.ts) and image downloads
 * (download-manager.ts). A request out through a sleep is never answered, a poll's and an
 * image's alike, so both are woken together: in the app by powerMonitor and the network, in the
 * CLI and the MCP server by the sleep watch (sleep-watch.ts), which ticks while either has work.
 * Forgotten and stopped together too, so no part is left out of one and not the others.
 */
import type { EngineContext } from './engine-context';
import { SleepWatch } from './sleep-watch';

/** One part of the work: the poller or the downloads. */
export interface TaskWork {
  /** Back from sleep or offline: what went out before it starts again, what waits goes now. */
  wake(): void;
  forget(localId: string): void;
  stopAll(): void;
  /** Whether it has work under way or waiting (the sleep watch ticks only then). */
  isWorking(): boolean;
}

export class EngineWork {
  private readonly watch: SleepWatch;

  constructor(
    ctx: Pick<EngineContext, 'clock' | 'options'>,
    private readonly parts: readonly TaskWork[],
  ) {
    const working = (): boolean => parts.some((part) => part.isWorking());
    this.watch = new SleepWatch(ctx.clock, ctx.options.pollIntervalMs, () => this.wake(), working);
  }

  /** Work was placed (a poll, a download): the sleep watch ticks while any is under way. */
  keepWatching(): void {
    this.watch.keep();
  }

  wake(): void {
    for (const part of this.parts) part.wake();
    // Counts from now: the tick in progress is not late for the wake just handled.
    this.watch.restart();
  }

  forget(localId: string): void {
    for (const part of this.parts) part.forget(localId);
  }

  stopAll(): void {
    for (const part of this.parts) part.stopAll();
    this.watch.stop();
  }
}
