/**
 * The engine harness's restart is a crash, not a stop: the old engine's process is gone, so none
 * of its timers fire, none of its requests answer and none of its writes land. Tests of recovery
 * rely on that; a restart that flushed would let the old engine tidy up first.
 */
import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from './engine-harness';

describe('engine harness restart', () => {
  it('leaves nothing of the crashed engine running: no polls, no writes', async () => {
    const h = engineHarness();
    h.engine.start();
    await h.engine.submit({ prompt: 'crashed while processing' }, TARGET);
    await h.clock.advance(3_100);
    expect(h.client.polls.length).toBeGreaterThan(0);
    const polls = h.client.polls.length;
    const writes = h.history.writes;
    // A new engine that does not resume: anything that happens now comes from the crashed one.
    await h.restart({ resume: false });
    await h.clock.advance(60_000);
    expect(h.client.polls).toHaveLength(polls);
    expect(h.history.writes).toBe(writes);
    expect(h.history.get('local-1')).toMatchObject({ status: 'processing', taskId: 'task-1' });
  });

  it('what the crashed engine had not written is lost; the next engine carries on from disk', async () => {
    const h = engineHarness();
    h.engine.start();
    await h.engine.submit({ prompt: 'polled, then crashed' }, TARGET);
    await h.clock.advance(3_000 * 3 + 100);
    const live = h.engine.get('local-1');
    const stored = h.history.get('local-1');
    // Poll bookkeeping is written in batches: the live count runs ahead of the stored one.
    expect(live?.polls).toBeGreaterThan(stored?.polls ?? 0);
    const engine = await h.restart();
    expect(engine.get('local-1')?.polls).toBe(stored?.polls);
  });
});
