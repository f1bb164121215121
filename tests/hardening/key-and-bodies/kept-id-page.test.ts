/**
 * The page asks before the app's sweep (app/kept-key-sweep.ts) has reached the tasks a library
 * kept under an id that carries a key: its task list, a search, its gallery, each task, the Costs
 * screen and the task updates a change of those tasks sends. None of it holds the key, in any
 * encoding a typed id can carry, and every row still goes out, its id (and what was made from the
 * id: a tracked task's prompt, the addresses the service gave) as the sweep will leave it
 * (app/kept-id-page.ts, at the one wiring's answers and events).
 *
 * The sweep is held: closed as the app starts, before it cleaned anything (the control: the
 * engine's record still holds the id as kept); so is the sweep of a row another process writes
 * while the app runs (the change feed's, some milliseconds later). The app is the recorded one
 * over a real library (kept-id-world.ts). The guard itself is also driven alone: a payload holding
 * a task id waits for the keys while they are unread, events keep their order behind it, and what
 * holds no key is handed on as it is (the same objects: nothing is copied on the page's path).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeptIdPage } from '../../../electron/app/kept-id-page';
import { scrubKey } from '../../../electron/core/secrets';
import { UNTIL } from '../../support/waits';
import { ENCODINGS, keptIdEncodings } from './key-encodings';
import {
  endWorlds,
  everywhere,
  firstRun,
  ipcLeaks,
  keepUnder,
  newWorld,
  ok,
  pageReads,
  start,
  withHistory,
  type World,
} from './kept-id-world';

const KEY = 'sk-kept-page-3c9e71f0a25b84d6e1';

/** The encodings a task id can carry past the task id rule (keptIdEncodings). */
const ID_ENCODINGS = keptIdEncodings(KEY);

afterEach(endWorlds);

/** The task as tracked before ids were checked: its prompt and its service's address made from `id`. */
function keepTracked(world: World, localId: string, id: string): void {
  withHistory(world, (history) => {
    const record = history.get(localId)!;
    const prompt = `Task ${id} (created outside Pictor)`;
    const poll = `${world.service.url}/v1/tasks/${encodeURIComponent(id)}`;
    history.put({ ...record, origin: 'tracked', request: { ...record.request, prompt } });
    history.put({ ...history.get(localId)!, handles: { poll } });
  });
}

