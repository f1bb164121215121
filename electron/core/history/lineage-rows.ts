/**
 * The history's lineage reads (lineage-schema.ts): the tasks made from one library image, and the
 * tasks made from one file with no library parent, oldest first, each through its partial index
 * (no sort, no record read past the limit), so a stack of a few images costs a few index ranges
 * whatever the size of the history, and an image with a huge fan-out costs the limit, not the fan.
 */
import type { ImageParent } from '../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryAccess } from './history-access';
import { recordsFromRows } from './history-rows';

const CHILDREN = `SELECT local_id, record FROM tasks INDEXED BY tasks_parent
  WHERE parent_id = ? AND parent_index = ? ORDER BY created_at, local_id LIMIT ?`;

const FROM_INPUT = `SELECT local_id, record FROM tasks INDEXED BY tasks_input_source
  WHERE input_source = ? ORDER BY created_at, local_id LIMIT ?`;

/** Bounds a caller's limit to a whole number from 0 to 10,000. */
const bounded = (limit: number) => Math.max(0, Math.min(Math.trunc(limit) || 0, 10_000));

export class LineageRows {
  constructor(
    private readonly access: HistoryAccess,
    /** The schema has the lineage columns (a library opened read-only by an older build may not). */
    private readonly present: boolean,
  ) {}

  /** The tasks whose `request.inputs.parent` is `parent`, oldest first, at most `limit`. */
  childrenOf(parent: ImageParent, limit: number): TaskRecord[] {
    if (!this.present) return [];
    const rows = this.access.rows(CHILDREN, [parent.localId, parent.index, bounded(limit)]);
    return recordsFromRows(rows, this.access);
  }

  /**
   * The tasks made from the stored input `sha256` with no library parent (a source picked from a
   * file), oldest first, at most `limit`.
   */
  fromInput(sha256: string, limit: number): TaskRecord[] {
    if (!this.present) return [];
    const rows = this.access.rows(FROM_INPUT, [sha256, bounded(limit)]);
    return recordsFromRows(rows, this.access);
  }
}
