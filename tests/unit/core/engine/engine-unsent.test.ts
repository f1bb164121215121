/**
 * Tasks stored but never sent (electron/core/engine/send-mark.ts): a restart sends them, their
 * first submit; a task whose request may have left is never sent again, whatever wrote it.
 */
import { describe, expect, it } from 'vitest';
import { TaskEngine } from '../../../../electron/core/engine/task-engine';
import type { EngineServiceClient } from '../../../../electron/core/engine/engine-types';
import { newTaskRecord, type TaskRecord } from '../../../../shared/domain/task-record';
import { syncFingerprint } from '../../../fakes/static-credentials';
import { BASE_URL, TARGET, engineHarness } from './engine-harness';

type Harness = ReturnType<typeof engineHarness>;

/** A request that never answers: out on the network when the process ends. */
const inFlight = (): Promise<never> => new Promise<never>(() => undefined);

/** A task as a process stored it before sending; `sendState` as given (absent: an older version's). */
function storedTask(localId: string, fields: Partial<TaskRecord> = {}): TaskRecord {
  const record = newTaskRecord(
    {
      localId,
      taskId: null,
      origin: 'submitted',
      endpoint: BASE_URL,
      account: syncFingerprint('sk-alice'),
      request: { prompt: `stored ${localId}` },
    },
    Date.UTC(2026, 0, 15, 11, 0, 0),
  );
  return { ...record, ...fields };
}

function statuses(h: Harness): Record<string, string> {
  return Object.fromEntries(h.history.all().map((record) => [record.localId, record.status]));
}

