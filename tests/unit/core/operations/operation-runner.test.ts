/**
 * The core's runner of long operations, on the manual clock: one run at a time per kind (a second
 * refused with the kind's sentence, or queued), other kinds alongside, a stop signal from
 * `cancel` or the caller's own, progress passed on at most every interval on the clock and the
 * last report always, and a bounded wait for the runs of a kind (the app quits).
 */
import { describe, expect, it } from 'vitest';
import { sentence } from '../../../../shared/i18n/sentence';
import {
  OperationBusyError,
  OperationRunner,
  type Operation,
} from '../../../../electron/core/base/operation-runner';
import type { Clock } from '../../../../electron/ports/clock';
import { ManualClock, flushPromises } from '../../../fakes/manual-clock';

type Kind = 'move' | 'export' | 'delete';

function runnerOn(clock: Clock, progressEveryMs?: number) {
  return new OperationRunner<Kind>({
    clock,
    kinds: {
      move: sentence('error.gallery.moveRunning'),
      export: sentence('error.library.busy'),
      delete: 'queue',
    },
    ...(progressEveryMs === undefined ? {} : { progressEveryMs }),
  });
}

/** Work that waits until the test finishes it, and hands the test its operation. */
function held<P = never>() {
  let finish: (value: string) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  let operation: Operation<P> | undefined;
  const work = (given: Operation<P>) => {
    operation = given;
    return new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return {
    work,
    finish: (value: string) => finish(value),
    fail: (error: unknown) => fail(error),
    get operation() {
      if (!operation) throw new Error('The work has not started.');
      return operation;
    },
  };
}

describe('OperationRunner', () => {
  it('refuses a second run of a kind while one runs, with its sentence, and runs other kinds alongside', async () => {
    const runner = runnerOn(new ManualClock());
    const move = held();
    const moving = runner.run('move', move.work);

    const refused = await runner.run('move', () => Promise.resolve('second')).catch((e) => e);
    expect(refused).toBeInstanceOf(OperationBusyError);
    expect((refused as OperationBusyError).sentence?.key).toBe('error.gallery.moveRunning');
    expect(await runner.run('export', () => Promise.resolve('export alongside'))).toBe(
      'export alongside',
    );

    move.finish('moved');
    expect(await moving).toBe('moved');
    expect(await runner.run('move', () => Promise.resolve('again'))).toBe('again');
  });

  it('frees the kind when a run fails', async () => {
    const runner = runnerOn(new ManualClock());
    await expect(
      runner.run('export', () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(await runner.run('export', () => Promise.resolve('next'))).toBe('next');
  });

  it('queues the runs of a queuing kind, in the order asked', async () => {
    const runner = runnerOn(new ManualClock());
    const order: string[] = [];
    const first = held();
    const one = runner.run('delete', async (operation) => {
      order.push('first starts');
      return first.work(operation);
    });
    const two = runner.run('delete', async () => {
      order.push('second starts');
      return 'second';
    });
    await flushPromises();
    expect(order).toEqual(['first starts']);
    first.finish('first');
    expect(await Promise.all([one, two])).toEqual(['first', 'second']);
    expect(order).toEqual(['first starts', 'second starts']);
  });

  it('stops the run under way on cancel(kind), and says when none runs', async () => {
    const runner = runnerOn(new ManualClock());
    expect(runner.cancel('move')).toBe(false);
    const move = held();
    const moving = runner.run('move', move.work);
    expect(move.operation.signal.aborted).toBe(false);

    expect(runner.cancel('export')).toBe(false);
    expect(runner.cancel('move', new Error('The user cancelled.'))).toBe(true);
    expect(move.operation.signal.aborted).toBe(true);
    expect(move.operation.signal.reason).toEqual(new Error('The user cancelled.'));
    move.fail(move.operation.signal.reason);
    await expect(moving).rejects.toThrow('The user cancelled.');
    expect(runner.cancel('move')).toBe(false);
  });

  it("stops the run when the caller's own signal aborts, before or during the run", async () => {
    const runner = runnerOn(new ManualClock());
    const interrupt = new AbortController();
    const exporting = held();
    const running = runner.run('export', exporting.work, { signal: interrupt.signal });
    interrupt.abort();
    expect(exporting.operation.signal.aborted).toBe(true);
    exporting.finish('stopped');
    await running;

    const late = await runner.run('export', ({ signal }) => Promise.resolve(signal.aborted), {
      signal: interrupt.signal,
    });
    expect(late).toBe(true);
  });

  it('passes progress on at most every interval on the clock, and the last report always', async () => {
    const clock = new ManualClock();
    const runner = runnerOn(clock, 100);
    const seen: number[] = [];
    const exporting = held<{ done: number }>();
    const running = runner.run('export', exporting.work, {
      onProgress: ({ done }) => seen.push(done),
    });
    const report = (done: number, last = false) => exporting.operation.report({ done }, last);

    report(1);
    report(2);
    await clock.advance(99);
    report(3);
    await clock.advance(1);
    report(4);
    report(5);
    report(6, true);
    expect(seen).toEqual([1, 4, 6]);
    exporting.finish('done');
    await running;
  });

  it('lets a report through when the clock was set back since the one before', async () => {
    let now = 1_000_000;
    const clock = {
      now: () => now,
      setTimeout: () => ({}),
      clearTimeout: () => undefined,
      monotonic: () => now,
    };
    const runner = runnerOn(clock, 100);
    const seen: number[] = [];
    const exporting = held<{ done: number }>();
    const running = runner.run('export', exporting.work, {
      onProgress: ({ done }) => seen.push(done),
    });
    exporting.operation.report({ done: 1 });
    now -= 60_000;
    exporting.operation.report({ done: 2 });
    exporting.operation.report({ done: 3 });
    expect(seen).toEqual([1, 2]);
    exporting.finish('done');
    await running;
  });

  it('says what runs and how far it is, and waits a bounded time for a kind to drain', async () => {
    const clock = new ManualClock();
    const runner = runnerOn(clock);
    expect(runner.inFlight('delete')).toBeNull();
    expect(await runner.settle('delete', 1_000)).toBe(true);
    const deleting = held<{ done: number }>();
    const running = runner.run('delete', deleting.work);
    expect(runner.inFlight('delete')).toEqual({ progress: null });
    deleting.operation.report({ done: 3 });
    expect(runner.inFlight('delete')).toEqual({ progress: { done: 3 } });

    const gaveUp = runner.settle('delete', 30_000);
    await clock.advance(30_000);
    expect(await gaveUp).toBe(false);

    const drained = runner.settle('delete', 30_000);
    deleting.finish('deleted');
    await running;
    expect(await drained).toBe(true);
    expect(runner.inFlight('delete')).toBeNull();
    expect(clock.pending).toBe(0);
  });
});
