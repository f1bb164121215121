/**
 * The app's one wiring (electron/ipc/wire-app.ts) around a real AppRuntime: every channel has a
 * handler; across gallery moves the one core stays, its engine started once, and the same
 * handlers and subscriptions reach the library in its new folder; disposing the wiring releases
 * every subscription it made.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WebContents } from 'electron';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { wiredIpc } from '../../support/wired-ipc';
import { TaskEngine } from '../../../electron/core/engine/task-engine';
import { TRASH_DIR } from '../../../electron/core/trash/gallery-trash';
import type { PictorCore } from '../../../electron/core/pictor-core';
import type { HandlerContext } from '../../../electron/ipc/ipc-main-bridge';
import { toDisposable, type Disposable } from '../../../electron/ports/disposable';
import { REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { DEMO_TARGET } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Live subscriptions to an engine's updates, however they were made: its private emitter's
 * subscriptions (the engine hands out `onDidUpdate`, an instance property, not a method to wrap).
 */
function engineSubscriptions(engine: TaskEngine): number {
  return engine['updated']['subscriptions'].size;
}
/** Calls of `start` per engine (wrapped on the prototype). */
const engineStarts = new Map<TaskEngine, number>();
const start = TaskEngine.prototype.start;
TaskEngine.prototype.start = function (this: TaskEngine, options) {
  engineStarts.set(this, (engineStarts.get(this) ?? 0) + 1);
  start.call(this, options);
};
afterAll(() => {
  TaskEngine.prototype.start = start;
});

/** Counts the subscriptions made through `target[method]` from now on that are not released. */
function countLive<T extends object>(target: T, method: keyof T & string): () => number {
  let live = 0;
  const original = (target[method] as (...args: unknown[]) => Disposable).bind(target);
  Object.assign(target, {
    [method]: (...args: unknown[]) => {
      const subscription = original(...args);
      live += 1;
      let released = false;
      return toDisposable(() => {
        if (!released) live -= 1;
        released = true;
        subscription.dispose();
      });
    },
  });
  return () => live;
}

async function wiredApp(faults: { beforeCopy?: () => void } = {}) {
  // What the main process's folder dialog answers next (set once the folder is known).
  const dialog = { answer: '' };
  const observed: PictorCore[] = [];
  let live: Record<string, () => number> = {};
  // The OS stand-ins come first: the runtime's core is given their system trash.
  const { runtime, os, wiring, emitted, dir } = await wiredIpc(cleanups, {
    prefix: 'pictor-wire-',
    env: () => ({ PICTOR_E2E_CHOOSE_FOLDER: dialog.answer }),
    runtime: (os, dir) => ({
      defaultGalleryDir: join(dir, 'Pictures', 'Pictor'),
      demo: { durationMs: 200 },
      libraryFaults: { beforeCopy: () => faults.beforeCopy?.() },
      systemTrash: os.systemTrash,
    }),
    wiring: (_os, runtime) => {
      // Counted from before the wiring subscribes.
      live = {
        keyChanges: countLive(runtime.vault, 'onDidChange'),
        settingsChanges: countLive(runtime.settings, 'onDidChange'),
        demoChanges: countLive(runtime.credentials, 'onDemoChange'),
      };
      return {
        observeCore: (core) => {
          observed.push(core);
          return core.engine.onDidUpdate(() => undefined);
        },
      };
    },
  });
  const moveTo = join(dir, 'Elsewhere');
  dialog.answer = moveTo;
  const liveCounts = () =>
    Object.fromEntries(Object.entries(live).map(([name, count]) => [name, count()]));
  return { runtime, os, wiring, emitted, observed, liveCounts, moveTo, dialog, dir };
}

const context = { sender: {} as WebContents } satisfies HandlerContext;

