/**
 * How task changes reach the page (electron/ipc/task-updates.ts), on the manual clock: batches at
 * most every 150 ms, a removal after an update wins, a poll that moved only bookkeeping goes as
 * a live part without the record, a large batch is split at the contract's cap, what waits goes
 * out when the wiring ends, and every message is what the contract accepts.
 */
import type { WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createEmitter } from '../../../electron/ipc/ipc-main-bridge';
import type { Logger } from '../../../electron/ports/logger';
import { TASK_UPDATES_INTERVAL_MS, TaskUpdates } from '../../../electron/ipc/task-updates';
import type { LiveState } from '../../../shared/domain/live-state';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { events, type TaskChange, type TaskItem } from '../../../shared/ipc/contract';
import { MAX_TASK_CHANGES } from '../../../shared/ipc/task-changes';
import { ManualClock } from '../../fakes/manual-clock';
import { makeTaskRecord } from '../../support/task-records';

const LIVE: LiveState = { nextPollAt: null, polling: false, downloads: 0 };

function updates() {
  const clock = new ManualClock();
  const start = clock.now();
  const logged: string[] = [];
  const record = (message: string) => void logged.push(message);
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const messages: { at: number; changes: TaskChange[] }[] = [];
  // The main process's own emitter, into a window that keeps what it is sent.
  const contents = {
    isDestroyed: () => false,
    send(channel: string, payload: unknown) {
      expect(channel).toBe('tasks:updated');
      // What the page gets: a message the contract accepts, stripped to it.
      const changes = events['tasks:updated'].parse(structuredClone(payload));
      expect(changes).toEqual(payload);
      messages.push({ at: clock.now() - start, changes });
    },
  } as unknown as WebContents;
  const sink = new TaskUpdates({ clock, emit: createEmitter(() => contents, logger), logger });
  const sent = () => messages.flatMap((message) => message.changes);
  return { clock, sink, messages, sent, logged };
}

/** A task under way, polled `polls` times, as the engine announces it. */
function running(localId: string, polls: number, at: number): TaskRecord {
  return makeTaskRecord({
    localId,
    status: 'processing',
    finishedAt: null,
    polls,
    lastPolledAt: at,
    updatedAt: at,
    request: { prompt: `a long prompt for ${localId} `.repeat(20).trim() },
  });
}

const item = (record: TaskRecord, live: LiveState | null = LIVE): TaskItem => ({ record, live });