describe('the page, asked before the sweep reached tasks kept under a key-carrying id', () => {
  it('receives every row with no key in any encoding: lists, search, gallery, tasks, costs, updates', async () => {
    const world = await newWorld(KEY);
    const tasks = await firstRun(world, ID_ENCODINGS.length);
    const ids = ID_ENCODINGS.map((encoding, n) => `task-${ENCODINGS[encoding]!(KEY, n)}`);
    for (const [n, id] of ids.entries()) await keepUnder(world, tasks[n]!.localId, id);
    const tracked = tasks[0]!.localId;
    keepTracked(world, tracked, ids[0]!);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      await app.runtime.keptIds.close();
      expect(app.runtime.core.engine.get(tracked)!.taskId).toBe(ids[0]);
      await pageReads(app, tasks);
      const search = await app.invoke('tasks:list', { search: 'outside Pictor' });
      expect((search as { value: { items: unknown[] } }).value.items).toHaveLength(1);
      const localIds = tasks.map((task) => task.localId);
      // A change of each task by the engine (as a poll, a download, a rating make) goes to the page.
      for (const localId of localIds)
        app.runtime.core.engine.edit(localId, (record) => ({ ...record, favourite: true }));
      await vi.waitFor(() => {
        const updates = world.ipc.filter((record) => record.channel === 'tasks:updated');
        expect(localIds.every((id) => updates.some((record) => record.text.includes(id)))).toBe(
          true,
        );
      }, UNTIL);

      expect(ipcLeaks(world, KEY)).toEqual([]);
      const answer = await app.invoke('tasks:get', { localId: tracked });
      const { record } = (answer as { value: { record: Record<string, never> } }).value;
      expect(record).toMatchObject({
        taskId: scrubKey(ids[0]!, KEY),
        request: { prompt: scrubKey(`Task ${ids[0]!} (created outside Pictor)`, KEY) },
      });
      expect(record['taskId']).toContain('[redacted]');
    } finally {
      await app.close();
    }
  });

  it('receives no key of a task another process wrote a moment ago, after the sweep ended', async () => {
    const world = await newWorld(KEY);
    const tasks = await firstRun(world, 2);
    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      // The change feed would sweep it in some milliseconds: held, the page asks first.
      await app.runtime.keptIds.close();
      const id = `task-${ENCODINGS['hexUpper']!(KEY, 0)}`;
      withHistory(world, (history) =>
        history.put({ ...history.get(tasks[1]!.localId)!, taskId: id }),
      );
      expect(withHistory(world, (history) => history.get(tasks[1]!.localId)?.taskId)).toBe(id);
      world.ipc.length = 0;
      await ok(app.invoke('tasks:list', {}));
      await ok(app.invoke('gallery:list', {}));
      await ok(app.invoke('costs:ledger', {}));
      const listed = JSON.parse(world.ipc[0]!.text) as { value: { items: unknown[] } };
      expect(JSON.stringify(listed.value.items)).toContain('[redacted]');
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('the sweep of a task tracked under a key-carrying id', () => {
  it('leaves the key in nothing made from the id: prompt, service address, files', async () => {
    const world = await newWorld(KEY);
    const tasks = await firstRun(world, 2);
    const ids = [`task-${KEY}`, `task-${ENCODINGS['base64']!(KEY, 1)}`];
    for (const [n, id] of ids.entries()) {
      await keepUnder(world, tasks[n]!.localId, id);
      keepTracked(world, tasks[n]!.localId, id);
      // The old files as an old app wrote them from the tracked record.
      await keepUnder(world, tasks[n]!.localId, id);
    }
    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      for (const task of tasks) {
        const record = app.runtime.core.engine.get(task.localId)!;
        expect(record.request.prompt).toMatch(
          /^Task task-.*\[redacted\].* \(created outside Pictor\)$/,
        );
        expect(record.handles?.poll).toContain('[redacted]');
      }
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
  });
});

describe('KeptIdPage', () => {
  const row = (taskId: string) => ({ localId: 'l', taskId, request: { prompt: `Task ${taskId}` } });

  it('hands on what holds no key as the same object, and copies only a row that does', () => {
    const page = new KeptIdPage();
    page.setKeys([KEY]);
    const clean = { items: [row('task-1'), row('task-2')], nextCursor: null };
    expect(page.scrub(clean)).toBe(clean);
    const kept = { items: [row('task-1'), row(`task-${KEY}`)], nextCursor: null };
    const before = JSON.stringify(kept);
    const out = page.scrub(kept) as typeof kept;
    expect(JSON.stringify(kept)).toBe(before);
    expect(out.items[0]).toBe(kept.items[0]);
    expect(out.items[1]).toEqual({
      localId: 'l',
      taskId: 'task-[redacted]',
      request: { prompt: 'Task task-[redacted]' },
    });
  });

  it('holds a payload with a task id until the keys are read, and events in their order', async () => {
    const page = new KeptIdPage();
    const sent: string[] = [];
    const emit = page.emitter((channel: string, payload: unknown) =>
      sent.push(`${channel} ${JSON.stringify(payload)}`),
    );
    emit('settings:changed', { theme: 'dark' });
    emit('tasks:updated', [row(`task-${KEY}`)]);
    emit('keys:changed', { provider: 'pictor' });
    const answer = page.scrub({ item: row(`task-${KEY}`) });
    expect(sent).toEqual(['settings:changed {"theme":"dark"}']);
    expect(answer).toBeInstanceOf(Promise);

    page.setKeys([KEY]);
    expect(JSON.stringify(await answer)).not.toContain(KEY);
    await vi.waitFor(() => expect(sent).toHaveLength(3), UNTIL);
    expect(sent[1]).toContain('task-[redacted]');
    expect(sent[2]).toBe('keys:changed {"provider":"pictor"}');
    expect(sent.join('\n')).not.toContain(KEY);
  });

  it('lets what waits go once the keys cannot be read', async () => {
    const page = new KeptIdPage();
    const answer = page.scrub({ item: row('task-1') });
    page.release();
    expect(await answer).toEqual({ item: row('task-1') });
    expect(page.scrub({ item: row('task-2') })).toEqual({ item: row('task-2') });
  });
});