describe('wireApp', () => {
  it('has a handler for every request channel of the contract, and nothing else', async () => {
    const { wiring } = await wiredApp();
    expect(Object.keys(wiring.handlers).sort()).toEqual([...REQUEST_CHANNEL_NAMES].sort());
  });

  it('across several gallery moves the one core stays, its engine started once, its subscriptions kept', async () => {
    const earlier = new Set(engineStarts.keys());
    const app = await wiredApp();
    const { handlers } = app.wiring;
    const core = app.runtime.core;
    const [first] = await handlers['tasks:submit'](
      { request: { prompt: 'before', size: '64x64' }, target: DEMO_TARGET, count: 1 },
      context,
    );
    await core.engine.whenSettled([first!.record.localId]);
    expect(engineSubscriptions(core.engine)).toBe(2);

    const folders = [app.moveTo, join(app.dir, 'Second'), join(app.dir, 'Third')];
    for (const folder of folders) {
      app.dialog.answer = folder;
      const { choice } = await handlers['library:pick'](undefined, context);
      expect(choice).toMatchObject({ path: folder, library: { tasks: 0 } });
      expect(await handlers['library:move']({ ticket: choice!.ticket }, context)).toMatchObject({
        outcome: 'moved',
        path: folder,
        moved: 1,
      });
      expect(app.runtime.core).toBe(core);
      expect(core.gallery.root).toBe(folder);
    }
    // One engine, started once, whatever the number of moves; the host observed it once.
    const started = [...engineStarts].filter(([engine]) => !earlier.has(engine));
    expect(started).toEqual([[core.engine, 1]]);
    expect(app.observed).toEqual([core]);
    expect(app.emitted.filter(([channel]) => channel === 'gallery:changed')).toHaveLength(3);
    expect(engineSubscriptions(core.engine)).toBe(2);

    const listed = await handlers['tasks:list']({}, context);
    expect(listed.items.map((item) => item.record.localId)).toEqual([first!.record.localId]);
    await handlers['gallery:reveal']({ localId: first!.record.localId, index: 0 }, context);
    const revealed = app.os.calls
      .filter((call) => call.action === 'reveal')
      .map((call) => call.arg);
    expect(revealed).toHaveLength(1);
    expect(revealed[0]!.startsWith(`${folders[2]!}/`)).toBe(true);

    const updates = () => app.emitted.filter(([channel]) => channel === 'tasks:updated').length;
    const updatesBefore = updates();
    const [second] = await handlers['tasks:submit'](
      { request: { prompt: 'after', size: '64x64' }, target: DEMO_TARGET, count: 1 },
      context,
    );
    const [done] = await core.engine.whenSettled([second!.record.localId]);
    expect(done!.status).toBe('completed');
    expect(existsSync(core.gallery.resolve(done!.images[0]!.file!))).toBe(true);
    expect(core.gallery.resolve(done!.images[0]!.file!).startsWith(`${folders[2]!}/`)).toBe(true);
    // The page hears of it in its next batch of task changes.
    const completed = () =>
      app.emitted.some(
        ([channel, changes]) =>
          channel === 'tasks:updated' &&
          (changes as { record?: TaskRecord }[]).some(
            (change) =>
              change.record?.localId === second!.record.localId &&
              change.record.status === 'completed',
          ),
      );
    await expect.poll(completed, UNTIL).toBe(true);
    expect(updates()).toBeGreaterThan(updatesBefore);
  });

  it('sends images held for Undo to the system trash before the library changes folder', async () => {
    const app = await wiredApp();
    const { handlers } = app.wiring;
    const [task] = await handlers['tasks:submit'](
      { request: { prompt: 'held', size: '64x64' }, target: DEMO_TARGET, count: 1 },
      context,
    );
    await app.runtime.core.engine.whenSettled([task!.record.localId]);
    const images = [{ localId: task!.record.localId, index: 0 }];
    const oldRoot = app.runtime.galleryDir();
    expect((await handlers['gallery:deleteImages']({ images }, context)).failed).toBe(0);
    const trashed = () => app.os.calls.filter((call) => call.action === 'trash');
    expect(trashed()).toEqual([]);

    const { choice } = await handlers['library:pick'](undefined, context);
    await handlers['library:move']({ ticket: choice!.ticket }, context);
    expect(app.runtime.galleryDir()).toBe(app.moveTo);
    // The held file went to the system trash from the old folder, before it stopped being the gallery.
    expect(trashed()).toHaveLength(1);
    expect(trashed()[0]!.arg.startsWith(join(oldRoot, TRASH_DIR))).toBe(true);
    expect(existsSync(trashed()[0]!.arg)).toBe(false);
    const late = await handlers['gallery:undoDelete']({ images }, context);
    expect(late).toMatchObject({ items: [], failed: 1 });
  });

  it('a delete asked for during a move waits for it and holds the image in the new folder', async () => {
    const faults: { beforeCopy?: () => void } = {};
    const app = await wiredApp(faults);
    const { handlers } = app.wiring;
    const [task] = await handlers['tasks:submit'](
      { request: { prompt: 'deleted mid-move', size: '64x64' }, target: DEMO_TARGET, count: 1 },
      context,
    );
    await app.runtime.core.engine.whenSettled([task!.record.localId]);
    const images = [{ localId: task!.record.localId, index: 0 }];
    let deleting: Promise<unknown> | null = null;
    let deleted = false;
    // The move is under way (its first task folder is about to be copied): the user deletes.
    faults.beforeCopy = () => {
      faults.beforeCopy = undefined;
      deleting = Promise.resolve(handlers['gallery:deleteImages']({ images }, context)).then(
        (outcome) => {
          deleted = true;
          return outcome;
        },
      );
    };
    const { choice } = await handlers['library:pick'](undefined, context);
    const applying = handlers['library:move']({ ticket: choice!.ticket }, context);
    await applying;
    expect(deleting).not.toBeNull();
    expect(await deleting).toMatchObject({ failed: 0 });
    expect(deleted).toBe(true);
    expect(existsSync(join(app.moveTo, TRASH_DIR))).toBe(true);
    // Undo brings it back into the library where it is now.
    expect(await handlers['gallery:undoDelete']({ images }, context)).toMatchObject({ failed: 0 });
    const back = app.runtime.core.engine.get(task!.record.localId)!;
    const file = app.runtime.core.gallery.resolve(back.images[0]!.file!);
    expect(file.startsWith(`${app.moveTo}/`)).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  it('tells the page how far an Undo is, puts a removed task back, and sends what is held on at quit', async () => {
    const app = await wiredApp();
    const { handlers } = app.wiring;
    const items = await handlers['tasks:submit'](
      { request: { prompt: 'undo me', size: '64x64' }, target: DEMO_TARGET, count: 2 },
      context,
    );
    const ids = items.map((item) => item.record.localId);
    await app.runtime.core.engine.whenSettled(ids);
    const images = ids.map((localId) => ({ localId, index: 0 }));
    await handlers['gallery:deleteImages']({ images }, context);
    await handlers['gallery:undoDelete']({ images }, context);
    expect(app.emitted).toContainEqual([
      'trash:progress',
      { operation: 'restore', items: 'images', done: 2, total: 2 },
    ]);

    expect(await handlers['tasks:removeMany']({ localIds: [ids[0]!] }, context)).toEqual({
      removed: [ids[0]],
      skipped: 0,
    });
    expect(app.runtime.core.history.get(ids[0]!)).toBeUndefined();
    const back = await handlers['tasks:undoRemove']({ localIds: [ids[0]!] }, context);
    expect(back).toMatchObject({ failed: 0, items: [{ record: { localId: ids[0] } }] });
    expect(app.runtime.core.history.get(ids[0]!)?.images[0]?.state).toBe('saved');

    await handlers['gallery:deleteImages']({ images: [images[1]!] }, context);
    const trashed = () => app.os.calls.filter((call) => call.action === 'trash');
    expect(trashed()).toEqual([]);
    await app.wiring.beforeQuit(1_000);
    expect(trashed()).toHaveLength(1);
  });

  it('tells the page the cost ledger changed (its version only), and the ledger read says the same', async () => {
    const app = await wiredApp();
    const { handlers } = app.wiring;
    const versions = () =>
      app.emitted
        .filter(([channel]) => channel === 'costs:changed')
        .map(([, payload]) => (payload as { version: number }).version);
    const items = await handlers['tasks:submit'](
      { request: { prompt: 'a priced kite', size: '64x64' }, target: DEMO_TARGET, count: 1 },
      context,
    );
    await app.runtime.core.engine.whenSettled(items.map((item) => item.record.localId));
    const now = () => app.runtime.core.history.costs.meta().version;
    await vi.waitFor(() => expect(versions().at(-1)).toBe(now()), UNTIL);
    const ledger = await handlers['costs:ledger']({}, context);
    expect(ledger).toMatchObject({ version: now(), total: 1 });
    await handlers['costs:setCap'](
      { period: 'day', unit: 'USD', provider: null, kind: 'soft', micros: 5 },
      context,
    );
    await vi.waitFor(() => expect(versions().at(-1)).toBe(now()), UNTIL);
    expect(now()).toBeGreaterThan(ledger.version);
  });

  it('disposing releases every subscription it made, and nothing reaches the page any more', async () => {
    const app = await wiredApp();
    const core = app.runtime.core;
    expect(Object.values(app.liveCounts()).every((count) => count > 0)).toBe(true);
    expect(engineSubscriptions(core.engine)).toBe(2);
    app.wiring.dispose();
    expect(app.liveCounts()).toEqual({
      keyChanges: 0,
      settingsChanges: 0,
      demoChanges: 0,
    });
    expect(engineSubscriptions(core.engine)).toBe(0);
    app.emitted.length = 0;
    await app.runtime.updateSettings({ theme: 'dark' });
    await app.runtime.setKey('sk-wire-test-0123456789', false);
    expect(app.emitted).toEqual([]);
  });
});
