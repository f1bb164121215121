/**
 * Leases say which process works on a task: the engine claims the tasks it runs, takes over those
 * of a process that no longer exists, and releases them when it stops. Each change is atomic
 * across processes.
 */
import type { HistoryAccess } from './history-access';
import {
  CLAIM_LEASE,
  RELEASE_ALL_LEASES,
  RELEASE_LEASE,
  SELECT_LEASE,
  TAKE_OVER_LEASE,
} from './history-statements';

/** A lease being granted: to `owner`, until `until` (ms). */
export interface LeaseGrant {
  readonly owner: string;
  readonly until: number;
}

/** Who works on a task, until when (ms). */
export interface Lease {
  readonly owner: string;
  readonly expiresAt: number;
}

export class HistoryLeases {
  constructor(private readonly access: HistoryAccess) {}

  /** See {@link HistoryStore.claimLeases}. */
  claim(localIds: readonly string[], owner: string, now: number, until: number): string[] {
    if (localIds.length === 0) return [];
    const { connection } = this.access;
    return this.access.write(() =>
      connection.transaction(() =>
        localIds.filter(
          (localId) => connection.run(CLAIM_LEASE, [localId, owner, until, now]).changes > 0,
        ),
      ),
    );
  }

  /** See {@link HistoryStore.takeOverLease}. */
  takeOver(localId: string, from: Lease, owner: string, until: number): boolean {
    return this.access.write(
      () =>
        this.access.connection.run(TAKE_OVER_LEASE, [
          owner,
          until,
          localId,
          from.owner,
          from.expiresAt,
        ]).changes > 0,
    );
  }

  /**
   * See {@link HistoryStore.releaseLeases}. Called inside a write transaction of this store (the
   * engine's last write of a task: EngineRecords), the leases end with that write, in its one
   * commit, instead of in a transaction of their own.
   */
  release(owner: string, localIds?: readonly string[]): void {
    const { connection } = this.access;
    this.access.write(() => {
      if (localIds === undefined) return connection.run(RELEASE_ALL_LEASES, [owner]);
      const each = () => {
        for (const localId of localIds) connection.run(RELEASE_LEASE, [localId, owner]);
      };
      return connection.inTransaction ? each() : connection.transaction(each);
    });
  }

  /** The task's lease, if any (possibly expired). */
  of(localId: string): Lease | undefined {
    const row = this.access.row(SELECT_LEASE, [localId]);
    return row ? { owner: String(row['owner']), expiresAt: Number(row['expires_at']) } : undefined;
  }
}
