/**
 * A demo task outlives the demo that made it: a second run of the service (the app's next launch,
 * the next `pictor resume --provider demo`) makes a task it does not hold again from what its host
 * remembers (DemoServiceOptions.recall), created when it first was, so it finishes when it would
 * have. Nothing else changes: an id the host does not know is still a 404, a task is still shown
 * to its account only, and what the host remembers passes the submit's checks first.
 */
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { recallFromHistory } from '../../../electron/demo-service/recall';
import type { DemoRecalledTask } from '../../../electron/demo-service/types';
import { RECORD_CREATED, makeTaskRecord } from '../../support/task-records';
import { TestClock, poll, pollJson, startService, submitOk } from './helpers';

describe('demo service: tasks an earlier run made', () => {
  it('makes a remembered task again, finishing when it would have, with its request', async () => {
    const clock = new TestClock();
    const first = await startService({ now: clock.now, durationMs: 1_000 });
    const id = await submitOk(first, { prompt: 'a lighthouse at dusk', size: '96x64' });
    const createdAt = clock.current;
    await first.close();
    clock.advance(400);
    const remembered = new Map<string, DemoRecalledTask>([
      [id, { prompt: 'a lighthouse at dusk', size: '96x64', createdAt }],
    ]);
    const second = await startService({
      now: clock.now,
      durationMs: 1_000,
      recall: (taskId) => remembered.get(taskId),
    });
    expect(await pollJson(second, id)).toMatchObject({
      id,
      status: 'processing',
      prompt: 'a lighthouse at dusk',
      size: '96x64',
      progress: 40,
    });
    clock.advance(600);
    const done = await pollJson(second, id);
    expect(done.status).toBe('completed');
    expect(done.output?.data).toEqual([
      { url: expect.stringContaining(second.url), width: 96, height: 64 },
    ]);
    const image = await fetch(done.output!.data[0]!.url);
    expect(image.status).toBe(200);
    expect(second.tasks()).toHaveLength(1);
  });

  it('still answers 404 for an id the host does not know, and with no recall at all', async () => {
    const recalled: string[] = [];
    const service = await startService({
      recall: (taskId) => {
        recalled.push(taskId);
        return undefined;
      },
    });
    expect((await poll(service, 'task_000000000000000000000000')).status).toBe(404);
    expect(recalled).toEqual(['task_000000000000000000000000']);
    const plain = await startService();
    expect((await poll(plain, 'task_000000000000000000000000')).status).toBe(404);
  });

  it('shows a recalled task to the asking account only, and recalls it once', async () => {
    let asked = 0;
    const service = await startService({
      accounts: [
        { account: 'alice', key: 'sk-alice' },
        { account: 'bob', key: 'sk-bob' },
      ],
      recall: () => {
        asked += 1;
        return { prompt: 'a red fox', createdAt: Date.now() };
      },
    });
    expect((await poll(service, 'task_1', 'sk-alice')).status).toBe(200);
    expect((await poll(service, 'task_1', 'sk-bob')).status).toBe(404);
    expect((await poll(service, 'task_1', 'sk-alice')).status).toBe(200);
    expect(asked).toBe(1);
  });

  it('makes nothing of a remembered request the service would refuse', async () => {
    const clock = new TestClock();
    const refused: DemoRecalledTask[] = [
      { prompt: '   ', createdAt: clock.current },
      { prompt: 'too large', size: '9000x9000', createdAt: clock.current },
      { prompt: 'bad size', size: 'big', createdAt: clock.current },
      { prompt: 'bad quality', quality: 'ultra', createdAt: clock.current },
      { prompt: 'no time', createdAt: Number.NaN },
    ];
    for (const task of refused) {
      const service = await startService({ now: clock.now, recall: () => task });
      expect((await poll(service, 'task_x')).status, JSON.stringify(task)).toBe(404);
      expect(service.tasks()).toEqual([]);
    }
  });

  it('never dates a recalled task after now (a clock that went back, a crafted time)', async () => {
    const clock = new TestClock();
    const service = await startService({
      now: clock.now,
      durationMs: 1_000,
      recall: () => ({ prompt: 'from the future', createdAt: clock.current + 3_600_000 }),
    });
    expect(await pollJson(service, 'task_y')).toMatchObject({ status: 'processing', progress: 0 });
    clock.advance(1_000);
    expect((await pollJson(service, 'task_y')).status).toBe('completed');
  });
});

describe('what the demo recalls from Pictor’s history', () => {
  /** A history holding `records`, found as HistoryStore.getByTaskId finds them. */
  function historyOf(...records: TaskRecord[]) {
    return {
      getByTaskId: (endpoint: string, taskId: string) =>
        records.find((record) => record.endpoint === endpoint && record.taskId === taskId),
    };
  }

  it('is the request of a task Pictor submitted to the demo, dated when it was submitted', () => {
    const record = makeTaskRecord({
      taskId: 'task_a',
      endpoint: 'demo:',
      status: 'processing',
      request: { prompt: 'a red fox', size: '64x64', quality: 'low', model: 'm' },
      submittedAt: RECORD_CREATED + 250,
    });
    expect(recallFromHistory(() => historyOf(record))('task_a')).toEqual({
      prompt: 'a red fox',
      size: '64x64',
      quality: 'low',
      model: 'm',
      createdAt: RECORD_CREATED + 250,
    });
  });

  it('is nothing for a task of another service, a tracked or imported one, or no history yet', () => {
    const records = [
      makeTaskRecord({ taskId: 'task_b', endpoint: 'http://127.0.0.1:4000' }),
      makeTaskRecord({ taskId: 'task_c', endpoint: 'demo:', origin: 'tracked' }),
      makeTaskRecord({ taskId: 'task_d', endpoint: 'demo:', imported: true }),
    ];
    const recall = recallFromHistory(() => historyOf(...records));
    for (const id of ['task_b', 'task_c', 'task_d', 'task_unknown']) {
      expect(recall(id), id).toBeUndefined();
    }
    expect(recallFromHistory(() => null)('task_a')).toBeUndefined();
  });

  it('is, for the demo of a dialect, that dialect’s tasks only', () => {
    const records = [
      makeTaskRecord({ taskId: 'req_1', endpoint: 'demo:fal', provider: 'fal' }),
      makeTaskRecord({ taskId: 'req_2', endpoint: 'demo:', request: { prompt: 'contract' } }),
    ];
    const fal = recallFromHistory(() => historyOf(...records), 'demo:fal');
    expect(fal('req_1')).toMatchObject({ prompt: records[0]!.request.prompt });
    expect(fal('req_2')).toBeUndefined();
    const contract = recallFromHistory(() => historyOf(...records));
    expect(contract('req_1')).toBeUndefined();
    expect(contract('req_2')).toMatchObject({ prompt: 'contract' });
  });
});
