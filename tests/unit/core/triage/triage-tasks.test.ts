/**
 * Triage of whole tasks (TriageActions.applyToTasks, the task list's Reject), on the real core:
 * every image of each named task flagged in one write and one step of Undo, an image in the trash
 * left alone, a task the library does not have counted missing, and a task named twice once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../../electron/core/pictor-core';
import { flagOf } from '../../../../shared/domain/triage';
import { makeImage, makeTask } from '../../../support/task-records';
import { offlineCore } from '../../../support/offline-core';

let core: PictorCore;

beforeEach(async () => {
  core = await offlineCore();
});

/** `tasks` tasks of three images; the second task's last image is in the trash. */
function seed(tasks: number): string[] {
  const records = Array.from({ length: tasks }, (_, n) =>
    makeTask({
      localId: `t-${String(n)}`,
      createdAt: 1_700_000_000_000 + n,
      folder: `t-${String(n)}`,
      images: [makeImage(0), makeImage(1), makeImage(2, n === 1 ? { state: 'deleted' } : {})],
    }),
  );
  core.history.putMany(records);
  return records.map((record) => record.localId);
}

const flags = (id: string) => (core.history.get(id)?.images ?? []).map((image) => flagOf(image));

describe('triage of whole tasks', () => {
  it('rejects every image of the named tasks as one step, and one Undo puts them back', async () => {
    const ids = seed(3);
    await core.triage.apply([{ localId: 't-0', index: 1 }], { kind: 'flag', flag: 'pick' });
    const done = await core.triage.applyToTasks(['t-0', 't-1'], { kind: 'flag', flag: 'reject' });
    expect(done).toMatchObject({ changed: 5, unchanged: 0, missing: [] });
    expect(done.tasks).toBe(2);
    const announced = await done.announced;
    expect(announced.map((record) => record.localId).sort()).toEqual(['t-0', 't-1']);
    expect(flags('t-0')).toEqual(['reject', 'reject', 'reject']);
    // The image in the trash is not the task's any more: untouched.
    expect(flags('t-1')).toEqual(['reject', 'reject', 'none']);
    expect(flags(ids[2]!)).toEqual(['none', 'none', 'none']);
    expect((await core.triage.undo())?.changed).toBe(5);
    expect(flags('t-0')).toEqual(['none', 'pick', 'none']);
    expect(flags('t-1')).toEqual(['none', 'none', 'none']);
    expect(core.triage.canUndo()).toEqual({ undo: true, redo: true });
  });

  it('counts a task it does not have as missing, names a task twice once, and unflags', async () => {
    seed(2);
    const done = await core.triage.applyToTasks(['t-0', 'gone', 't-0'], {
      kind: 'flag',
      flag: 'reject',
    });
    expect(done.changed).toBe(3);
    expect(done.missing).toEqual([{ localId: 'gone', index: 0 }]);
    const again = await core.triage.applyToTasks(['t-0'], { kind: 'flag', flag: 'reject' });
    expect(again).toMatchObject({ changed: 0, unchanged: 3 });
    await core.triage.applyToTasks(['t-0'], { kind: 'flag', flag: 'none' });
    expect(flags('t-0')).toEqual(['none', 'none', 'none']);
  });

  it('changes nothing and adds no Undo step when no task is known', async () => {
    seed(1);
    const done = await core.triage.applyToTasks(['nope'], { kind: 'flag', flag: 'reject' });
    expect(done).toMatchObject({ changed: 0, tasks: 0 });
    expect(done.missing).toHaveLength(1);
    expect(core.triage.canUndo().undo).toBe(false);
  });
});
