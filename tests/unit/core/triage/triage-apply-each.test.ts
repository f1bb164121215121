/**
 * Several changes as one triage step (TriageActions.applyEach), on the real core: "keep the
 * winner, reject the rest" picks one image and rejects the others in one write, and one Undo
 * puts every image back; a part with a bad word refuses the whole step before anything is written.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../../electron/core/pictor-core';
import { TriageError } from '../../../../electron/core/triage/triage-error';
import { flagOf } from '../../../../shared/domain/triage';
import { makeImage, makeTask } from '../../../support/task-records';
import { offlineCore } from '../../../support/offline-core';

let core: PictorCore;

beforeEach(async () => {
  core = await offlineCore();
});

function seed(tasks: number): string[] {
  const records = Array.from({ length: tasks }, (_, n) =>
    makeTask({
      localId: `t-${String(n)}`,
      createdAt: 1_700_000_000_000 + n,
      folder: `t-${String(n)}`,
      images: [makeImage(0), makeImage(1)],
    }),
  );
  core.history.putMany(records);
  return records.map((record) => record.localId);
}

const flags = (ids: readonly string[]) =>
  ids.flatMap((id) => (core.history.get(id)?.images ?? []).map((image) => flagOf(image)));

describe('several triage changes as one step', () => {
  it.each([2, 3, 6])(
    'keeps the winner of %i tasks, rejects the rest, one Undo takes it all back',
    async (n) => {
      const ids = seed(n);
      await core.triage.apply([{ localId: ids[1]!, index: 1 }], { kind: 'rating', rating: 3 });
      const [winner, ...rest] = ids;
      const outcome = await core.triage.applyEach([
        { refs: [{ localId: winner!, index: 0 }], change: { kind: 'flag', flag: 'pick' } },
        {
          refs: [
            { localId: winner!, index: 1 },
            ...rest.flatMap((localId) => [0, 1].map((index) => ({ localId, index }))),
          ],
          change: { kind: 'flag', flag: 'reject' },
        },
      ]);
      expect(outcome.changed).toBe(2 * n);
      expect(core.history.get(winner!)?.images[0]?.favourite).toBe(true);
      expect(flags(ids)).toEqual(['pick', 'reject', ...Array(2 * (n - 1)).fill('reject')]);
      expect((await core.triage.undo())?.changed).toBe(2 * n);
      expect(flags(ids)).toEqual(Array(2 * n).fill('none'));
      expect(core.history.get(winner!)?.images[0]?.favourite ?? false).toBe(false);
      // The rating before the step is still there: the step undone was the pick and rejects only.
      expect(core.history.get(ids[1]!)?.images[1]?.rating).toBe(3);
      expect((await core.triage.redo())?.changed).toBe(2 * n);
      expect(flags(ids)[1]).toBe('reject');
    },
  );

  it('an image named by two parts gets both, in order', async () => {
    const [a] = seed(1);
    const ref = { localId: a!, index: 0 };
    await core.triage.applyEach([
      { refs: [ref], change: { kind: 'rating', rating: 5 } },
      { refs: [ref], change: { kind: 'flag', flag: 'reject' } },
    ]);
    expect(core.history.get(a!)?.images[0]).toMatchObject({ rating: 5 });
    expect(flagOf(core.history.get(a!)!.images[0]!)).toBe('reject');
    expect((await core.triage.undo())?.changed).toBe(1);
    expect(core.history.get(a!)?.images[0]?.rating).toBeUndefined();
  });

  it('a part with a bad word refuses the whole step: nothing written, no Undo step', async () => {
    const [a, b] = seed(2);
    await expect(
      core.triage.applyEach([
        { refs: [{ localId: a!, index: 0 }], change: { kind: 'flag', flag: 'pick' } },
        { refs: [{ localId: b!, index: 0 }], change: { kind: 'rating', rating: 9 } },
      ]),
    ).rejects.toThrow(TriageError);
    expect(flags([a!, b!])).toEqual(['none', 'none', 'none', 'none']);
    expect(core.triage.canUndo()).toEqual({ undo: false, redo: false });
  });
});
