import { describe, expect, it } from 'vitest';
import { CliProgress } from '../../../electron/cli/cli-progress';
import { problemLine } from '../../../electron/cli/resume-lines';
import type { LiveState } from '../../../shared/domain/live-state';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';

const refused = {
  kind: 'auth' as const,
  message: 'The service refused the API key (401). Check the key in Settings.',
};

function lines(record: TaskRecord): string[] {
  const written: string[] = [];
  const progress = new CliProgress(
    new Set([record.localId]),
    (line) => written.push(line),
    () => 0,
  );
  progress.onUpdate({ record, live: { nextPollAt: null, polling: false, downloads: 0 } });
  const problem = problemLine(record, { command: 'pictor resume x', serviceNamed: true });
  return [...written, ...(problem ? [problem] : [])];
}

describe('CLI progress and report lines', () => {
  it('a refused submit is said once, in the words of the command line (no Settings there)', () => {
    const output = lines(
      makeTaskRecord({ localId: 'l-1', status: 'submit_failed', error: refused }, 0),
    );
    expect(output.join('').match(/refused the API key/g)).toHaveLength(1);
    expect(output.join('')).toContain('Check SERVICE_API_KEY');
    expect(output.join('')).not.toContain('Settings');
  });

  it('a task held back by its service’s limit on running tasks says so', () => {
    const record = makeTaskRecord(
      { localId: 'l-w', status: 'submitting', taskId: null, provider: 'bfl' },
      0,
    );
    const written: string[] = [];
    const progress = new CliProgress(
      new Set(['l-w']),
      (line) => written.push(line),
      () => 0,
    );
    const live = { nextPollAt: null, polling: false, downloads: 0 };
    progress.onUpdate({ record, live });
    progress.onUpdate({ record, live: { ...live, runningAtLimit: 24 } });
    expect(written).toHaveLength(2);
    expect(written[0]).not.toContain('waiting');
    expect(written[1]).toContain('waiting: 24 tasks already running on Black Forest Labs');
  });

  it('a task still running shows its latest trouble on its progress line', () => {
    const output = lines(
      makeTaskRecord(
        { localId: 'l-2', status: 'submitting', error: { ...refused, kind: 'network' as const } },
        0,
      ),
    );
    expect(output.join('')).toContain('Check SERVICE_API_KEY');
  });
});

describe('CLI progress: a task’s place in its service’s queue', () => {
  const waiting: LiveState = { nextPollAt: null, polling: false, downloads: 0 };
  const task = makeTaskRecord(
    { localId: 'l-3', taskId: 'req-3', status: 'processing', finishedAt: null },
    0,
  );

  it('is said while the task waits, each move on its own line, and no more once it runs', () => {
    const written: string[] = [];
    let now = 0;
    const progress = new CliProgress(
      new Set([task.localId]),
      (line) => written.push(line),
      () => now,
    );
    progress.onUpdate({ record: task, live: { ...waiting, queuePosition: 2 } });
    // The same place a second later is no news (the heartbeat says it later).
    now = 1_000;
    progress.onUpdate({ record: task, live: { ...waiting, queuePosition: 2 } });
    now = 2_000;
    progress.onUpdate({ record: task, live: { ...waiting, queuePosition: 0 } });
    now = 3_000;
    progress.onUpdate({ record: task, live: waiting });
    expect(written).toHaveLength(3);
    expect(written[0]).toContain('in queue, 2 ahead');
    expect(written[1]).toContain('next in queue');
    expect(written[2]).not.toContain('queue');
    expect(written[2]).toContain('processing');
  });
});
