/**
 * The page's one-time notices (AppInfo.notices: the window recovered from a crash, thumbnails or
 * notifications unavailable): sent as they happen, and kept for the next `app:getInfo` in case no
 * page listened then. Each is handed out once.
 */
import type { AppNotice } from '../../shared/ipc/contract';
import type { Emit } from '../ipc/ipc-main-bridge';

export class AppNotices {
  private readonly kept = new Set<AppNotice>();

  constructor(private readonly emit: Emit) {}

  /** Tells the page now, and keeps it for the next `app:getInfo`. */
  tell(code: AppNotice): void {
    this.kept.add(code);
    this.emit('app:notice', { notice: code });
  }

  /** Keeps it for the next `app:getInfo` only (the page that would hear it is being reloaded). */
  keep(code: AppNotice): void {
    this.kept.add(code);
  }

  /** The notices kept so far, each handed out once. */
  take(): AppNotice[] {
    const taken = [...this.kept];
    this.kept.clear();
    return taken;
  }
}
