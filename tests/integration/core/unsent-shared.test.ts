/**
 * Two Pictor processes on one library (two cores over one SQLite history, with its leases) find
 * the same tasks stored but never sent, some free, some leased to a process that died: each task
 * is sent by exactly one of them, once (electron/core/engine/send-mark.ts).
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { syncFingerprint } from '../../fakes/static-credentials';
import { coreAgainstDemo } from './core-harness';
import { UNTIL } from '../../support/waits';

function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

describe('tasks stored but never sent, found by two processes at once', () => {
  it('are sent once each, by one of them', async () => {
    const harness = await coreAgainstDemo({ durationMs: 300 });
    const first = harness.core;
    const second = await harness.open();
    try {
      const now = Date.now();
      const records: TaskRecord[] = Array.from({ length: 8 }, (_, n) => ({
        ...newTaskRecord(
          {
            localId: `left-${n}`,
            taskId: null,
            origin: 'submitted',
            endpoint: harness.service.url,
            account: syncFingerprint('sk-alice'),
            request: { prompt: `left behind ${n}`, size: '256x256' },
          },
          now,
        ),
        sendState: 'queued',
      }));
      const ids = records.map((record) => record.localId);
      // Half free, half leased to a process that died before sending them.
      first.history.putMany(records.slice(0, 4));
      first.history.putMany(records.slice(4), {
        owner: `${hostname()}:${deadPid()}:crashed`,
        until: now + 60_000,
      });

      first.engine.start({ resume: true });
      second.engine.start({ resume: true });
      await expect
        .poll(() => ids.map((id) => first.history.get(id)?.status), UNTIL)
        .toEqual(ids.map(() => 'completed'));
      expect(harness.service.log.submits).toHaveLength(records.length);
      const prompts = harness.service.tasks().map((task) => task.prompt);
      expect(prompts.sort()).toEqual(records.map((record) => record.request.prompt).sort());
    } finally {
      await second.close();
    }
  }, 60_000);
});
