/**
 * Task updates under load, through the app's one wiring (wireApp) over a real AppRuntime and its
 * embedded demo service on loopback, with the main process's own emitter (createEmitter: each
 * message parsed with the contract, then sent to the window's webContents): 200 tasks submitted
 * at once and polled every second reach the page in at most 10 messages a second, and the page,
 * applying every message as the renderer does, ends with each task's final record.
 *
 * The runtime, its demo service and the wiring's batches run on one manual clock, moved only while
 * the core is idle (ClockDriver: no request in flight, no task mid-poll or mid-download): the
 * tasks' 2.5 to 4 s and the polls' second pass in clock time, and a message's time is the clock's.
 * On the real clock the file waited those seconds, and on a loaded machine its polls fell behind
 * the tasks (370 polls for 200 tasks at load 22: a task that ended before its second poll).
 */
import type { WebContents } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmitter, type HandlerContext } from '../../../electron/ipc/ipc-main-bridge';
import { silentLogger } from '../../../electron/ports/logger';
import type { TaskChange, TaskItem } from '../../../shared/ipc/contract';
import { MAX_TASK_CHANGES } from '../../../shared/ipc/task-changes';
import { withLivePart } from '../../../renderer/store/records-table';
import { fresher } from '../../../renderer/store/records-table';
import { wiredIpc } from '../../support/wired-ipc';
import { DEMO_TARGET } from '../../support/submit-target';
import { busiestSecond } from '../../support/busiest-second';
import { ClockDriver } from '../../hardening/support/clock-driver';
import { UNTIL } from '../../support/waits';
import { OWNERS_UNREAD } from '../../support/owners-unread';

const TASKS = 200;
const POLL_MS = 1_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the window received: each message's time and its changes. */
interface Received {
  readonly at: number;
  readonly changes: TaskChange[];
}

/** The page's view of the tasks, built from the messages alone (as the renderer applies them). */
function pageView(messages: readonly Received[]): Map<string, TaskItem> {
  const tasks = new Map<string, TaskItem>();
  for (const { changes } of messages) {
    for (const change of changes) {
      if (change.change === 'task') {
        const known = tasks.get(change.record.localId);
        const item = { record: change.record, live: change.live };
        tasks.set(change.record.localId, known ? fresher(known, item) : item);
      } else if (change.change === 'live') {
        const known = tasks.get(change.localId);
        if (known) tasks.set(change.localId, withLivePart(known, change));
      } else {
        tasks.delete(change.localId);
      }
    }
  }
  return tasks;
}

async function wiredWindow(driver: ClockDriver) {
  const received: Received[] = [];
  const others: string[] = [];
  const contents = {
    isDestroyed: () => false,
    send: (channel: string, payload: unknown) => {
      if (channel === 'tasks:updated') {
        received.push({ at: driver.clock.now(), changes: payload as TaskChange[] });
      } else others.push(channel);
    },
  } as unknown as WebContents;
  const { runtime, wiring } = await wiredIpc(cleanups, {
    prefix: 'pictor-updates-load-',
    runtime: () => ({
      clock: driver.coreClock,
      localServers: OWNERS_UNREAD,
      fetch: driver.fetch,
      demo: { durationMs: { min: 2_500, max: 4_000 }, now: () => driver.clock.now() },
      pollIntervalMs: POLL_MS,
    }),
    wiring: () => ({ emit: createEmitter(() => contents, silentLogger) }),
  });
  return { runtime, wiring, received };
}

const context = { sender: {} as WebContents } satisfies HandlerContext;

/**
 * Moves the clock from timer to timer until `done`, each move once the core is idle
 * (ClockDriver.idle), looking again every millisecond of real time: ClockDriver's own wait
 * looks at every turn of the event loop, which with 200 tasks under way kept this thread busy
 * while the answer worker and the disk did the work.
 */
async function runQuietly(driver: ClockDriver, done: () => boolean): Promise<void> {
  const end = driver.clock.now() + 10 * 60_000;
  const look = () => new Promise((resolve) => setTimeout(resolve, 1));
  for (;;) {
    while (!driver.idle()) await look();
    if (done()) return;
    const next = driver.clock.nextDue();
    // No timer due: what is left runs off the clock (the last records written in the history's
    // worker before whenSettled resolves); the test's limit ends a hang.
    if (next === null) await look();
    else if (next > end) throw new Error('the tasks did not settle');
    else await driver.clock.advance(next - driver.clock.now());
  }
}

describe('task updates under load', () => {
  it(`${TASKS} tasks polling reach the page in at most 10 messages a second, and every final state arrives`, async () => {
    const driver = new ClockDriver();
    const app = await wiredWindow(driver);
    const ids: string[] = [];
    for (let n = 0; n < TASKS / 10; n += 1) {
      const items = await app.wiring.handlers['tasks:submit'](
        { request: { prompt: `under load ${n}`, size: '64x64' }, target: DEMO_TARGET, count: 10 },
        context,
      );
      ids.push(...items.map((item) => item.record.localId));
    }
    // Every submit goes out before the clock moves (none waits on it here: no cap, no refusal):
    // its way to the service (the key, the history's worker) is real time, which a clock moved
    // meanwhile would pass by.
    await vi.waitFor(
      () =>
        expect(ids.filter((id) => app.runtime.core.history.get(id)?.taskId == null)).toEqual([]),
      UNTIL,
    );
    driver.watch(app.runtime.core.engine, ids);
    const settling = app.runtime.core.engine.whenSettled(ids);
    let done = false;
    void settling.then(() => (done = true));
    await runQuietly(driver, () => done);
    const settled = await settling;
    expect(settled.map((record) => record.status)).toEqual(ids.map(() => 'completed'));
    // The last batch goes within an interval; before a quit it goes at once.
    await app.wiring.beforeQuit(0);

    const times = app.received.map((message) => message.at);
    expect(busiestSecond(times)).toBeLessThanOrEqual(10);
    for (const { changes } of app.received) {
      expect(changes.length).toBeLessThanOrEqual(MAX_TASK_CHANGES);
    }
    const changes = app.received.flatMap((message) => message.changes);
    // Far fewer changes than the engine made: each task once per batch.
    const polls = settled.reduce((sum, record) => sum + record.polls, 0);
    expect(polls).toBeGreaterThanOrEqual(TASKS * 2);
    // The polls that moved nothing else went without the record and its prompt.
    const live = changes.filter((change) => change.change === 'live');
    expect(live.length).toBeGreaterThan(0);
    for (const part of live) expect(JSON.stringify(part)).not.toContain('under load');

    const page = pageView(app.received);
    expect([...page.keys()].sort()).toEqual([...ids].sort());
    for (const record of settled) {
      expect(page.get(record.localId)?.record).toEqual(
        app.runtime.core.history.get(record.localId),
      );
    }
  }, 120_000);
});
