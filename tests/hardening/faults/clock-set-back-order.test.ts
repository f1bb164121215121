/**
 * "Newest first" follows the order tasks were made in, whatever the wall clock says. The history
 * orders by the time a task was made; with the clock set back (NTP, the user) a task made after
 * the others was stamped before them and listed below them: in the task list, the gallery, the
 * CLI's `list` and MCP (the history's pages), and in the window's own merges of live changes. The
 * set-back task keeps the time the clock said as its date; it lists just above the newest. The
 * gallery's date filter and the costs by day read that date, not the list time (a clock set back a
 * day and then right again: each task under the day it was made, in the order made).
 *
 * Real core (SQLite history, gallery on disk), real demo service on loopback, one manual clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { galleryItemOf } from '../../../shared/domain/gallery-item';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { SmartRules } from '../../../shared/domain/smart-board';
import { compareFor } from '../../../renderer/store/gallery-list-model';
import { localDay } from '../../../electron/core/costs/local-periods';
import { ManualClock } from '../../fakes/manual-clock';
import { until } from '../support/clock-driver';
import { KEY, openCoreRun, type CoreRun } from './fault-harness';

const INTERVAL = 3_000;
const HOUR = 3_600_000;
/** How far the clock is set back: a second, an hour, a day, a year. */
const SET_BACKS = [1_000, HOUR, 24 * HOUR, 365 * 24 * HOUR];

let service: DemoService | undefined;
let run: CoreRun | undefined;

afterEach(async () => {
  await run?.dispose();
  await service?.close();
  [service, run] = [undefined, undefined];
});

async function start(clock: ManualClock) {
  service = await startDemoService({
    accounts: [{ account: 'orderly', key: KEY }],
    durationMs: { min: 1_000, max: 1_000 },
    imagesPerTask: 1,
    now: () => clock.now(),
  });
  run = await openCoreRun({
    baseUrl: service.url,
    fetch,
    clock,
    requestTimeoutMs: 30_000,
    engine: { pollIntervalMs: INTERVAL },
  });
  run.core.engine.start();
  return run.core;
}

/** Submits `count` tasks and moves the clock until their images are saved. */
async function made(
  clock: ManualClock,
  core: CoreRun['core'],
  prompt: string,
  count = 1,
): Promise<string[]> {
  const records = await core.engine.submit({ prompt, size: '64x64' }, run!.target, count);
  const ids = records.map((record) => record.localId);
  const saved = () => ids.every((id) => core.engine.get(id)?.images[0]?.state === 'saved');
  for (let step = 0; step < 20 && !saved(); step += 1) {
    await until(() => ids.every((id) => core.engine.get(id)?.status !== 'submitting'));
    await clock.advance(INTERVAL);
    await until(() => ids.every((id) => !core.engine.live(id).polling));
  }
  await until(saved);
  return ids;
}

