/**
 * What the dock or taskbar shows while tasks run. The service reports no percentage, so:
 * - macOS: a badge with the number of tasks in flight on the Dock icon;
 * - Linux: the same count as a launcher badge (LauncherEntry), and a progress bar showing how
 *   much of the current batch has finished (indeterminate bars are not supported there);
 * - Windows: no badge API, so the taskbar bar: indeterminate until the first task of the
 *   batch finishes, then the finished fraction.
 * A batch is every task seen in flight since the last moment nothing was running.
 */
import type { TaskStatus, HoldReason } from '../../../shared/domain/task-record';

/** What the adapter applies. `null` means this platform does not use that surface. */
export interface ProgressDisplay {
  /** `app.setBadgeCount` (0 hides the badge). */
  readonly badgeCount: number | null;
  /** `win.setProgressBar` value: -1 removes the bar, 0..1 a fraction, 2 indeterminate. */
  readonly progress: number | null;
  /** `win.setProgressBar` mode (Windows reads it; elsewhere it is ignored). */
  readonly mode: 'none' | 'normal' | 'indeterminate';
}

/** What the activity needs to know of a task update. */
export interface ActivityUpdate {
  readonly localId: string;
  readonly status: TaskStatus;
  readonly hold: HoldReason | null;
  /** Downloads running or waiting to retry for this task (the engine's live state). */
  readonly downloads: number;
}

/** `true` while the engine is working on the task: submitting, polling or downloading. */
export function isInFlight(update: ActivityUpdate): boolean {
  if (update.downloads > 0) return true;
  if (update.status === 'submitting') return true;
  return update.status === 'processing' && update.hold === null;
}

/** The display for `running` tasks in flight of a batch where `finished` have left already. */
export function progressDisplay(
  platform: NodeJS.Platform,
  running: number,
  finished: number,
): ProgressDisplay {
  const idle = running === 0;
  const fraction = idle ? -1 : finished / (finished + running);
  if (platform === 'darwin') return { badgeCount: running, progress: null, mode: 'none' };
  if (platform === 'win32') {
    if (idle) return { badgeCount: null, progress: -1, mode: 'none' };
    if (finished === 0) return { badgeCount: null, progress: 2, mode: 'indeterminate' };
    return { badgeCount: null, progress: fraction, mode: 'normal' };
  }
  return { badgeCount: running, progress: fraction, mode: idle ? 'none' : 'normal' };
}

export function sameDisplay(a: ProgressDisplay, b: ProgressDisplay): boolean {
  return a.badgeCount === b.badgeCount && a.progress === b.progress && a.mode === b.mode;
}

/** Keeps the set of tasks in flight and the current batch; each call returns the display. */
export class TaskActivity {
  private readonly running = new Set<string>();
  private finished = 0;

  constructor(private readonly platform: NodeJS.Platform) {}

  update(update: ActivityUpdate): ProgressDisplay {
    if (isInFlight(update)) this.running.add(update.localId);
    else this.leave(update.localId);
    return this.display();
  }

  /** A task removed from the history. It does not count as finished. */
  remove(localId: string): ProgressDisplay {
    this.running.delete(localId);
    if (this.running.size === 0) this.finished = 0;
    return this.display();
  }

  display(): ProgressDisplay {
    return progressDisplay(this.platform, this.running.size, this.finished);
  }

  private leave(localId: string): void {
    if (!this.running.delete(localId)) return;
    this.finished = this.running.size === 0 ? 0 : this.finished + 1;
  }
}
