import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from './engine-harness';
import { serviceError } from '../../../fakes/scripted-service-client';

/**
 * Every history write is a durable (fsynced) SQLite write on the main thread, so a poll that only
 * counts itself is kept in memory and written with the task's next real change. What crash
 * safety needs is still written at once: the record before the submit, the id when it arrives,
 * image states and terminal states.
 */
describe('TaskEngine: history writes', () => {
  it('writes a task’s life in a fixed number of writes, however many polls it takes', async () => {
    const h = engineHarness();
    h.client.durationMs = 30_000;
    h.client.outcomeFor = (_request, id) => ({
      status: 'completed',
      imageUrls: [`https://cdn.example.com/${id}-a.png`, `https://cdn.example.com/${id}-b.png`],
    });
    await h.engine.submit({ prompt: 'count the writes' }, TARGET);
    await h.clock.advance(40_000);
    const record = h.history.get('local-1');
    expect(record).toMatchObject({ status: 'completed', polls: 10 });
    expect(record?.images.map((image) => image.state)).toEqual(['saved', 'saved']);
    // submitting, marked sent before the request leaves (send-mark.ts), processing with the id,
    // its first poll (written at once: task-leases.ts, mayHaveUnwrittenPoll), completed with
    // pending images, one per saved image.
    console.log(`history writes for one task (10 polls, 2 images): ${h.history.writes}`);
    expect(h.history.writes).toBe(7);
  });

  it('writes the record before the submit and the task id the moment it arrives', async () => {
    const h = engineHarness();
    h.client.durationMs = 30_000;
    let storedAtSubmit: string | undefined;
    const submit = h.client.submit.bind(h.client);
    h.client.submit = (credentials, request) => {
      storedAtSubmit = h.history.get('local-1')?.status;
      return submit(credentials, request);
    };
    await h.engine.submit({ prompt: 'order of writes' }, TARGET);
    await h.clock.advance(0);
    expect(storedAtSubmit).toBe('submitting');
    expect(h.history.get('local-1')).toMatchObject({ status: 'processing', taskId: 'task-1' });
  });

  it('keeps the poll count current in memory and announces it; stop() writes it', async () => {
    const h = engineHarness();
    h.client.durationMs = 60_000;
    const announced: number[] = [];
    h.engine.onDidUpdate(({ record }) => announced.push(record.polls));
    await h.engine.submit({ prompt: 'live counts' }, TARGET);
    await h.clock.advance(3_000 * 4 + 100);
    expect(h.engine.get('local-1')).toMatchObject({ status: 'processing', polls: 4 });
    expect(announced.slice(-4)).toEqual([1, 2, 3, 4]);
    // The first poll only (written at once), the others in memory.
    expect(h.history.get('local-1')?.polls).toBe(1);
    await h.engine.stop();
    expect(h.history.get('local-1')).toMatchObject({ status: 'processing', polls: 4 });
  });

  it('writes pending poll counts at least every bookkeepingWriteMs of a long task', async () => {
    const h = engineHarness({ bookkeepingWriteMs: 30_000 });
    h.client.durationMs = 10 * 60_000;
    await h.engine.submit({ prompt: 'a long one' }, TARGET);
    await h.clock.advance(5 * 60_000);
    const stored = h.history.get('local-1');
    const live = h.engine.get('local-1');
    expect(live?.polls).toBe(100);
    expect(stored?.polls).toBeGreaterThanOrEqual(100 - 10);
    // submitting + processing + the first poll + one write per 30 s of polls (10 per 5 minutes).
    expect(h.history.writes).toBeLessThanOrEqual(3 + 10);
  });

  it('with bookkeepingWriteMs 0, writes every poll at once', async () => {
    const h = engineHarness({ bookkeepingWriteMs: 0 });
    h.client.durationMs = 60_000;
    await h.engine.submit({ prompt: 'every poll' }, TARGET);
    await h.clock.advance(3_000 * 4 + 100);
    expect(h.history.get('local-1')?.polls).toBe(4);
  });

  it('after a crash, resumes from what was written: the id, with the count possibly behind', async () => {
    const h = engineHarness();
    h.client.durationMs = 30_000;
    await h.engine.submit({ prompt: 'crash mid-watch' }, TARGET);
    await h.clock.advance(3_000 * 3 + 100);
    const engine = await h.restart();
    await h.clock.advance(40_000);
    expect(h.client.submits).toHaveLength(1);
    expect(engine.get('local-1')).toMatchObject({ status: 'completed', taskId: 'task-1' });
  });

  it('a changed error is written at once; the same error again on the next poll is not', async () => {
    const h = engineHarness();
    h.client.durationMs = 120_000;
    await h.engine.submit({ prompt: 'offline' }, TARGET);
    await h.clock.advance(0);
    const offline = () => serviceError('network', { mayHaveReachedService: false });
    h.client.pollSteps = [offline(), offline(), offline()];
    const before = h.history.writes;
    await h.clock.advance(3_000 + 6_000 + 12_000 + 100);
    expect(h.client.polls).toHaveLength(3);
    expect(h.history.get('local-1')?.error?.kind).toBe('network');
    expect(h.history.writes - before).toBe(1);
    await h.clock.advance(24_000);
    expect(h.history.get('local-1')?.error).toBeNull();
    expect(h.history.writes - before).toBe(2);
  });
});
