import { afterEach, describe, expect, it } from 'vitest';
import { BatchTaskActions } from '../../../electron/core/batch';
import { TaskEngine } from '../../../electron/core/engine/task-engine';
import { runHistoryOp } from '../../../electron/core/history/history-worker-ops';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { Emit, IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import { TASK_UPDATES_INTERVAL_MS, TaskUpdates } from '../../../electron/ipc/task-updates';
import { silentLogger } from '../../../electron/ports/logger';
import type { EventChannel } from '../../../shared/ipc/contract';
import { FakeGallery } from '../../fakes/fake-gallery';
import { ManualClock } from '../../fakes/manual-clock';
import { ScriptedServiceClient } from '../../fakes/scripted-service-client';
import { StaticCredentials } from '../../fakes/static-credentials';
import { trashFixture } from '../../support/trash-fixture';
import { ipcCaller } from '../../support/ipc';
import { targetAt } from '../../support/submit-target';
import { TempFolders } from '../../support/temp-folders';

const TARGET = targetAt('https://api.example.com');

const stores: HistoryStore[] = [];
/** The trash journal's folders (tests/support/trash-fixture.ts). */
const folders = new TempFolders();
afterEach(async () => {
  stores.splice(0).forEach((store) => store.close());
  await folders.removeAll();
});

function setup() {
  const clock = new ManualClock();
  const history = HistoryStore.open(':memory:');
  stores.push(history);
  const client = new ScriptedServiceClient(clock);
  const engine = new TaskEngine({
    client,
    history,
    gallery: new FakeGallery(),
    credentials: new StaticCredentials('https://api.example.com', 'sk-test'),
    clock,
    random: () => 0.5,
  });
  const emitted: [EventChannel, unknown][] = [];
  const emit = (channel: EventChannel, payload: unknown) => emitted.push([channel, payload]);
  const changes = new TaskUpdates({ clock, emit: emit as Emit, logger: silentLogger });
  // Exporting is tested over real files (tests/integration/ipc/task-batch-handlers.test.ts).
  const gallery = { root: '/no-gallery', resolve: (relative: string) => `/no-gallery/${relative}` };
  const handlers = taskHandlers({
    core: {
      engine,
      history,
      // The worker's own ops, run on this thread's store (the worker: tests/integration/ipc).
      libraryReads: {
        taskCount: async (query) => runHistoryOp(history, 'taskCount', { query }),
        taskSelection: async (query, limit) =>
          runHistoryOp(history, 'taskSelection', { query, limit }),
      },
      operations: { exportImages: () => Promise.reject(new Error('not here')) },
      // No prices, no caps: sending again is priced at nothing here (capped: tests/integration).
      costs: { previewGroup: () => ({ warnings: [], forecasts: [] }) },
      batchActions: new BatchTaskActions(engine),
    },
    chooseFolder: async () => null,
    emit,
    changes,
    trash: trashFixture({ engine, gallery }, folders.makeSync('task-handlers')).trash,
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  return { clock, client, engine, history, emitted, call };
}

describe('task IPC handlers', () => {
  it('submits, lists newest first with totals and live state, and never includes a key', async () => {
    const h = setup();
    const submitted = await h.call('tasks:submit', {
      request: { prompt: 'a fox', size: '512x512' },
      target: TARGET,
      count: 2,
    });
    expect(submitted).toMatchObject({
      ok: true,
      value: [{ record: { status: 'submitting' } }, { record: {} }],
    });
    await h.clock.advance(1_000);
    const list = await h.call('tasks:list', { limit: 1 });
    expect(list).toMatchObject({
      ok: true,
      value: { items: [{ record: { status: 'processing' }, live: { polling: false } }] },
    });
    expect(
      list.ok && list.value && (list.value as { nextCursor: string | null }).nextCursor,
    ).toBeTruthy();
    expect(JSON.stringify(list)).not.toContain('sk-test');
    expect(list.ok && Object.keys(list.value as object).sort()).toEqual(['items', 'nextCursor']);
    const cursor = list.ok ? (list.value as { nextCursor: string }).nextCursor : null;
    const next = await h.call('tasks:list', { limit: 1, cursor });
    expect(next).toMatchObject({ ok: true, value: { items: [{}], nextCursor: null } });
    // The count is its own request, so a page never waits for it.
    expect(await h.call('tasks:count', {})).toEqual({ ok: true, value: { total: 2 } });
  });

  it('searches and filters through the history', async () => {
    const h = setup();
    await h.call('tasks:submit', {
      request: { prompt: 'red lighthouse' },
      target: TARGET,
      count: 1,
    });
    await h.call('tasks:submit', { request: { prompt: 'blue whale' }, target: TARGET, count: 1 });
    await h.clock.advance(20_000);
    const found = await h.call('tasks:list', { search: 'lighthouse' });
    expect(found).toMatchObject({
      ok: true,
      value: { items: [{ record: { request: { prompt: 'red lighthouse' } }, live: null }] },
    });
    expect(await h.call('tasks:count', { search: 'lighthouse' })).toEqual({
      ok: true,
      value: { total: 1 },
    });
    const none = await h.call('tasks:list', { statuses: ['failed'] });
    expect(none).toMatchObject({ ok: true, value: { items: [] } });
    expect(await h.call('tasks:count', { statuses: ['failed'] })).toEqual({
      ok: true,
      value: { total: 0 },
    });
    // A count takes only the filter: paging fields are refused.
    expect(await h.call('tasks:count', { limit: 1 } as never)).toMatchObject({ ok: false });
  });

  it('tracks and removes (announcing the removal)', async () => {
    const h = setup();
    const [record] = await h.engine.submit({ prompt: 'keep' }, TARGET);
    await h.clock.advance(20_000);
    const outside = h.client.createTask('sk-test', 'elsewhere', 5_000);
    expect(await h.call('tasks:track', { taskId: outside })).toMatchObject({
      ok: true,
      value: { record: { origin: 'tracked', status: 'processing' } },
    });
    expect(await h.call('tasks:remove', { localId: record!.localId })).toEqual({
      ok: true,
      value: { removed: true },
    });
    // The page hears of it in its next batch of task changes.
    await h.clock.advance(TASK_UPDATES_INTERVAL_MS);
    const sent = h.emitted.flatMap(([channel, payload]) =>
      channel === 'tasks:updated' ? (payload as unknown[]) : [],
    );
    expect(sent).toContainEqual({ change: 'removed', localId: record!.localId });
    expect(await h.call('tasks:get', { localId: record!.localId })).toEqual({
      ok: true,
      value: null,
    });
    expect(await h.call('tasks:resume', { localId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'failed', message: expect.stringMatching(/not in the history/) },
    });
  });
});