describe('the wall clock set back between tasks', () => {
  it.each(SET_BACKS)('set back %i ms: the task made after lists first everywhere', async (back) => {
    const clock = new ManualClock();
    const core = await start(clock);
    const [first] = await made(clock, core, 'made first');
    const firstAt = core.history.get(first!)!.createdAt;
    // To `back` before the first task was made.
    clock.setWall(firstAt - back - clock.now());
    const later = await made(clock, core, 'made after, clock behind', 2);
    const [last] = await made(clock, core, 'made last, clock behind');
    // A submit's tasks list together, in no order of their own (the window orders them).
    const batch = (ids: readonly string[]) => [ids[0], new Set(ids.slice(1, 3)), ids[3]];
    const order = [last!, ...later, first!];

    // The history's pages: the task list, the CLI's list and MCP read these.
    const listed = core.history.list({ limit: 10 }).items.map((record) => record.localId);
    expect(batch(listed)).toEqual(batch(order));
    const page = core.history.list({ limit: 2 });
    const rest = core.history.list({ limit: 10, cursor: page.nextCursor });
    expect([...page.items, ...rest.items].map((record) => record.localId)).toEqual(listed);
    // The gallery's images, newest first and oldest first.
    const images = core.history.listImages({ limit: 10 }).items;
    expect(images.map((item) => item.localId)).toEqual(listed);
    const oldest = core.history.listImages({ limit: 10, sort: 'oldest' }).items;
    expect(oldest.map((item) => item.localId)).toEqual([...listed].reverse());
    // The window's merge of live items sorts them as main lists them.
    const live = listed.map((id) => core.history.get(id)!);
    const items = live.map((record: TaskRecord) => galleryItemOf(record, record.images[0]!));
    const sorted = [...items].reverse().sort(compareFor('newest'));
    expect(sorted.map((item) => item.localId)).toEqual(listed);

    // The tasks made behind keep the time the clock said as their date.
    for (const id of later) {
      const record = core.history.get(id)!;
      expect(record.createdAt).toBe(firstAt - back);
      expect(record.listedAt).toBeGreaterThan(firstAt);
    }
    expect(core.history.get(first!)!.listedAt).toBeUndefined();
  });

  it('a clock that is right lists tasks by the time they were made, with no list time', async () => {
    const clock = new ManualClock();
    const core = await start(clock);
    const [first] = await made(clock, core, 'first');
    const [second] = await made(clock, core, 'second');
    expect(core.history.list({ limit: 10 }).items.map((record) => record.localId)).toEqual([
      second,
      first,
    ]);
    expect(core.history.get(second!)!.listedAt).toBeUndefined();
  });
});

/** The first and last ms of the UTC day of `at`: a day of the gallery's date filter. */
function dayOf(at: number): { from: number; to: number } {
  const from = at - (at % (24 * HOUR));
  return { from, to: from + 24 * HOUR - 1 };
}

describe('the wall clock set back a day, then right again', () => {
  it('files each task under the day it was made, costs it there, and lists them as made', async () => {
    const clock = new ManualClock();
    const core = await start(clock);
    core.costs.setPrice({
      provider: 'pictor',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 40_000,
    });
    const [first] = await made(clock, core, 'made first, clock right');
    // A day back: made after the first, dated the day before it.
    clock.setWall(-24 * HOUR);
    const [behind] = await made(clock, core, 'made behind');
    // Right again, and a day on: the next day's task.
    clock.setWall(2 * 24 * HOUR);
    const [next] = await made(clock, core, 'made the next day');
    const at = (id: string) => core.history.get(id)!.createdAt;
    expect(core.history.get(behind!)!.listedAt).toBeGreaterThan(at(first!));

    const order = [next!, behind!, first!];
    expect(core.history.list({ limit: 10 }).items.map((record) => record.localId)).toEqual(order);
    expect(core.history.listImages({ limit: 10 }).items.map((item) => item.localId)).toEqual(order);
    for (const id of order) {
      const day = dayOf(at(id));
      const filtered = core.history.listImages({ ...day, limit: 10 }).items;
      expect(
        filtered.map((item) => item.localId),
        `the day ${id} was made`,
      ).toEqual([id]);
      expect(core.history.countImages(day)).toBe(1);
      const smart: SmartRules = { match: 'all', items: [{ kind: 'date', ...day }] };
      expect(core.history.listImages({ smart }).items.map((item) => item.localId)).toEqual([id]);
    }
    // Two days: the order made, not the order of the dates.
    const both = { from: dayOf(at(behind!)).from, to: dayOf(at(first!)).to };
    expect(core.history.listImages(both).items.map((item) => item.localId)).toEqual([
      behind,
      first,
    ]);

    const totals = core.costs.totals();
    const days = totals.byDay.map(({ day, tasks, micros }) => ({ day, tasks, micros }));
    const dayName = (id: string) => localDay(at(id), totals.timeZone);
    expect(days).toEqual(
      [behind!, first!, next!].map((id) => ({ day: dayName(id), tasks: 1, micros: 40_000 })),
    );
  });
});
