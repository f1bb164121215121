/**
 * Opening the library starts the history worker and has it ready its store for the first triage
 * write (HistoryPort.warm) before the core is handed over, so the first rating after opening does
 * not pay the thread's start and a cold write (at 1,000,000 tasks its commit took 443 ms against
 * 134-164 ms for the next ones, and main's longest stall 52.6 ms against at most 25.6 ms); then
 * the worker walks the gallery's first order, which main's pages by position take in
 * (position-prebuild.ts). A host that runs the history's operations in its own thread (the CLI)
 * starts nothing.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HISTORY_FILE, HistoryStore } from '../../../electron/core/history';
import { GALLERY_FIRST_ORDER } from '../../../electron/core/history/position-prebuild';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { ANCHOR_SPAN } from '../../../electron/core/history/position-anchors';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { record } from '../history/position-fixture';
import { offlineCore, offlineDir } from '../../support/offline-core';

let dir: string;

/** What the core's port was asked and answered, in order, with the open's end among them. */
function watchPort(): string[] {
  const events: string[] = [];
  const call = HistoryPort.prototype.call;
  vi.spyOn(HistoryPort.prototype, 'call').mockImplementation(function (
    this: HistoryPort,
    op,
    args,
  ) {
    events.push(`asked ${op}`);
    const answer = call.call(this, op, args);
    void answer.then(
      () => events.push(`answered ${op}`),
      () => events.push(`failed ${op}`),
    );
    return answer;
  });
  return events;
}

const open = async (inThread: boolean, events: string[]) => {
  const historyPort = inThread ? { historyPort: { inThread } } : {};
  const core = await offlineCore({ dir, clock: systemClock, ...historyPort });
  events.push('opened');
  return core;
};

describe('openPictorCore: the history worker warmed as the library opens', () => {
  beforeEach(async () => {
    dir = await offlineDir();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('has the worker warm its store before the core is handed over', async () => {
    const events = watchPort();
    const warm = vi.spyOn(HistoryPort.prototype, 'warm');
    await open(false, events);
    // Asked once, with nothing else before it, and answered (the worker started) before the open;
    // then the walk of the gallery's first order is asked, and not waited for.
    expect(warm).toHaveBeenCalledTimes(1);
    expect(events).toEqual(['asked warm', 'answered warm', 'asked positionAnchors', 'opened']);
  });

  it('has the worker walk the gallery’s first order for main’s pages by position', async () => {
    // 2,500 tasks of 1–3 images: one anchor of positions and some rows past it.
    await mkdir(join(dir, 'data'), { mode: 0o700 });
    const history = HistoryStore.open(join(dir, 'data', HISTORY_FILE));
    const records = Array.from({ length: 2_500 }, (_, n) => record(n));
    history.putMany(records);
    history.close();
    const events = watchPort();
    const core = await open(false, events);
    // The walk asked as the library opened is the one a first page of the gallery joins.
    expect(events.slice(0, 4)).toEqual([
      'asked warm',
      'answered warm',
      'asked positionAnchors',
      'opened',
    ]);
    expect(await core.libraryReads.positions(GALLERY_FIRST_ORDER)).toBe(true);
    expect(events.filter((event) => event === 'asked positionAnchors')).toHaveLength(1);
    expect(core.history.positions.size).toBe(1);
    const seek = vi.spyOn(core.history.positions, 'seek');
    const far = ANCHOR_SPAN + 10;
    const images = records.reduce(
      (sum, r) => sum + r.images.filter((i) => i.state !== 'deleted').length,
      0,
    );
    const page = core.history.listImages({ states: [...VISIBLE_STATES], offset: far, limit: 60 });
    expect(page.items).toHaveLength(Math.min(60, images - far));
    expect(seek).toHaveReturnedWith({ after: expect.any(Array), skip: 10 });
  });

  it('starts nothing for a host that runs the history in its own thread (the CLI)', async () => {
    const events = watchPort();
    await open(true, events);
    expect(events).toEqual(['opened']);
  });
});
