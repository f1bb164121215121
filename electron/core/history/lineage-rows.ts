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

/** The inputs of every task that has any: each has a parent or a source digest (lineage-schema). */
const INPUTS_OF_TASKS = `SELECT json_extract(record, '$.request.inputs') AS inputs
  FROM tasks INDEXED BY tasks_parent WHERE parent_id IS NOT NULL
  UNION ALL SELECT json_extract(record, '$.request.inputs') AS inputs
  FROM tasks INDEXED BY tasks_input_source WHERE input_source IS NOT NULL`;

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
   * Every input digest a task record names (source, masks, references), read through the two
   * partial indexes: the tasks that have inputs, not the whole history. Null without the columns.
   */
  inputDigests(): Set<string> | null {
    if (!this.present) return null;
    const digests = new Set<string>();
    for (const row of this.access.rows(INPUTS_OF_TASKS, [])) {
      const inputs = parsedInputs(row['inputs']);
      if (!inputs) continue;
      const images = [inputs['source'], inputs['mask'], inputs['maskAlpha']];
      if (Array.isArray(inputs['references'])) images.push(...(inputs['references'] as unknown[]));
      for (const image of images) {
        const sha256 = (image as { sha256?: unknown } | null | undefined)?.sha256;
        if (typeof sha256 === 'string') digests.add(sha256);
      }
    }
    return digests;
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

function parsedInputs(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
