/**
 * The engine's sidecar writer: a change of triage alone writes what holds triage on disk
 * (`writeTriage`: the images' XMP sidecars), any other change the whole sidecar; a change of the
 * record asked for while a triage write runs (or before it starts) makes the next write whole,
 * never lost behind the triage one.
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
});
