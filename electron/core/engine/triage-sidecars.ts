/**
 * The XMP sidecars of a triage change written as the engine writes them (UserEdits.tookTriage:
 * each task's triage files alone, from its record as the history worker reads it, a few tasks at
 * once: sidecar-writer.ts), for a host that changes triage with no engine running: the CLI's
 * `rate`, `flag` and `tag` (core/triage/library-triage.ts), which need neither a service client nor the
 * engine's modules. The engine holds no live copy there, so every record is the history's.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTriageDelta } from '../../../shared/domain/triage-delta';
import type { Logger } from '../../ports/logger';
import type { UserWrites } from '../../ports/user-writes';
import type { Gallery } from '../gallery';
import { SidecarWriter } from './sidecar-writer';
import { sidecarRecords } from './sidecar-records';

export interface TriageSidecarsDeps {
  readonly gallery: Pick<Gallery, 'writeSidecar' | 'writeTriage'>;
  /** The history's records (a task's record when a change names it). */
  readonly get: (localId: string) => TaskRecord | undefined;
  /** Where the sidecars' records are read: the history worker's reads (UserWrites.records). */
  readonly writes: UserWrites;
  readonly logger: Logger;
}

/** What TriageActions asks of the engine (get, tookTriage), and the wait for the files. */
export interface TriageSidecars {
  get(localId: string): TaskRecord | undefined;
  /** Asks for the tasks' triage files, as TaskEngine.tookTriage does. */
  tookTriage(deltas: readonly TaskTriageDelta[]): void;
  /** Resolves once every write asked for has finished (a failed one is logged). */
  flush(): Promise<void>;
}

export function triageSidecars(deps: TriageSidecarsDeps): TriageSidecars {
  const { gallery, get, writes, logger } = deps;
  const latest = sidecarRecords({ get, liveRecord: () => undefined }, writes);
  const sidecars = new SidecarWriter(
    (record) => gallery.writeSidecar(record),
    latest,
    logger,
    (record) => gallery.writeTriage(record),
  );
  return {
    get,
    tookTriage: (deltas) => {
      for (const delta of deltas) sidecars.request(delta.localId, 'triage');
    },
    flush: () => sidecars.flush(),
  };
}