describe('TaskUpdates', () => {
  it('sends a poll that moved only bookkeeping as a live part, without the record', async () => {
    const { clock, sink, sent } = updates();
    const first = running('t1', 1, 1_000);
    sink.updated(item(first));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    const polled = { ...first, polls: 2, lastPolledAt: 4_000, updatedAt: 4_001 };
    sink.updated(item(polled, { ...LIVE, nextPollAt: 7_000, progress: 30 }));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent()).toEqual([
      { change: 'task', record: first, live: LIVE },
      {
        change: 'live',
        localId: 't1',
        updatedAt: 4_001,
        polls: 2,
        lastPolledAt: 4_000,
        live: { ...LIVE, nextPollAt: 7_000, progress: 30 },
      },
    ]);
    expect(JSON.stringify(sent()[1])).not.toContain('long prompt');
  });

  it.each<[string, (record: TaskRecord) => TaskRecord]>([
    ['its status', (record) => ({ ...record, status: 'completed', finishedAt: 5_000 })],
    ['a hold', (record) => ({ ...record, hold: 'timed_out' })],
    ['its error', (record) => ({ ...record, error: { kind: 'network', message: 'Offline.' } })],
    ['its cost', (record) => ({ ...record, cost: { source: 'not_billed' } })],
    [
      'its images',
      (record) => ({ ...record, images: [] as TaskRecord['images'], favourite: true }),
    ],
    ['the model it reported', (record) => ({ ...record, reportedModel: 'pictor-2' })],
  ])('sends the whole record when %s changed with the poll', async (_, change) => {
    const { clock, sink, sent } = updates();
    const first = running('t1', 1, 1_000);
    sink.updated(item(first));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    const next = change({ ...first, polls: 2, lastPolledAt: 4_000, updatedAt: 4_001 });
    sink.updated(item(next));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().at(-1)).toEqual({ change: 'task', record: next, live: LIVE });
  });

  it('compares with the record last sent whole, so live parts never hide a change', async () => {
    const { clock, sink, sent } = updates();
    const first = running('t1', 1, 1_000);
    sink.updated(item(first));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    // Three polls between batches: bookkeeping only, whatever happened in between.
    for (let poll = 2; poll <= 4; poll += 1) {
      sink.updated(
        item({ ...first, polls: poll, lastPolledAt: poll * 1_000, updatedAt: poll * 1_000 }),
      );
    }
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().map((change) => change.change)).toEqual(['task', 'live']);
    expect(sent()[1]).toMatchObject({ polls: 4 });
    // A change of hold, then back: the page was sent neither, and the last state is bookkeeping.
    sink.updated(item({ ...first, hold: 'awaiting_key', updatedAt: 5_000 }));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    sink.updated(item({ ...first, polls: 5, updatedAt: 6_000 }));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().map((change) => change.change)).toEqual(['task', 'live', 'task', 'task']);
  });

  it('sends a finished task whole, and forgets it (a later change is whole again)', async () => {
    const { clock, sink, sent } = updates();
    const done = { ...running('t1', 3, 1_000), status: 'completed' as const, finishedAt: 2_000 };
    sink.updated(item(done, null));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    sink.updated(item({ ...done, updatedAt: 3_000 }, null));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().map((change) => change.change)).toEqual(['task', 'task']);
  });

  it('a removal after an update of the same task wins; an Undo after the removal wins', async () => {
    const { clock, sink, sent, messages } = updates();
    sink.updated(item(running('a', 1, 1_000)));
    sink.updated(item(running('b', 1, 1_000)));
    sink.updated(item(running('a', 2, 2_000)));
    sink.removed('a');
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(messages).toHaveLength(1);
    expect(sent()).toEqual([
      { change: 'removed', localId: 'a' },
      { change: 'task', record: running('b', 1, 1_000), live: LIVE },
    ]);
    sink.removed('b');
    const back = running('b', 1, 1_000);
    sink.updated(item(back));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().at(-1)).toEqual({ change: 'task', record: back, live: LIVE });
    expect(messages).toHaveLength(2);
  });

  it('a refused submit replaces the record of its submit: the page gets the refusal once', async () => {
    const { clock, sink, sent } = updates();
    const submitting = { ...running('r1', 0, 1_000), status: 'submitting' as const };
    sink.updated(item(submitting));
    sink.refused({
      localId: 'r1',
      request: submitting.request,
      kind: 'auth',
      message: 'The service refused the API key (401).',
    });
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent()).toEqual([
      {
        change: 'refused',
        localId: 'r1',
        request: submitting.request,
        kind: 'auth',
        message: 'The service refused the API key (401).',
      },
    ]);
  });

  it(`splits a batch larger than the contract's cap (${MAX_TASK_CHANGES}) into messages sent together`, async () => {
    const { clock, sink, messages } = updates();
    for (let n = 0; n < 1_200; n += 1) sink.removed(`gone-${n}`);
    await clock.advance(0);
    expect(messages.map((message) => message.changes.length)).toEqual([500, 500, 200]);
    expect(messages.map((message) => message.at)).toEqual([0, 0, 0]);
    expect(messages.flatMap((message) => message.changes)[1_199]).toEqual({
      change: 'removed',
      localId: 'gone-1199',
    });
  });

  it('leaves out alone a change the contract refuses, and logs it', async () => {
    const { clock, sink, sent, logged } = updates();
    const broken = { ...running('bad', 1, 1_000), status: 'lost' } as unknown as TaskRecord;
    sink.updated(item(running('good-1', 1, 1_000)));
    sink.updated(item(broken));
    sink.updated(item(running('good-2', 1, 1_000)));
    await clock.advance(0);
    expect(sent().map((change) => (change.change === 'task' ? change.record.localId : ''))).toEqual(
      ['good-1', 'good-2'],
    );
    expect(logged).toContain('task change dropped: does not match the contract');
    // Sent whole next time: it was never the page's.
    sink.updated(item({ ...running('bad', 2, 2_000) }));
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    expect(sent().at(-1)).toMatchObject({ change: 'task' });
  });

  it('parses each change once: the message made of the parsed changes is not parsed again on its way out', async () => {
    const { clock, sink, sent } = updates();
    const extra = { ...running('extra', 1, 1_000), notInTheContract: 'dropped' } as TaskRecord;
    const message = vi.spyOn(events['tasks:updated'], 'safeParse');
    try {
      sink.updated(item(running('one', 1, 1_000)));
      sink.updated(item(extra));
      sink.removed('two');
      await clock.advance(0);
      expect(sent()).toHaveLength(3);
      // Stripped to the contract all the same.
      expect(JSON.stringify(sent())).not.toContain('notInTheContract');
      expect(message).not.toHaveBeenCalled();
    } finally {
      message.mockRestore();
    }
  });

  it('sends what waits when the wiring ends (a quit), and nothing after', async () => {
    const { clock, sink, sent } = updates();
    sink.updated(item(running('a', 1, 1_000)));
    await clock.advance(0);
    const last = { ...running('a', 2, 2_000), status: 'completed' as const, finishedAt: 2_000 };
    sink.updated(item(last, null));
    expect(sent()).toHaveLength(1);
    sink.dispose();
    expect(sent().at(-1)).toEqual({ change: 'task', record: last, live: null });
    sink.updated(item(running('b', 1, 1_000)));
    await clock.advance(1_000);
    expect(sent()).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('200 tasks polled every 3 s reach the page in at most 10 messages a second', async () => {
    const { clock, sink, messages, sent } = updates();
    const tasks = Array.from({ length: 200 }, (_, n) => running(`t${n}`, 0, 0));
    const state = new Map(tasks.map((record) => [record.localId, record]));
    // Each task polls at its own phase of the 3 s interval, for 30 s: 2,000 changes.
    for (let ms = 0; ms < 30_000; ms += 15) {
      for (const [n, record] of tasks.entries()) {
        if ((n * 15) % 3_000 !== ms % 3_000) continue;
        const polled = state.get(record.localId)!;
        const next = { ...polled, polls: polled.polls + 1, lastPolledAt: ms, updatedAt: ms };
        state.set(record.localId, next);
        sink.updated(item(next));
      }
      await clock.advance(15);
    }
    await clock.advance(TASK_UPDATES_INTERVAL_MS);
    const perSecond = new Map<number, number>();
    for (const { at } of messages)
      perSecond.set(Math.floor(at / 1_000), (perSecond.get(Math.floor(at / 1_000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(10);
    // Every task's last poll arrived; after its first record, only live parts were sent.
    expect(sent().filter((change) => change.change === 'task')).toHaveLength(200);
    const lastPolls = new Map<string, number>();
    for (const change of sent()) {
      if (change.change === 'live') lastPolls.set(change.localId, change.polls);
    }
    expect([...lastPolls.values()].every((polls) => polls === 10)).toBe(true);
    expect(lastPolls.size).toBe(200);
  });
});
