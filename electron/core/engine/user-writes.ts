/**
 * The trash's writes of one task on the engine's own history (UserWrites), when the core
 * gives no history worker to run them (an engine built on a store alone, as in tests).
 */
import { type ImageFilesPatch, withPatchedImage } from '../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { EngineHistory, EngineWatchedRemovals } from './engine-types';
import type { UserWrites } from '../../ports/user-writes';

export function userWritesOn(
  history: EngineHistory,
  removals: EngineWatchedRemovals | undefined,
): UserWrites {
  return {
    remove: async (localId: string, watch?: TaskRecord) =>
      watch && removals ? removals.detach(watch) : history.delete(localId),
    reinstate: async (record: TaskRecord, watched: boolean) => {
      if (watched && removals) removals.attach(record);
      else history.put(record);
    },
    imageFiles: async (ref, patch: ImageFilesPatch, at: number) => {
      const [record] = history.editMany([ref.localId], (stored) => {
        const next = withPatchedImage(stored, ref.index, patch);
        return next && { ...next, updatedAt: at };
      });
      return record ?? null;
    },
  };
}
