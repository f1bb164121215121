/**
 * Another Pictor process changed tasks in the shared history: each is shown like this engine's
 * own change, dropped when it was removed there, and watched (to be taken over when its lease
 * ends) when it still needs work. A task this engine owns keeps its own record, with the user's
 * edits made elsewhere taken in.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Logger } from '../../ports/logger';
import type { ElsewhereTimers } from './elsewhere-timers';
import type { EngineRecords } from './engine-records';
import type { EngineHistory, EngineHistoryChanges } from './engine-types';
import { errorKind } from './error-kind';
import type { TaskLeases } from './task-leases';
import { needsWork } from './task-transitions';

export interface ExternalChangeDeps {
  readonly history: EngineHistory;
  readonly records: EngineRecords;
  readonly elsewhere: ElsewhereTimers;
  readonly leases: TaskLeases;
  readonly logger: Logger;
  /** Stops polling and downloading the task here. */
  forgetWork(localId: string): void;
  announce(record: TaskRecord): void;
  /** Tasks other processes leave are taken over (the app; not a CLI command). */
  readonly adopting: boolean;
}

export function applyExternalChanges(
  changes: EngineHistoryChanges,
  deps: ExternalChangeDeps,
): void {
  const localIds = new Set(changes.localIds);
  if (changes.overflow) {
    for (const record of deps.history.unfinished()) localIds.add(record.localId);
  }
  for (const localId of localIds) {
    let record: TaskRecord | undefined;
    try {
      record = deps.history.get(localId);
    } catch (error) {
      deps.logger.warn('could not read a task another process changed', {
        reason: errorKind(error),
      });
      continue;
    }
    if (record === undefined) {
      // Removed by another process.
      if (deps.records.liveRecord(localId) || deps.elsewhere.has(localId)) {
        deps.elsewhere.stop(localId);
        deps.forgetWork(localId);
        deps.records.forget(localId);
      }
      continue;
    }
    const ours = deps.leases.shared && deps.leases.isMine(localId);
    if (ours && deps.records.liveRecord(localId)) {
      deps.records.takeUserEdits(record);
      continue;
    }
    // Not ours: the history's copy is the current one.
    deps.records.dropLive(localId);
    if (!needsWork(record)) deps.elsewhere.stop(localId);
    else if (deps.adopting || deps.elsewhere.has(localId)) deps.elsewhere.watch(localId);
    deps.announce(record);
  }
}