describe('TaskEngine: tasks stored but never sent', () => {
  it('sends the unsent tasks of a batch after a crash, once each; the others are never sent again', async () => {
    const h = engineHarness();
    // The first is taken; the next four stay out (four requests at once to one address); the
    // last two wait for a slot when the process ends.
    h.client.submitSteps = [() => Promise.resolve(undefined as never), ...Array(4).fill(inFlight)];
    await h.engine.submit({ prompt: 'seven at once' }, TARGET, 7);
    await h.clock.advance(0);
    expect(h.client.submits).toHaveLength(5);
    const queued = h.history.all().filter((record) => record.sendState === 'queued');
    expect(queued.map((record) => record.status)).toEqual(['submitting', 'submitting']);

    await h.restart();
    await h.clock.advance(30_000);
    expect(h.client.submits).toHaveLength(7);
    const after = h.history.all();
    expect(after.filter((record) => record.status === 'completed')).toHaveLength(3);
    expect(after.filter((record) => record.status === 'submit_unknown')).toHaveLength(4);
    for (const { localId } of queued) {
      const record = h.history.get(localId);
      // The same task, its batch kept: sent under its own id, the mark gone once accepted.
      expect(record).toMatchObject({ status: 'completed', batchId: 'local-1' });
      expect(record?.sendState).toBeUndefined();
    }
    // The accepted one was polled on, never sent again.
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', taskId: 'task-1' });
  });

  it('never sends a task again when the process ended between its mark and its request', async () => {
    const h = engineHarness();
    const editMany = h.history.editMany.bind(h.history);
    let crashed = false;
    h.history.editMany = (...args) => {
      const written = editMany(...args);
      // The mark is on disk; the process ends before the request is handed over.
      if (!crashed && written.some((record) => record.sendState === 'sent')) {
        crashed = true;
        void h.restart();
      }
      return written;
    };
    await h.engine.submit({ prompt: 'crash after the mark' }, TARGET);
    await h.clock.advance(60_000);
    expect(crashed).toBe(true);
    expect(h.client.submits).toHaveLength(0);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submit_unknown',
      error: { kind: 'interrupted' },
    });
  });

  it('keeps today’s rule for a record of an earlier version, which has no mark', async () => {
    const h = engineHarness();
    h.history.put(storedTask('old-in-flight'));
    h.history.put(
      storedTask('old-after-429', {
        error: { kind: 'rate_limited', message: 'Too many requests.', httpStatus: 429 },
      }),
    );
    await h.restart();
    await h.clock.advance(60_000);
    expect(statuses(h)).toEqual({
      'old-in-flight': 'submit_unknown',
      'old-after-429': 'submit_failed',
    });
    expect(h.client.submits).toHaveLength(0);
  });

  it('never sends on the word of an imported record, or of a mark it cannot read', async () => {
    const h = engineHarness();
    h.history.put(storedTask('imported', { sendState: 'queued', imported: true }));
    h.history.put(storedTask('marked-sent', { sendState: 'sent' }));
    await h.restart();
    await h.clock.advance(60_000);
    expect(statuses(h)).toEqual({ imported: 'submit_unknown', 'marked-sent': 'submit_unknown' });
    expect(h.client.submits).toHaveLength(0);
  });

  it('sends nothing when the history refuses the mark, and sends it after a restart', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'no room for the mark' }, TARGET);
    h.history.failWrites = true;
    await h.clock.advance(0);
    expect(h.client.submits).toHaveLength(0);
    expect(h.engine.get('local-1')).toMatchObject({
      status: 'submit_failed',
      error: { kind: 'config', message: expect.stringMatching(/so nothing was sent/) },
    });
    // What the disk holds: stored, never sent.
    expect(h.history.get('local-1')).toMatchObject({ status: 'submitting', sendState: 'queued' });
    h.history.failWrites = false;
    await h.restart();
    await h.clock.advance(30_000);
    expect(h.client.submits).toHaveLength(1);
    expect(h.history.get('local-1')?.status).toBe('completed');
  });

  it('a command that does not resume leaves unsent tasks queued for one that does', async () => {
    const h = engineHarness();
    h.history.put(storedTask('left', { sendState: 'queued' }));
    await h.restart({ resume: false });
    await h.clock.advance(60_000);
    expect(h.history.get('left')).toMatchObject({ status: 'submitting', sendState: 'queued' });
    expect(h.client.submits).toHaveLength(0);
    await h.restart();
    await h.clock.advance(30_000);
    expect(h.history.get('left')?.status).toBe('completed');
    expect(h.client.submits).toHaveLength(1);
  });

  it('a quit while tasks wait for a slot leaves them queued, not refused, and the next start sends them', async () => {
    const h = engineHarness();
    h.client.submitSteps = [() => Promise.resolve(undefined as never), ...Array(4).fill(inFlight)];
    // As fetch does: a request out when the engine stops is abandoned.
    const submit = h.client.submit.bind(h.client);
    const abandoned: EngineServiceClient['submit'] = (credentials, request, signal) =>
      new Promise((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        submit(credentials, request).then(resolve, reject);
      });
    h.client.submit = abandoned;
    await h.engine.submit({ prompt: 'quit mid-batch' }, TARGET, 6);
    await h.clock.advance(0);
    // Another batch, whose first task waits for a slot too: its others wait for that one.
    await h.engine.submit({ prompt: 'second batch' }, TARGET, 3);
    await h.clock.advance(0);
    const stopped = h.engine.stop();
    await h.clock.advance(0);
    await stopped;
    const stored = h.history.all();
    expect(stored.filter((record) => record.sendState === 'queued')).toHaveLength(4);
    expect(stored.map((record) => record.status)).not.toContain('submit_failed');
    await h.restart();
    await h.clock.advance(30_000);
    expect(h.client.submits).toHaveLength(9);
    expect(Object.values(statuses(h)).sort()).toEqual([
      ...Array(5).fill('completed'),
      ...Array(4).fill('submit_unknown'),
    ]);
  });

  it('two engines on one history, without leases, send each unsent task once', async () => {
    const h = engineHarness();
    const ids = ['a', 'b', 'c', 'd', 'e'];
    for (const id of ids) h.history.put(storedTask(id, { sendState: 'queued' }));
    const engine = (): TaskEngine =>
      new TaskEngine({
        client: h.client,
        history: h.history,
        gallery: h.gallery,
        credentials: h.credentials,
        clock: h.clock,
        random: () => 0.5,
      });
    const [one, two] = [engine(), engine()];
    one.start();
    two.start();
    await h.clock.advance(30_000);
    expect(h.client.submits.map((submit) => submit.prompt).sort()).toEqual(
      ids.map((id) => `stored ${id}`),
    );
    expect(Object.values(statuses(h))).toEqual(ids.map(() => 'completed'));
    await Promise.all([one.stop(), two.stop()]);
  });
});
