/**
 * A triage write's tasks are taken in by main in turns of its loop cut by main's own time, not by
 * a count of tasks: however long each task takes (its sidecar asked for, the page told), no turn
 * goes on past the budget (TriageActions' ANNOUNCE_TURN_MS, 8 ms), and the commit answers before
 * the first is taken in. Main's time is a fake that each task taken in moves by 3 ms.
 */
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import type { TaskTriageDelta } from '../../../../shared/domain/triage-delta';
import type { TriageWritten } from '../../../../electron/core/history';
import { TriageActions } from '../../../../electron/core/triage/triage-actions';

const TASKS = 450;
/** Main's time each task taken in costs, by the fake clock. */
const TASK_MS = 3;

const delta = (n: number): TaskTriageDelta => ({
  localId: `t-${String(n)}`,
  favourite: false,
  updatedAt: 1_800_000_000_000,
  images: [{ index: 0, favourite: false, rating: 4 }],
});

/** What the worker hands back for a rating of one image in each of `TASKS` tasks. */
function written(): TriageWritten {
  const deltas = Array.from({ length: TASKS }, (_, n) => delta(n));
  const chunks = [0, 200, 400].map((at) => JSON.stringify(deltas.slice(at, at + 200)));
  return {
    changed: TASKS,
    unchanged: 0,
    refused: 0,
    missing: [],
    step: '[]',
    deltas: chunks,
    tasks: TASKS,
    logged: [],
  };
}

describe('announcing a triage write', () => {
  it('takes in its tasks a few milliseconds of main’s time per turn of its loop', async () => {
    let time = 0;
    // The turn of main's loop each task was taken in: a ticker counts the turns.
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turnOf: number[] = [];
    const triage = new TriageActions({
      engine: {
        get: () => undefined,
        tookTriage: (deltas) => {
          for (const _ of deltas) turnOf.push(turn);
          time += TASK_MS * deltas.length;
        },
      },
      writes: { triage: async () => written(), restoreTriage: async () => written() },
      triage: { hasTag: () => false, tagCount: () => 0, boardPath: () => null },
      now: () => 1_800_000_000_000,
      turnTime: () => time,
    });
    const outcome = await triage.apply([{ localId: 't-0', index: 0 }], {
      kind: 'rating',
      rating: 4,
    });
    expect(turnOf).toEqual([]);
    const taken = await outcome.announced;
    ticking = false;
    expect(taken.map((d) => d.localId)).toEqual(
      Array.from({ length: TASKS }, (_, n) => `t-${String(n)}`),
    );
    const perTurn = new Map<number, number>();
    for (const at of turnOf) perTurn.set(at, (perTurn.get(at) ?? 0) + 1);
    // 8 ms a turn: the tasks begun at 0, 3 and 6 ms, then the next turn.
    expect(Math.max(...perTurn.values())).toBe(3);
    expect(perTurn.size).toBe(Math.ceil(TASKS / 3));
  });
});
