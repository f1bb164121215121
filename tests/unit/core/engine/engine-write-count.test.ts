/**
 * One engine write of a task is one history write (one transaction, one write lock): a task the
 * history does not hold (never stored, or removed there by another process) is written whole in
 * the same transaction that looked for it (HistoryStore.editMany's `absent`), never by a second
 * `put` after it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { InMemoryHistory } from '../../../fakes/in-memory-history';
import { TARGET, engineHarness } from './engine-harness';

type WriteName = 'put' | 'putMany' | 'editMany';

/** The history writes the engine makes (a write made inside another is part of it, not counted). */
function countWrites(): WriteName[] {
  const calls: WriteName[] = [];
  let depth = 0;
  const proto = InMemoryHistory.prototype as unknown as Record<
    WriteName,
    (...a: unknown[]) => unknown
  >;
  for (const name of ['put', 'putMany', 'editMany'] as const) {
    const original = proto[name];
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (depth === 0) calls.push(name);
      depth += 1;
      try {
        return original.apply(this, args);
      } finally {
        depth -= 1;
      }
    };
    onTestFinished(() => {
      proto[name] = original;
    });
  }
  return calls;
}

describe('an engine write of a task', () => {
  it('is one history write, also when the history no longer holds the task', async () => {
    const h = engineHarness();
    h.client.durationMs = 9_000;
    h.client.outcomeFor = (_request, id) => ({
      status: 'completed',
      imageUrls: [`https://cdn.example.com/${id}-a.png`],
    });
    await h.engine.submit({ prompt: 'a lantern in fog' }, TARGET);
    await h.clock.advance(3_100);
    expect(h.engine.get('local-1')?.status).toBe('processing');
    const calls = countWrites();
    // Another process removed the stored record; the engine's next writes store it again.
    h.history.records.delete('local-1');
    await h.clock.advance(30_000);
    await h.engine.whenSettled(['local-1']);
    expect(h.history.get('local-1')?.status).toBe('completed');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((name) => name !== 'editMany')).toEqual([]);
  });
});
