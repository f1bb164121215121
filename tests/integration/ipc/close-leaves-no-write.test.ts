/**
 * A quit leaves no write behind. The page may still ask while the app quits, and a handler may
 * reach the core only once its close has passed the engine: a rating asked for after the engine's
 * stop had written the last sidecars had its task's sidecar written then, by no one waited for,
 * into a library being put away (a wired test's teardown once found `gallery/.pictor-tmp` made
 * again while it removed the folder: ENOTEMPTY). Every writer of the core now
 * passes one closing gate (electron/core/base/closing-gate.ts): a user's change is refused with
 * "Pictor is closing" from the close's first moment, a file write once the engine has stopped and
 * the writes under way have ended; nothing starts after the close resolved.
 *
 * The app's real main (wired-ipc.ts: the runtime, the app's wiring, the page's calls through the
 * bridge) against the built-in demo, closed as every wired test's teardown closes it (the quit's
 * own close of the runtime, then its folders removed); the page's call is made at the step of the
 * close the test names (the engine stopped), and awaited there, so its writes come exactly then.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { DEMO_TARGET } from '../../support/submit-target';
import { wiredIpc, type WiredIpc } from '../../support/wired-ipc';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The wired main with one demo task completed, its image saved in the gallery. */
async function mainWithImage(): Promise<{ main: WiredIpc; task: TaskRecord }> {
  const main = await wiredIpc(cleanups, { prefix: 'pictor-close-write-' });
  const { engine } = main.runtime.core;
  const [made] = await engine.submit({ prompt: 'kept at quit', size: '64x64' }, DEMO_TARGET);
  const [task] = await engine.whenSettled([made!.localId]);
  expect(task?.images[0]?.state).toBe('saved');
  return { main, task: task! };
}

/**
 * The gallery's sidecar writes, each with the step of the close it started in (`now()` at its
 * start): `open` until the test's close has begun a step.
 */
function sidecarWrites(main: WiredIpc, now: () => string): string[] {
  const { gallery } = main.runtime.core;
  const started: string[] = [];
  for (const name of ['writeSidecar', 'writeTriage'] as const) {
    const write = gallery[name].bind(gallery);
    vi.spyOn(gallery, name).mockImplementation((record) => {
      started.push(`${name} (${now()})`);
      return write(record);
    });
  }
  return started;
}

/** Runs `then` once `object[method]` (a step of the close) has ended, before the close goes on. */
function after(object: object, method: string, then: () => Promise<unknown>): void {
  const steps = object as Record<string, () => unknown>;
  const step = steps[method]!.bind(object);
  steps[method] = async () => {
    await step();
    await then();
  };
}

/**
 * The wired main closed as every wired test's teardown closes it (wired-ipc.ts): the wiring, the
 * runtime, the answers still in flight, then its folders removed.
 */
async function teardown(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

describe('a quit while the page still asks', () => {
  it('refuses a rating asked for once the engine stopped: no sidecar write starts after the stop', async () => {
    const { main, task } = await mainWithImage();
    let step = 'open';
    const started = sidecarWrites(main, () => step);
    let answer: unknown;
    after(main.runtime.core.engine, 'stop', async () => {
      step = 'engine stopped';
      // A handler at work as the app quit, reaching the core only now. A small change answers
      // once its tasks are announced, their sidecars asked for; the close's later steps (the
      // history worker's end) take long enough for those writes to start (on a loaded machine).
      answer = await main.request('triage:apply', {
        images: [{ localId: task.localId, index: 0 }],
        change: { kind: 'rating', rating: 4 },
      });
      await main.runtime.core.engine.whenWritten([task.localId]);
    });
    after(main.runtime, 'close', async () => void (step = 'closed'));
    await teardown();
    // Whatever the rating asked for has ended (engine.whenWritten: its sidecar writes).
    await main.runtime.core.engine.whenWritten([task.localId]);
    expect(started.filter((write) => !write.endsWith('(open)'))).toEqual([]);
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'failed', sentence: { key: 'error.library.closing' } },
    });
  });

  it('writes within the close the sidecar of a rating asked for before it', async () => {
    const { main, task } = await mainWithImage();
    let step = 'open';
    const started = sidecarWrites(main, () => step);
    const answer = await main.request('triage:apply', {
      images: [{ localId: task.localId, index: 0 }],
      change: { kind: 'rating', rating: 5 },
    });
    expect(answer).toMatchObject({ ok: true });
    after(main.runtime, 'close', async () => void (step = 'closed'));
    await teardown();
    await main.runtime.core.engine.whenWritten([task.localId]);
    expect(started.length).toBeGreaterThan(0);
    expect(started.filter((write) => write.endsWith('(closed)'))).toEqual([]);
  });
});
