/**
 * The engine's sidecar writer: a change of triage alone writes what holds triage on disk
 * (`writeTriage`: the images' XMP sidecars), any other change the whole sidecar; a change of the
 * record asked for while a triage write runs (or before it starts) makes the next write whole,
 * never lost behind the triage one. A thousand tasks asked for at once are written a few at a
 * time, in the order asked, each once, and `flush` waits for the last.
 */
import { describe, expect, it } from 'vitest';
import { SidecarWriter } from '../../../../electron/core/engine/sidecar-writer';
import { silentLogger } from '../../../../electron/ports/logger';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeTask } from '../../../support/task-records';

function writer() {
  const written: string[] = [];
  let release: (() => void) | null = null;
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve;
    });
  const record = makeTask({ localId: 'a', folder: 't-0' });
  const sidecars = new SidecarWriter(
    async (r: TaskRecord) => {
      written.push(`whole ${r.localId}`);
      await gate();
    },
    (localId) => (localId === 'a' ? record : undefined),
    silentLogger,
    async (r: TaskRecord) => {
      written.push(`triage ${r.localId}`);
      await gate();
    },
  );
  const open = async () => {
    while (!release) await Promise.resolve();
    const go = release as () => void;
    release = null;
    go();
  };
  return { sidecars, written, open };
}

describe('SidecarWriter', () => {
  it('writes a triage change to what holds triage, and any other change whole after it', async () => {
    const { sidecars, written, open } = writer();
    sidecars.request('a', 'triage');
    await open();
    await sidecars.flush();
    expect(written).toEqual(['triage a']);

    sidecars.request('a', 'triage');
    sidecars.request('a', 'record');
    await open();
    await sidecars.flush();
    // Both asked for before the write began: one write, whole.
    expect(written).toEqual(['triage a', 'whole a']);

    sidecars.request('a', 'triage');
    while (written.length < 3) await Promise.resolve();
    sidecars.request('a', 'record');
    await open();
    await open();
    await sidecars.flush();
    expect(written).toEqual(['triage a', 'whole a', 'triage a', 'whole a']);
  });

  it('writes whole when asked without a scope', async () => {
    const { sidecars, written, open } = writer();
    sidecars.request('a');
    await open();
    await sidecars.flush();
    expect(written).toEqual(['whole a']);
  });

  it('writes a thousand tasks a few at a time, in order, each once, and flush waits for all', async () => {
    const ids = Array.from({ length: 1_000 }, (_, n) => `t-${String(n).padStart(4, '0')}`);
    const records = new Map(
      ids.map((localId) => [localId, makeTask({ localId, folder: localId })]),
    );
    const started: string[] = [];
    const gates: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const sidecars = new SidecarWriter(
      async (r: TaskRecord) => {
        started.push(r.localId);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running -= 1;
      },
      (localId) => records.get(localId),
      silentLogger,
    );
    for (const localId of ids) sidecars.request(localId, 'triage');
    // A task asked for again while it waits its turn is still written once.
    sidecars.request(ids[999]!, 'triage');
    let flushed = false;
    const flush = sidecars.flush().then(() => (flushed = true));
    while (started.length < ids.length) {
      while (gates.length === 0) await Promise.resolve();
      expect(flushed).toBe(false);
      gates.shift()?.();
      await Promise.resolve();
    }
    while (gates.length > 0) gates.shift()?.();
    await flush;
    expect(started).toEqual(ids);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(16);
  });
});
