import { describe, expect, it } from 'vitest';
import type { EngineServiceClient } from '../../../../electron/core/engine/engine-types';
import { TARGET, engineHarness } from './engine-harness';
import { serviceError } from '../../../fakes/scripted-service-client';

describe('TaskEngine: submit', () => {
  it('stores the record before the submit request and the id as soon as it arrives', async () => {
    const h = engineHarness();
    let statusAtSubmit: string | undefined;
    h.client.submitSteps = [
      async () => {
        statusAtSubmit = h.history.get('local-1')?.status;
        return undefined as never;
      },
    ];
    const [record] = await h.engine.submit({ prompt: 'a red fox' }, TARGET);
    expect(record!.status).toBe('submitting');
    await h.clock.advance(0);
    expect(statusAtSubmit).toBe('submitting');
    const stored = h.history.get('local-1')!;
    expect(stored.status).toBe('processing');
    expect(stored.taskId).toBe('task-1');
    expect(stored.submittedAt).toBe(h.clock.now());
  });

  it('submits each of several tasks exactly once and never stores the key', async () => {
    const h = engineHarness();
    const records = await h.engine.submit({ prompt: 'three cats', size: '512x512' }, TARGET, 3);
    await h.clock.advance(60_000);
    expect(h.client.submits).toHaveLength(3);
    expect(records.map((r) => h.history.get(r.localId)!.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(JSON.stringify(h.history.all())).not.toContain('sk-alice');
  });

  it('refuses bad input before storing anything', async () => {
    const h = engineHarness();
    await expect(h.engine.submit({ prompt: '   ' }, TARGET)).rejects.toThrow(/prompt is empty/);
    await expect(h.engine.submit({ prompt: 'x', size: '12by12' }, TARGET)).rejects.toThrow(/size/);
    // The count is of tasks (each may bring several images).
    for (const count of [0, 101, 2.5]) {
      await expect(h.engine.submit({ prompt: 'x' }, TARGET, count)).rejects.toThrow(
        'The number of tasks must be a whole number from 1 to 100.',
      );
    }
    h.credentials.setKey(null);
    await expect(h.engine.submit({ prompt: 'x' }, TARGET)).rejects.toThrow(
      /no API key it may send/,
    );
    expect(h.history.all()).toHaveLength(0);
    expect(h.client.submits).toHaveLength(0);
  });

  it.each([
    ['auth', 401],
    ['credits', 402],
    ['bad_request', 400],
    ['server', 503],
  ] as const)(
    'a %s refusal (%i) is submit_failed with its reason and is not retried',
    async (kind, httpStatus) => {
      const h = engineHarness();
      h.client.submitSteps = [serviceError(kind, { httpStatus })];
      await h.engine.submit({ prompt: 'refused' }, TARGET);
      await h.clock.advance(120_000);
      const record = h.history.get('local-1')!;
      expect(record.status).toBe('submit_failed');
      expect(record.error).toMatchObject({ kind, httpStatus });
      expect(record.taskId).toBeNull();
      expect(h.client.submits).toHaveLength(1);
    },
  );

  it('an outcome that may have reached the service is submit_unknown and never resubmitted', async () => {
    const h = engineHarness();
    h.client.submitSteps = [serviceError('network', { mayHaveReachedService: true })];
    await h.engine.submit({ prompt: 'lost answer' }, TARGET);
    await h.clock.advance(300_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submit_unknown',
      error: { kind: 'network' },
    });
    expect(h.client.submits).toHaveLength(1);
    await h.restart();
    await h.clock.advance(300_000);
    expect(h.client.submits).toHaveLength(1);
  });

  it('a 429 on submit waits for Retry-After and tries again; the task is created once', async () => {
    const h = engineHarness();
    h.client.submitSteps = [
      serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 20_000 }),
    ];
    await h.engine.submit({ prompt: 'busy' }, TARGET);
    await h.clock.advance(19_000);
    expect(h.client.submits).toHaveLength(1);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submitting',
      error: { kind: 'rate_limited' },
    });
    await h.clock.advance(3_000);
    expect(h.client.submits).toHaveLength(2);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      taskId: 'task-1',
      error: null,
    });
  });

  it('gives up after the allowed number of 429s with a clear reason', async () => {
    const h = engineHarness({ maxSubmitAttempts: 3 });
    h.client.submitSteps = Array.from({ length: 5 }, () =>
      serviceError('rate_limited', { httpStatus: 429 }),
    );
    await h.engine.submit({ prompt: 'very busy' }, TARGET);
    await h.clock.advance(600_000);
    expect(h.client.submits).toHaveLength(3);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submit_failed',
      error: { kind: 'rate_limited' },
    });
  });
});

describe('TaskEngine: its shutdown signal', () => {
  it('carries hundreds of requests at once without a listener warning', async () => {
    const h = engineHarness();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    // As fetch does: a listener per request, let go only when the request is collected.
    const submit = h.client.submit.bind(h.client);
    let listened = 0;
    const listening: EngineServiceClient['submit'] = (credentials, request, signal) => {
      signal?.addEventListener('abort', () => undefined);
      listened += 1;
      return submit(credentials, request);
    };
    h.client.submit = listening;
    try {
      await h.engine.submit({ prompt: 'many at once' }, TARGET, 100);
      await h.clock.advance(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(listened).toBe(100);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('TaskEngine: restart', () => {
  it('marks a submit in flight at a crash unknown, never sent again; one waiting after a 429 took nothing and is sent', async () => {
    const h = engineHarness();
    h.client.submitSteps = [
      () => new Promise<never>(() => undefined),
      serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 60_000 }),
    ];
    await h.engine.submit({ prompt: 'in flight at crash' }, TARGET);
    await h.clock.advance(0);
    await h.engine.submit({ prompt: 'waiting at crash' }, TARGET);
    await h.clock.advance(1_000);
    await h.restart();
    expect(h.history.get('local-1')).toMatchObject({
      status: 'submit_unknown',
      error: { kind: 'interrupted' },
    });
    // Marked `queued` again when the 429 came (send-mark.ts): sent at the restart.
    await h.clock.advance(0);
    expect(h.history.get('local-2')).toMatchObject({ status: 'processing', taskId: 'task-1' });
    await h.clock.advance(120_000);
    expect(h.client.submits.map((submit) => submit.prompt)).toEqual([
      'in flight at crash',
      'waiting at crash',
      'waiting at crash',
    ]);
    expect(h.history.get('local-1')?.status).toBe('submit_unknown');
  });

  it('resumes polling processing tasks after a restart and completes them without a new submit', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'survives restart' }, TARGET, 2);
    await h.clock.advance(4_000);
    await h.restart();
    await h.clock.advance(20_000);
    expect(h.history.all().map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(h.client.submits).toHaveLength(2);
  });

  it('restarts downloads of images still pending at the crash', async () => {
    const h = engineHarness();
    h.gallery.script = () => new Promise(() => undefined);
    await h.engine.submit({ prompt: 'pending image' }, TARGET);
    await h.clock.advance(15_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'completed',
      images: [{ state: 'pending' }],
    });
    h.gallery.script = new (await import('../../../fakes/fake-gallery')).FakeGallery().script;
    await h.restart();
    await h.clock.advance(1_000);
    expect(h.history.get('local-1')!.images[0]!.state).toBe('saved');
    expect(h.client.submits).toHaveLength(1);
  });
});
