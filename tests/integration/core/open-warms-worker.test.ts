/**
 * Opening the library starts the history worker and has it ready its store for the first triage
 * write (HistoryPort.warm) before the core is handed over, so the first rating after opening does
 * not pay the thread's start and a cold write (at 1,000,000 tasks its commit took 443 ms against
 * 134-164 ms for the next ones, and main's longest stall 52.6 ms against at most 25.6 ms). A host
 * that runs the history's operations in its own thread (the CLI) starts nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryPort } from '../../../electron/core/history/history-port';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { StaticCredentials } from '../../fakes/static-credentials';
import { openTestCore } from './core-harness';

let dir: string;
const cores: PictorCore[] = [];

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
  const credentials = new StaticCredentials('http://127.0.0.1:9', null);
  const core = await openTestCore(dir, credentials, inThread ? { historyPort: { inThread } } : {});
  events.push('opened');
  cores.push(core);
  return core;
};

describe('openPictorCore: the history worker warmed as the library opens', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pictor-open-warm-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(cores.splice(0).map((core) => core.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('has the worker warm its store before the core is handed over', async () => {
    const events = watchPort();
    const warm = vi.spyOn(HistoryPort.prototype, 'warm');
    await open(false, events);
    // Asked once, with nothing else before it, and answered (the worker started) before the open.
    expect(warm).toHaveBeenCalledTimes(1);
    expect(events).toEqual(['asked warm', 'answered warm', 'opened']);
  });

  it('starts nothing for a host that runs the history in its own thread (the CLI)', async () => {
    const events = watchPort();
    await open(true, events);
    expect(events).toEqual(['opened']);
  });
});
