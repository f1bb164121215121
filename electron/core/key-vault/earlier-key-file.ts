/**
 * Versions before one service model kept the user's own service's key apart, in `key-vault.json`;
 * it now lives in its service's own file (`key-vault-pictor.json`) like every other service's.
 * The record moves as it is, still encrypted: it is never decrypted, parsed or written in the
 * clear here, so the vault that reads it next judges it exactly as the earlier version would have
 * (a damaged record is still reported damaged, a key bound to an address stays bound there).
 */
import { damagedFileSuffix, type KeyValueStore } from '../../ports/key-value-store';
import type { Logger } from '../../ports/logger';
import { KEY_RECORD_NAME } from './key-record';

/**
 * Moves the key record of `earlier` into `target` when `target` has none, then removes it from
 * `earlier` once `target` holds the same record (so a move cut short by a crash ends on the next
 * start, and a key saved since in `target` is never replaced by the older one).
 */
export function moveEarlierKey(
  earlier: KeyValueStore,
  target: KeyValueStore,
  now: () => number,
  logger?: Logger,
): void {
  let record: unknown;
  try {
    record = earlier.get(KEY_RECORD_NAME);
  } catch {
    // Not JSON: the earlier version would have kept it aside too; its key is lost either way.
    const copy = earlier.moveAside(damagedFileSuffix(now()));
    logger?.warn('earlier key vault file damaged', { path: earlier.path, copy });
    return;
  }
  if (record === undefined) return;
  try {
    if (target.get(KEY_RECORD_NAME) === undefined) target.set(KEY_RECORD_NAME, record);
    if (!sameRecord(target.get(KEY_RECORD_NAME), record)) return;
    earlier.delete(KEY_RECORD_NAME);
    logger?.info('key moved to its service’s vault file', { from: earlier.path, to: target.path });
  } catch (error) {
    // A folder that cannot be written: the next start tries again; nothing was lost.
    logger?.warn('key not moved to its service’s vault file', {
      from: earlier.path,
      to: target.path,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

function sameRecord(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
