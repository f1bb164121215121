/**
 * What to do when the window's renderer process dies: reload it (the main process and every task
 * kept running), but not forever: after too many crashes in a short time, stop and ask the user.
 * A clean exit (the page closing normally) is not a crash.
 */

/** Why Electron says a renderer went away (`RenderProcessGoneDetails.reason`). */
export interface RendererGone {
  readonly reason: string;
  readonly exitCode: number;
}

export type CrashDecision = 'ignore' | 'reload' | 'ask';

export interface CrashPolicyOptions {
  readonly now: () => number;
  /** Reloads allowed within {@link windowMs}; default 3. */
  readonly maxReloads?: number;
  /** Default 5 minutes. */
  readonly windowMs?: number;
}

export class RendererCrashPolicy {
  private crashes: number[] = [];
  private readonly maxReloads: number;
  private readonly windowMs: number;

  constructor(private readonly options: CrashPolicyOptions) {
    this.maxReloads = options.maxReloads ?? 3;
    this.windowMs = options.windowMs ?? 5 * 60_000;
  }

  decide(gone: RendererGone): CrashDecision {
    if (gone.reason === 'clean-exit') return 'ignore';
    const now = this.options.now();
    this.crashes = this.crashes.filter((at) => now - at < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length <= this.maxReloads ? 'reload' : 'ask';
  }

  /** The user chose to reload after being asked: start counting afresh. */
  reset(): void {
    this.crashes = [];
  }
}
