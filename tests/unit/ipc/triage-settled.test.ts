/**
 * A triage change of more than MAX_ANSWERED_TASKS tasks is answered at its commit, its tasks
 * following as `tasks:updated` triage changes; its answer numbers it (`settle`), and
 * `triage:settled` with that number answers only once every task it changed was sent to the page,
 * so the page can tell until when what it draws is from before the change. Over the app's real
 * wiring (main's handlers, core and SQLite history), main's task updates on a manual clock: a
 * batch the change does not send itself waits for a clock that never moves here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  RequestChannel,
  RequestInput,
  Result,
  TaskChange,
} from '../../../shared/ipc/contract';
import { MAX_ANSWERED_TASKS } from '../../../shared/ipc/triage-contract';
import { ManualClock } from '../../fakes/manual-clock';
import { makeImage } from '../../support/task-records';
import { startWiredApi, type WiredApi } from '../../support/wired-api';
import { seedHistory } from '../renderer/render-wired-app';

const opened: WiredApi[] = [];
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
});

const COUNT = MAX_ANSWERED_TASKS + 100;
const ref = (n: number) => ({ localId: `seed-${String(n).padStart(6, '0')}`, index: 0 });

async function wired() {
  const main = await startWiredApi({ runtime: { clock: new ManualClock() } });
  opened.push(main);
  seedHistory(main, COUNT, () => ({ images: [makeImage(0)] }));
  const ok = async <C extends RequestChannel>(channel: C, input: RequestInput<C>) => {
    const result = (await main.api.invoke(channel, input)) as Result<unknown>;
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as never;
  };
  const rated = new Map<string, number>();
  main.api.on('tasks:updated', (changes: TaskChange[]) => {
    for (const change of changes) {
      if (change.change === 'triage') rated.set(change.localId, change.images[0]?.rating ?? 0);
    }
  });
  return { ok, rated };
}

describe('a change of more tasks than its answer waits for', () => {
  it('is numbered in its answer, and triage:settled answers once all its tasks were sent', async () => {
    const { ok, rated } = await wired();
    const images = Array.from({ length: COUNT }, (_, n) => ref(n));
    const first: { changed: number; settle?: number } = await ok('triage:apply', {
      images,
      change: { kind: 'rating', rating: 5 },
    });
    expect(first.changed).toBe(COUNT);
    expect(first.settle).toBeGreaterThan(0);
    // Answered at its commit: its tasks were not all sent yet.
    expect(rated.size).toBeLessThan(COUNT);
    await ok('triage:settled', { change: first.settle! });
    expect(rated.size).toBe(COUNT);
    expect([...rated.values()].every((rating) => rating === 5)).toBe(true);

    // The next change gets its own number; a settled or unknown one answers at once.
    const second: { settle?: number } = await ok('triage:apply', {
      images,
      change: { kind: 'rating', rating: 0 },
    });
    expect(second.settle).toBeGreaterThan(first.settle!);
    await ok('triage:settled', { change: second.settle! });
    expect([...rated.values()].every((rating) => rating === 0)).toBe(true);
    await ok('triage:settled', { change: first.settle! });
    await ok('triage:settled', { change: 1_000_000 });

    // A small change has none: its tasks came before its answer.
    const small: { settle?: number } = await ok('triage:apply', {
      images: [ref(0)],
      change: { kind: 'rating', rating: 3 },
    });
    expect(small).not.toHaveProperty('settle');
    expect(rated.get(ref(0).localId)).toBe(3);
  });
});
